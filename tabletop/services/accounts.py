"""Accounts: sign-up that reveals no one's email, and the mailed link that verifies it.

With `ACCOUNT_EMAIL_VERIFICATION` (on by default when DEBUG is off) a new account is
made inactive and a signed link is mailed to its address; the account can log in once
the link is opened (`account_verify`). The link carries the account, where to go next
(an invitation) and a fingerprint of the account's state, so it works once and expires
after `ACCOUNT_VERIFICATION_SECONDS`. Logging in with the right password before then is
refused, and mails the link again (`account_verification_resend`).

An address already in use gets the same answer as a new one ("check your mail"): its
owner is mailed instead that someone tried to sign up with it, with a working reset link
(or, for an account still waiting for verification, its link again). Mails to one account
are limited (`MAILS_PER_ACCOUNT` per window, tabletop/rate_limits.py), and each carries a
working link, so that the limit cannot be used to keep its owner from one.
"""

from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import User
from django.contrib.auth.tokens import default_token_generator
from django.core import signing
from django.core.mail import send_mail
from django.db import transaction
from django.db.models import QuerySet
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from tabletop import rate_limits
from tabletop.services.errors import ServiceError

SALT = "tabletop.accounts.verify"


@dataclass(frozen=True)
class Site:
    """Where the mailed links point: `base` is 'https://host' (no trailing slash)."""

    base: str
    domain: str


def _state(user: User) -> str:
    """Changes once the account is verified (or its password, address or login do)."""
    value = f"{user.pk}|{user.password}|{user.is_active}|{user.last_login}|{user.email}"
    return salted_hmac(SALT, value).hexdigest()[:24]


def awaits_verification(user: User) -> bool:
    """An account made by a sign-up whose link was never opened."""
    return not user.is_active and user.last_login is None


def unverified_lapsed() -> QuerySet:
    """Sign-ups whose verification link has expired unopened: never logged in, inactive,
    not staff, in no campaign and with no roster. Deleting them frees their user name
    and address (a name taken by a sign-up never verified stayed taken for good)."""
    older = timezone.now() - timedelta(seconds=settings.ACCOUNT_VERIFICATION_SECONDS)
    return get_user_model().objects.filter(
        is_active=False,
        last_login__isnull=True,
        is_staff=False,
        is_superuser=False,
        date_joined__lt=older,
        memberships__isnull=True,
        campaigns_run__isnull=True,
        rosters__isnull=True,
    )


def verification_token(user: User, next_url: str = "") -> str:
    return signing.dumps({"u": user.pk, "s": _state(user), "n": next_url}, salt=SALT)


def mail_allowed(user: User) -> bool:
    """Counts a mail to `user`, unless `MAILS_PER_ACCOUNT` went out within the window."""
    return not rate_limits.take(f"limits:mail:user:{user.pk}", settings.MAILS_PER_ACCOUNT)


def _mail(user: User, template: str, context: dict) -> None:
    """Mails `user` registration/<template>_subject.txt and _email.txt, within the limit."""
    if not mail_allowed(user):
        return
    context = {"user": user, **context}
    subject = render_to_string(f"registration/{template}_subject.txt", context).strip()
    body = render_to_string(f"registration/{template}_email.txt", context)
    send_mail(subject, body, None, [user.email])


def _reset_link(user: User, site: Site) -> str:
    """A working password-reset link, as the reset mail has: every mail the per-account
    limit counts carries one, so strangers' sign-ups cannot keep the owner from resetting."""
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    token = default_token_generator.make_token(user)
    return site.base + reverse("password_reset_confirm", kwargs={"uidb64": uid, "token": token})


def _mail_verification(user: User, site: Site, next_url: str) -> None:
    path = reverse("account_verify", kwargs={"token": verification_token(user, next_url)})
    days = max(1, settings.ACCOUNT_VERIFICATION_SECONDS // 86400)
    _mail(user, "signup_verify", {"link": site.base + path, "site": site, "days": days})


def account_verification_resend(*, user: User, site: Site, next_url: str = "") -> None:
    """Mails the link again to an account awaiting verification (its password was given)."""
    if awaits_verification(user):
        _mail_verification(user, site, next_url)


def account_signup(
    *, username: str, email: str, password: str, site: Site, next_url: str = ""
) -> User | None:
    """Makes the account (inactive while it awaits verification), or, when `email` is an
    account's already, mails that account instead and returns None."""
    existing = User.objects.filter(email__iexact=email).first()
    if existing is not None:
        make_password(password)  # as long as making an account takes: no timing tell
        if awaits_verification(existing):
            _mail_verification(existing, site, next_url)
        else:
            _mail(existing, "signup_taken", {"site": site, "reset": _reset_link(existing, site)})
        return None
    verify = settings.ACCOUNT_EMAIL_VERIFICATION
    with transaction.atomic():
        user = User.objects.create_user(username, email=email, password=password)
        if verify:
            user.is_active = False
            user.save(update_fields=["is_active"])
    if verify:
        _mail_verification(user, site, next_url)
    return user


@transaction.atomic
def account_verify(*, token: str) -> tuple[User, str]:
    """Activates the account a verification link names; (the account, where next)."""
    try:
        payload = signing.loads(token, salt=SALT, max_age=settings.ACCOUNT_VERIFICATION_SECONDS)
    except signing.SignatureExpired:
        raise ServiceError(
            "This link is too old. Sign up again to get a new one.", code="expired"
        ) from None
    except signing.BadSignature:
        raise ServiceError("This link does not work: copy it whole from the mail.") from None
    user = get_user_model().objects.select_for_update().filter(pk=payload.get("u")).first()
    if user is None or not constant_time_compare(str(payload.get("s")), _state(user)):
        raise ServiceError("This link was used already, or the account has changed since.")
    user.is_active = True
    user.save(update_fields=["is_active"])
    return user, str(payload.get("n") or "")
