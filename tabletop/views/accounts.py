"""Pages. Thin: forms and requests in, services and selectors do the work."""

from typing import Any

from django.conf import settings
from django.contrib import admin, messages
from django.contrib.auth import login
from django.contrib.auth.views import (
    LoginView,
    PasswordChangeView,
    PasswordResetConfirmView,
    PasswordResetView,
)
from django.forms import BaseForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import Resolver404, resolve
from django.utils.http import url_has_allowed_host_and_scheme

from tabletop import login_throttle, rate_limits, selectors
from tabletop.account_forms import (
    LimitedPasswordChange,
    LimitedPasswordReset,
    LoginForm,
    SignupForm,
)
from tabletop.models import Invitation
from tabletop.services.accounts import (
    Site,
    account_signup,
    account_verification_resend,
    account_verify,
)
from tabletop.services.campaigns import invitation_accept, invitation_problem
from tabletop.services.errors import ServiceError

BACKEND = "django.contrib.auth.backends.ModelBackend"
TOO_MANY_SIGNUPS = "Too many sign-ups from your address. Try again in {wait}."
TOO_MANY_RESETS = "Too many reset links asked for from your address. Try again in {wait}."


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


def _site(request: HttpRequest) -> Site:
    return Site(base=f"{request.scheme}://{request.get_host()}", domain=request.get_host())


def _safe_next(request: HttpRequest, next_url: str) -> str:
    allowed = url_has_allowed_host_and_scheme(next_url, allowed_hosts={request.get_host()})
    return next_url if allowed else ""


def _too_many(form: BaseForm, message: str, wait: float) -> int:
    """Says on the form when to try again; the status to answer: 429 Too Many Requests."""
    form.add_error(None, message.format(wait=rate_limits.in_words(wait)))
    return 429


def _welcome(request: HttpRequest, user: Any, next_url: str) -> HttpResponse:
    """Logs the new account in; from an invitation, it joins at once: an invitee never has
    to find the link again."""
    login(request, user, backend=BACKEND)
    login_throttle.succeeded(user.get_username(), request)  # an address the name uses
    invitation = _invitation_in(next_url) if next_url else None
    if invitation is not None:
        try:
            membership = invitation_accept(token=invitation.token, user=user)
        except ServiceError:
            return redirect(next_url)  # the join page says why (used, expired)
        messages.success(request, f"You joined {membership.campaign.name}.")
        return redirect("campaign", campaign_id=membership.campaign_id)
    return redirect(next_url or "home")


def signup_closed_because(invitation: Invitation | None) -> str | None:
    """Why the site's SIGNUP setting refuses this sign-up, in the page's words; None if open."""
    if settings.SIGNUP == "open":
        return None
    if settings.SIGNUP == "invitation":
        if invitation is not None and invitation_problem(invitation) is None:
            return None
        return "New accounts are made from a campaign's invitation link: ask its game master."
    return "This site makes no new accounts here: ask its administrator for one."


def signup(request: HttpRequest) -> HttpResponse:
    """A new account. With email verification on, every valid sign-up is answered "check
    your mail", whether the address is new or an account's already (its owner is told)."""
    next_url = _safe_next(request, request.POST.get("next") or request.GET.get("next") or "")
    invitation = _invitation_in(next_url) if next_url else None
    closed = signup_closed_because(invitation)
    if closed:
        return render(request, "registration/signup_closed.html", {"why": closed}, status=403)
    form = SignupForm(request.POST or None)
    context = {
        "next": next_url,
        "invitation": invitation,
        "verification": settings.ACCOUNT_EMAIL_VERIFICATION,
    }
    if request.method == "POST" and form.is_valid():
        key = rate_limits.address_key("signup", request)
        wait = rate_limits.take(key, settings.SIGNUPS_PER_ADDRESS)
        if wait:
            status = _too_many(form, TOO_MANY_SIGNUPS, wait)
            page = {"form": form, **context}
            return render(request, "registration/signup.html", page, status=status)
        user = account_signup(
            username=form.cleaned_data["username"],
            email=form.cleaned_data["email"],
            password=form.cleaned_data["password1"],
            site=_site(request),
            next_url=next_url,
        )
        if user is None or not user.is_active:
            return redirect("signup_done")
        return _welcome(request, user, next_url)
    return render(request, "registration/signup.html", {"form": form, **context})


def signup_done(request: HttpRequest) -> HttpResponse:
    return render(request, "registration/signup_done.html")


def verify(request: HttpRequest, token: str) -> HttpResponse:
    """The mailed link. Opening it shows a button; pressing it (a POST, which mail
    scanners that open links do not do) activates the account and logs it in."""
    if request.method != "POST":
        return render(request, "registration/signup_verify.html", {"token": token})
    try:
        user, next_url = account_verify(token=token)
    except ServiceError as error:
        context = {"token": token, "error": error.message}
        return render(request, "registration/signup_verify.html", context, status=400)
    messages.success(request, "Your email address is verified. Welcome!")
    return _welcome(request, user, _safe_next(request, next_url))


class ThrottledLoginView(LoginView):
    """The login page; a locked-out login is answered 429 (Too Many Requests)."""

    authentication_form = LoginForm

    def form_invalid(self, form: Any) -> HttpResponse:
        if form.unverified is not None:  # the right password: the link again, to the same next
            next_url = self.get_redirect_url()
            account_verification_resend(
                user=form.unverified, site=_site(self.request), next_url=next_url
            )
            messages.info(self.request, "We have mailed the link again.")
        response = super().form_invalid(form)
        if _throttled(form):
            response.status_code = 429
        return response


login_page = ThrottledLoginView.as_view()


def _throttled(form: Any) -> bool:
    return any(error.code == "locked_out" for error in form.non_field_errors().as_data())


def admin_login(request: HttpRequest) -> HttpResponse:
    """The admin's login (its form is throttled like the site's: AdminLoginForm), answered
    429 when throttled as the site's is (it answered 200 with the message)."""
    response = admin.site.login(request)
    form = (getattr(response, "context_data", None) or {}).get("form")
    if form is not None and form.is_bound and _throttled(form):
        response.status_code = 429
    return response


class LimitedPasswordResetView(PasswordResetView):
    """Reset mail: `PASSWORD_RESET_REQUESTS_PER_ADDRESS` requests per window from one
    address (answered 429), and `MAILS_PER_ACCOUNT` mails to one account (the form)."""

    form_class = LimitedPasswordReset

    def form_valid(self, form: Any) -> HttpResponse:
        key = rate_limits.address_key("reset", self.request)
        wait = rate_limits.take(key, settings.PASSWORD_RESET_REQUESTS_PER_ADDRESS)
        if wait:
            status = _too_many(form, TOO_MANY_RESETS, wait)
            return self.render_to_response(self.get_context_data(form=form), status=status)
        return super().form_valid(form)


class ResetConfirmView(PasswordResetConfirmView):
    """A completed reset also forgets the failed logins counted for the account's name:
    whoever reset it holds its mail, and should not wait out a stranger's guesses."""

    def form_valid(self, form: Any) -> HttpResponse:
        response = super().form_valid(form)
        login_throttle.forget_name(form.user.get_username())
        return response


class LimitedPasswordChangeView(PasswordChangeView):
    """Password change; too many wrong current passwords are answered 429."""

    form_class = LimitedPasswordChange

    def form_invalid(self, form: Any) -> HttpResponse:
        response = super().form_invalid(form)
        if any(e.code == "throttled" for e in form.errors.as_data().get("old_password", [])):
            response.status_code = 429
        return response


password_reset = LimitedPasswordResetView.as_view()
password_reset_confirm = ResetConfirmView.as_view()
password_change = LimitedPasswordChangeView.as_view()
