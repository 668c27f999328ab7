"""aod: MechWarrior: Age of Destruction (seeds 000, 001; notes rules/aod.md)."""
