"""Who is at the table: a user, their role, and the sides they may give orders to."""

from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser

from tabletop.models import Battle, BattleSide, Membership, Role


@dataclass(frozen=True)
class Actor:
    user_id: int
    name: str
    role: str
    sides: frozenset[str]

    @property
    def is_gm(self) -> bool:
        return self.role == Role.GM

    @property
    def plays(self) -> bool:
        """GMs and players act; spectators only watch."""
        return self.role in (Role.GM, Role.PLAYER)

    def controls(self, side: str) -> bool:
        return self.is_gm or side in self.sides


def actor_for(battle: Battle, user: AbstractBaseUser, membership: Membership) -> Actor:
    if membership.role == Role.GM:
        sides = set(battle.sides.values_list("side", flat=True))
    elif membership.role == Role.PLAYER:
        sides = set(
            BattleSide.objects.filter(battle=battle, roster__owner=user).values_list(
                "side", flat=True
            )
        )
    else:
        sides = set()
    return Actor(user.pk, user.get_username(), membership.role, frozenset(sides))


def current_actor(user: AbstractBaseUser, battle_id: int) -> Actor | None:
    """The user at the battle's table as the database has them now, or None when they
    are no longer a member: read for every frame, so that a change of role (a player
    demoted to spectator) reaches the sockets they opened before (issue 15)."""
    from tabletop import selectors  # selectors imports the models this module does

    found = selectors.battle_membership(user, battle_id)
    if found is None:
        return None
    battle, membership = found
    return actor_for(battle, user, membership)
