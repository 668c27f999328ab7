"""Game systems, one package each; registered in rules.engine.registry."""
