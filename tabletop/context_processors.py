"""What every page's frame shows: the release, and whether strangers may sign up."""

from django.conf import settings
from django.http import HttpRequest

from tabletop.version import VERSION


def site(request: HttpRequest) -> dict[str, str]:
    return {"tabletop_version": VERSION, "signup_mode": settings.SIGNUP}
