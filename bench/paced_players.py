"""The capacity bench's players as bench/move_cpu.py and bench/end_turn_cpu.py play them,
frame by frame: the side to act moves each of its units one inch (toward the table's
centre, and back on the side's next turn: always legal), then ends its turn."""

import json
from typing import Any


class PacedPlayers:
    """`by_side`: each side's unit ids in order; `xs`: each unit's position (kept up to
    date); `seats`: each side's player. Set `seq` to the last answer's."""

    def __init__(
        self, by_side: dict[str, list[str]], xs: dict[str, list[float]], seats: dict[str, Any]
    ) -> None:
        self.by_side, self.xs, self.seats = by_side, xs, seats
        self.side, self.index, self.n, self.seq = "P1", 0, 0, 0
        self.stepped: set[str] = set()

    def next_frame(self) -> tuple[Any, Any]:
        """The next frame, parsed as the socket parses it, and the seat that sends it."""
        from tabletop import protocol

        side = self.side
        self.n += 1
        if self.index < len(self.by_side[side]):
            unit = self.by_side[side][self.index]
            self.index += 1
            x, y = self.xs[unit]
            step = (1 if y < 24 else -1) * (-1 if unit in self.stepped else 1)
            self.stepped ^= {unit}
            self.xs[unit] = [x, y + step]
            action = {"unit": unit, "type": "move", "path": [[x, y + step]]}
            raw = {"type": "act", "id": f"a{self.n}", "seen": self.seq, "action": action}
        else:
            raw = {"type": "end_turn", "id": f"e{self.n}"}
            self.side, self.index = ("P2" if side == "P1" else "P1"), 0
        return protocol.parse(json.dumps(raw)), self.seats[side]
