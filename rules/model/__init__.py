"""The bottom floor: the data model every other part of the engine reads.

Frozen positions (`state`), actions (`actions`), the shared terrain geometry of a map
(`map_geometry`) and the errors malformed input raises. It imports nothing else of
`rules/`: geometry, the kernel (`rules/engine/`) and the systems import it, never the
other way round (tests/rules/test_layers.py).
"""
