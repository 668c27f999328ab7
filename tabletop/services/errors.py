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

    def by_field(self) -> dict[str | None, list[str]]:
        """The error messages keyed by the input they are about (None: the whole form)."""
        return {self.field: [self.message]}


class InvalidInput(ServiceError):
    """Several inputs are wrong at once; each message sits at its own field."""

    def __init__(self, errors: dict[str, str]):
        first_field, first_message = next(iter(errors.items()))
        super().__init__(first_message, field=first_field)
        self.errors = errors

    def by_field(self) -> dict[str | None, list[str]]:
        return {field: [message] for field, message in self.errors.items()}


class PermissionDenied(ServiceError):
    code = "forbidden"
