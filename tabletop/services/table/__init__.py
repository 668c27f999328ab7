"""The live table: every write behind the websocket (docs/protocol.md).

One module a concept: `act`, `preview`, `undo`, `gm` (fiat, delay), `turn_end`,
`chat`, `dice`, `presence`; `command` is the shared frame of a write (lock the
battle, answer a resent id the same way, append the event); `log` reads the
event log; `referee` is the one door to the rules engine's judgement, and
`tabletop.services.game_systems` to its turn structures (who may act, what ends).
"""
