"""How every campaign page finds its campaign and decides who may see and change it.

A campaign's pages exist only for its members: anyone else gets 404, so ids of
other campaigns reveal nothing. A member without the right gets 403.
"""

from collections.abc import Callable
from functools import wraps
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied as Forbidden
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from tabletop import selectors
from tabletop.forms import add_service_error
from tabletop.models import Campaign, Membership, Role
from tabletop.services.errors import PermissionDenied, ServiceError

View = Callable[..., HttpResponse]


class SignedInRequest(HttpRequest):
    """The request a view behind `login_required` gets: its user is an account, never
    the anonymous one, and so may act in a service."""

    user: User


def campaign_page(view: View) -> View:
    """Passes (request, campaign, membership, **kwargs); 404 unless the user is a member."""

    @login_required
    @wraps(view)
    def wrapper(request: HttpRequest, campaign_id: int, **kwargs: Any) -> HttpResponse:
        campaign = get_object_or_404(Campaign, pk=campaign_id)
        membership = selectors.membership_of(request.user, campaign.pk)
        if membership is None:
            raise Http404("No such campaign.")
        return view(request, campaign, membership, **kwargs)

    return wrapper


def found(obj: Any) -> Any:
    """The object, or 404: lookups are scoped to the campaign, so a foreign id is not found."""
    if obj is None:
        raise Http404("Not found in this campaign.")
    return obj


def require_gm(membership: Membership) -> None:
    if membership.role != Role.GM:
        raise Forbidden("Only the campaign's game master may do that.")


def submit(
    form: forms.Form,
    write: Callable[[], Any],
    *,
    aliases: dict | None = None,
    refuse: Callable[[ServiceError], None] | None = None,
) -> tuple[Any, bool]:
    """Runs a service for a valid form: (result, True), or (None, False) with the
    service's errors at their fields (or where `refuse` puts them). A refused permission
    becomes 403."""
    if not form.is_valid():
        return None, False
    try:
        return write(), True
    except PermissionDenied as error:
        raise Forbidden(error.message) from None
    except ServiceError as error:
        if refuse is not None:
            refuse(error)
        else:
            add_service_error(form, error, aliases)
        return None, False


def run_or_forbid(request: HttpRequest, write: Callable[[], Any]) -> bool:
    """Runs a service that takes no form (a button): a refusal becomes a message, or 403."""
    try:
        write()
    except PermissionDenied as error:
        raise Forbidden(error.message) from None
    except ServiceError as error:
        messages.error(request, error.message)
        return False
    return True


def render_form_page(
    request: HttpRequest, template: str, context: dict[str, Any], *, invalid: bool = False
) -> HttpResponse:
    """Renders a page; a page re-shown because of bad input answers 400, not 200."""
    return render(request, template, context, status=400 if invalid else 200)
