"""The live table's websocket. Thin: parse a frame, call a service, reply or broadcast."""

from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from tabletop import selectors


class TableConsumer(AsyncJsonWebsocketConsumer):
    """One connection to one battle's table, for a member of its campaign."""

    async def connect(self) -> None:
        battle_id = int(self.scope["url_route"]["kwargs"]["battle_id"])
        found = await database_sync_to_async(selectors.battle_membership)(
            self.scope["user"], battle_id
        )
        if found is None:
            # Anonymous, not a member, or no such battle: the same refusal for all,
            # so that ids of other campaigns' battles leak nothing.
            await self.close(code=4403)
            return
        self.battle, self.membership = found
        self.group = f"battle-{battle_id}"
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.send_json(
            {
                "type": "hello",
                "role": self.membership.role,
                "seq": self.battle.last_seq,
                "state": self.battle.state,
            }
        )

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        await self.send_json({"type": "error", "code": "not_implemented"})
