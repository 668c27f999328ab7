"""The battle's record, read from its event log: files for the engine (a position, a
disputed ruling), the battle report, the campaign at a glance.

Everything here reads; nothing writes. What a spectator may read stops at the
battle's spectator delay (`horizon`).
"""
