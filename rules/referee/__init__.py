"""The floor above the systems: what the table asks of whichever system a position names.

Reading positions by their system key (`positions`), the board's questions (`offers`,
`questions`, `alternative`, `sight_ruling`) and the command line (`check`, `cli`). Each
looks the system up in the registry (`rules/systems/registry.py`); the kernel below
never does (tests/rules/test_layers.py).
"""
