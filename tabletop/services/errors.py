"""Errors a service raises instead of writing anything."""


class ServiceError(Exception):
    """A write was refused. `field` names the offending input where there is one."""

    code = "invalid"

    def __init__(self, message: str, *, field: str | None = None, code: str | None = None):
        super().__init__(message)
        self.message = message
        self.field = field
        if code:
            self.code = code


class PermissionDenied(ServiceError):
    code = "forbidden"
