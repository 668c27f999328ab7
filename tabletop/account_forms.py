"""The account forms: sign-up with an email address, the throttled login, and the
limited password reset and change (tabletop/login_throttle.py, tabletop/rate_limits.py)."""

from collections.abc import Iterator
from typing import Any

from django import forms
from django.conf import settings
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import (
    AuthenticationForm,
    PasswordChangeForm,
    PasswordResetForm,
    UserCreationForm,
)

from tabletop import login_throttle, metrics, rate_limits
from tabletop.services.accounts import awaits_verification, mail_allowed

UNVERIFIED = "This account's email address is not verified yet: open the link mailed to it."
WRONG_OLD_PASSWORDS = "Too many wrong current passwords. Try again in {wait}."


class SignupForm(UserCreationForm):
    """A new account, with the email address a forgotten password is reset through."""

    email = forms.EmailField(
        max_length=254, help_text="Where a password reset link is sent. Never shown to others."
    )

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "email")

    def clean_email(self) -> str:
        """Normalized only: an address in use is not refused here, which would tell anyone
        whose it is (tabletop/services/accounts.py mails its owner instead)."""
        return str(get_user_model().objects.normalize_email(self.cleaned_data["email"]))


class ThrottledLogin:
    """Refuses a login while it waits out failed ones (login_throttle), and says so when
    the right password meets an account whose email is not verified yet."""

    request: Any
    cleaned_data: dict[str, Any]
    #: The account, when the right password met an account awaiting verification.
    unverified: Any = None

    def clean(self) -> dict[str, Any]:
        username = self.cleaned_data.get("username") or ""
        wait = login_throttle.wait_before_login(username, self.request)
        if wait is not None:
            metrics.LOGINS_THROTTLED.inc()
            raise forms.ValidationError(wait.message, code="locked_out")
        try:
            cleaned = super().clean()  # type: ignore[misc]
        except forms.ValidationError:
            self.unverified = self._unverified(username)
            if self.unverified is not None:
                raise forms.ValidationError(UNVERIFIED, code="unverified") from None
            login_throttle.failed(username, self.request)
            raise
        login_throttle.succeeded(username, self.request)
        return cleaned

    def _unverified(self, username: str) -> Any:
        user = get_user_model().objects.filter(username=username).first()
        password = self.cleaned_data.get("password") or ""
        if user is not None and awaits_verification(user) and user.check_password(password):
            return user
        return None


class LoginForm(ThrottledLogin, AuthenticationForm):
    pass


class AdminLoginForm(ThrottledLogin, AdminAuthenticationForm):
    pass


class LimitedPasswordReset(PasswordResetForm):
    """Mails an account at most `MAILS_PER_ACCOUNT` times per window; past that the mail
    is quietly not sent (the page says the same whatever the address)."""

    def get_users(self, email: str) -> Iterator[Any]:
        for user in super().get_users(email):
            if mail_allowed(user):
                yield user


class LimitedPasswordChange(PasswordChangeForm):
    """Takes `PASSWORD_CHANGE_FAILURES_ALLOWED` wrong current passwords per window."""

    def clean_old_password(self) -> str:
        key = f"limits:password-change:user:{self.user.pk}"
        wait = rate_limits.wait_for(key, settings.PASSWORD_CHANGE_FAILURES_ALLOWED)
        if wait:
            message = WRONG_OLD_PASSWORDS.format(wait=rate_limits.in_words(wait))
            raise forms.ValidationError(message, code="throttled")
        try:
            return str(super().clean_old_password())
        except forms.ValidationError:
            rate_limits.count(key)
            raise
