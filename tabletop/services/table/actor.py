"""Who is at the table: a user, their role, and the sides they may give orders to."""

from dataclasses import dataclass

from django.contrib.auth.models import User

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


def actor_for(battle: Battle, user: User, membership: Membership) -> Actor:
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
