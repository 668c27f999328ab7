"""Who may change what in a campaign, checked by every service before it writes.

The GM changes the campaign, its maps, battles and results; a player changes
only their own rosters; a spectator only reads.
"""

from django.contrib.auth.models import AnonymousUser, User

from tabletop.models import Campaign, Membership, Role, Roster
from tabletop.services.errors import PermissionDenied

AnyUser = User | AnonymousUser


def role_in(actor: AnyUser | None, campaign: Campaign) -> str | None:
    if actor is None or not actor.is_authenticated:
        return None
    return (
        Membership.objects.filter(campaign=campaign, user=actor)
        .values_list("role", flat=True)
        .first()
    )


def require_gm(actor: AnyUser | None, campaign: Campaign) -> None:
    if role_in(actor, campaign) != Role.GM:
        raise PermissionDenied("Only the campaign's game master may do that.")


def require_fielding_member(actor: AnyUser | None, campaign: Campaign) -> None:
    """A GM or player: the members who may bring a roster."""
    if role_in(actor, campaign) not in (Role.GM, Role.PLAYER):
        raise PermissionDenied("Only the GM and players bring rosters; spectators watch.")


def require_roster_owner(actor: AnyUser | None, roster: Roster) -> None:
    if actor is None or not actor.is_authenticated or roster.owner_id != actor.pk:
        raise PermissionDenied("Only the roster's owner may change it.")
    require_fielding_member(actor, roster.campaign)
