"""M.S. Wars (seed 002, rules notes mswars.md): vocabularies, tables as data, hooks."""
