"""The account forms: sign-up with an email address, and the throttled login."""

from typing import Any

from django import forms
from django.conf import settings
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm

from tabletop import login_throttle

LOCKED_OUT = (
    "Too many failed logins for this account or from this address. "
    "Wait {minutes} minutes, or reset your password."
)


class SignupForm(UserCreationForm):
    """A new account, with the email address a forgotten password is reset through."""

    email = forms.EmailField(
        max_length=254, help_text="Where a password reset link is sent. Never shown to others."
    )

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "email")

    def clean_email(self) -> str:
        email = get_user_model().objects.normalize_email(self.cleaned_data["email"])
        if get_user_model().objects.filter(email__iexact=email).exists():
            raise forms.ValidationError("An account with this email address exists already.")
        return email


class ThrottledLogin:
    """Refuses a login while its user name or address is locked out (login_throttle)."""

    request: Any
    cleaned_data: dict[str, Any]

    def clean(self) -> dict[str, Any]:
        username = self.cleaned_data.get("username") or ""
        if login_throttle.is_locked_out(username, self.request):
            minutes = max(1, settings.LOGIN_LOCKOUT_SECONDS // 60)
            raise forms.ValidationError(LOCKED_OUT.format(minutes=minutes), code="locked_out")
        try:
            cleaned = super().clean()  # type: ignore[misc]
        except forms.ValidationError:
            login_throttle.failed(username, self.request)
            raise
        login_throttle.succeeded(username, self.request)
        return cleaned


class LoginForm(ThrottledLogin, AuthenticationForm):
    pass


class AdminLoginForm(ThrottledLogin, AdminAuthenticationForm):
    pass
