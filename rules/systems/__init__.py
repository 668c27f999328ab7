"""Game systems, one package each; found by entry point (`rules.systems`, registry.py)."""
