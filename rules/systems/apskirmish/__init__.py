"""The action-point skirmish game (seed 004, ../shared/rules/apskirmish.md)."""
