"""The contract's tolerances, in inches."""

#: Bases or terrain within this distance are "in contact" / "touching" (AOD-D19).
CONTACT = 0.01
#: Penetration deeper than this is an "overlap".
OVERLAP = 0.01
#: Lengths and costs compare within this.
LENGTH = 0.001
#: A distance at or below this counts as "distance 0" when locating t* (section 4):
#: only float noise, so that a base that stops exactly tangent has t* = its end.
EVENT = 1e-6
#: Largest corner movement between two sampled angles of a rotation (AOD-D17).
ROTATION_STEP = 0.005
#: Spacing of pose samples along a straight segment. Events between samples are
#: never missed (Track.crossing bounds the distance between samples) and are
#: located to about 1e-4 of this spacing.
SAMPLE_STEP = 0.5
