"""Pages. Thin: forms and requests in, services and selectors do the work."""

from typing import Any

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.views import LoginView
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import Resolver404, resolve
from django.utils.http import url_has_allowed_host_and_scheme

from tabletop import selectors
from tabletop.account_forms import LoginForm, SignupForm
from tabletop.models import Invitation
from tabletop.services.campaigns import invitation_accept
from tabletop.services.errors import ServiceError


def home(request: HttpRequest) -> HttpResponse:
    campaigns = selectors.campaigns_of(request.user)
    return render(request, "tabletop/home.html", {"campaigns": campaigns})


def _invitation_in(next_url: str) -> Invitation | None:
    """The invitation a `next` link of the form /join/<token>/ points at, or None."""
    try:
        match = resolve(next_url.split("?", 1)[0])
    except Resolver404:
        return None
    if match.url_name != "join":
        return None
    return Invitation.objects.select_related("campaign").filter(**match.kwargs).first()


def signup(request: HttpRequest) -> HttpResponse:
    """A new account. Reached from an invitation (`next` = its link), it joins at once:
    an invitee never has to find the link again."""
    form = SignupForm(request.POST or None)
    next_url = request.POST.get("next") or request.GET.get("next") or ""
    if not url_has_allowed_host_and_scheme(next_url, allowed_hosts={request.get_host()}):
        next_url = ""
    invitation = _invitation_in(next_url) if next_url else None
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        if invitation is not None:
            try:
                membership = invitation_accept(token=invitation.token, user=user)
            except ServiceError:
                return redirect(next_url)  # the join page says why (used, expired)
            messages.success(request, f"You joined {membership.campaign.name}.")
            return redirect("campaign", campaign_id=membership.campaign_id)
        return redirect(next_url or "home")
    context = {"form": form, "next": next_url, "invitation": invitation}
    return render(request, "registration/signup.html", context)


class ThrottledLoginView(LoginView):
    """The login page; a locked-out login is answered 429 (Too Many Requests)."""

    authentication_form = LoginForm

    def form_invalid(self, form: Any) -> HttpResponse:
        response = super().form_invalid(form)
        if any(error.code == "locked_out" for error in form.non_field_errors().as_data()):
            response.status_code = 429
        return response


login_page = ThrottledLoginView.as_view()
