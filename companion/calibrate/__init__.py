"""Calibrating: the walk-through (:mod:`.wizard`), the verify tally (:mod:`.verify`), ``companion calibrate``
(:mod:`.cli`) and the accuracy bench (:mod:`.bench`).

This layer sits above both halves it joins: ``calibration`` (the versioned profiles and where they are kept,
standard library only) and ``companion.vision`` (tray finding, the colour and picture classifiers, the dice
reader). Neither of those imports this package, nor each other the wrong way (vision reads profiles;
calibration knows nothing of vision).
"""
