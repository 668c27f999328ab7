"""Every read that is more than a `.get()`."""

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import QuerySet

from tabletop.models import Battle, Campaign, Membership


def campaigns_of(user: AbstractBaseUser | AnonymousUser) -> QuerySet[Campaign]:
    """The campaigns `user` belongs to, in any role."""
    if not user.is_authenticated:
        return Campaign.objects.none()
    return Campaign.objects.filter(memberships__user=user).distinct()


def membership_of(user: AbstractBaseUser | AnonymousUser, campaign_id: int) -> Membership | None:
    if not user.is_authenticated:
        return None
    return Membership.objects.filter(user=user, campaign_id=campaign_id).first()


def battle_membership(
    user: AbstractBaseUser | AnonymousUser, battle_id: int
) -> tuple[Battle, Membership] | None:
    """The battle and the user's membership of its campaign, or None if either is missing."""
    battle = Battle.objects.select_related("campaign").filter(pk=battle_id).first()
    if battle is None:
        return None
    membership = membership_of(user, battle.campaign_id)
    if membership is None:
        return None
    return battle, membership
