"""The learned dice reader's knobs in one place (:class:`ReaderSettings`); standard library only."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ReaderSettings:
    """The thresholds and sizes the learned reader (:mod:`companion.vision.learned`) decides with: where the
    detector looks (:mod:`~companion.vision.detector`), what the face classifiers keep and what the die verifier
    (:mod:`~companion.vision.verifier`) drops. Defaults are the shipped reader's, chosen on the development photos
    (docs/dice-reader.md gives the comparisons). ``read_dice_learned`` and the functions it calls take one
    (``VisionProfile.learned`` carries it for ``pipeline.read_dice``).

    What the trained networks fix stays a module constant, not a knob: the detector's input normalisation
    (``MEAN``, ``SCALE``), output grid (``STRIDE``) and padding (``MULTIPLE``), the tiles a big input is run in
    (``TILE``, ``TILE_MARGIN``: the margin keeps the network's view of every cell as in one piece), the crops the
    classifiers and the verifier read (``crops.CROP``, ``CROP_CONTEXT``, ``SHRINK_FIRST``, ``VIEWS``;
    ``verifier.CROP``, ``CONTEXT``) and the model files."""

    # the detector: where it looks
    long_side: int = 512  # the frame's longer side is scaled to this for the detector's first look
    sweet: tuple[float, float] = (28.0, 72.0)  # die sizes (px at the network input) the detector reads best;
    # see second_look
    target: float = 40.0  # a second look scales the frame so its dice come out this size
    coarse_side: int = 192  # the quick look for a close-up when nothing sure was found at long_side
    sure_find: float = 0.5  # the detector's peaks this strong are taken as dice when judging their size
    trust_small: float = 30.0  # in a big frame, finds measuring under this at the first look may be far smaller:
    # look closer
    unsure_size: float = 20.0  # in a big frame with no sure find at the first look, its finds are taken as at
    # most this big
    min_side: int = 128  # bounds of the network input's longer side at a second look (and never over the
    max_side: int = 1280  # frame's own)
    max_peaks: int = 400  # at most this many of the strongest peaks are taken from one look per 512x512 px of
    # network input (detector.peak_limit; memory and time stay bounded)
    min_confidence: float = 0.3  # the detector alone (find_dice) reports no weaker peaks
    oversized: float = 1.6  # a box this much bigger than the median of the sure dice (at least oversized_count
    oversized_count: int = 3  # of them) is oversized: touching dice boxed as one

    # the face classifiers: which spots are dice, and which face is up
    find_threshold: float = 0.225  # the two-stage reader asks the detector for peaks this weak, then the
    # classifiers decide (0.2 with the first detector alone; for the pair's mean the highest that passes every
    # reader test, where the val parts keep about as many false dice as before: docs/dice-reader.md, eleventh
    # session; at 0.25 the middle dice of a block of touching dice are lost)
    measure_threshold: float = 0.2  # ... and sizes the frame's dice by peaks this weak (find_at_the_right_scale:
    # tiny dice in a big frame are weak finds until a closer look, and their size decides that look)
    sure: float = 0.95  # a spot the first classifier calls a die and one face, each at least this sure, is not
    # re-read
    die_threshold: float = 0.5  # a found spot the classifiers give less than this probability of being a die goes
    size_sure: float = 0.8  # readings at least this sure set a frame's typical die size (reread_odd_sizes)
    odd_sides: tuple[float, float] = (0.8, 1.25)  # a box with a side outside these multiples of the typical die
    # size is the wrong size
    crop_batch: int = 96  # the classifiers (and the verifier) read at most this many crops in one run (memory)

    # the die verifier: is a candidate a die at all?
    verify: bool = True  # run the verifier (False: every candidate the classifiers keep stays)
    verify_threshold: float = 0.5  # a candidate the verifier gives a lower die probability goes (chosen on the
    # validation parts: docs)
    verify_size_sure: float = 0.9  # dice the verifier is this sure of set the frame's typical die size
    # (at_the_frames_size)
    verify_odd: tuple[float, float] = (0.7, 1.4)  # a box with a side outside these multiples of the typical die
    # is looked at again at that size
    verify_overrule: float = 1.01  # a pip die (not a 1) the classifiers read at least this surely stays whatever
    overrule_die: float = 0.0  # the verifier says, if it gives at least overrule_die (over 1: never, as shipped;
    # measured for dice of a kind the verifier never saw: docs/dice-reader.md, fourteenth session)
    verify_unsure: float = 0.85  # a die kept with a lower die probability is flagged for the player to check
    doubt_confidence: float = 0.5  # a pip die read less surely than this by the classifiers goes when the
    doubt_die: float = 0.7  # verifier gives it a lower die probability than this (drop_doubtful; chosen on the
    # validation parts: docs)
    drop_small: float = 0.6  # a pip die that is not sure (die probability under verify_unsure or confidence under
    drop_small_sure: float = 0.6  # this) whose box's longer side is under drop_small of the median of the frame's
    # sure dice (at least flag_small_count of them) goes: dice on one table are one size (drop_doubtful)

    # the table's own dice, remembered from the player's checked rolls (dice_memory.DiceMemory; none is kept until the
    # dice screen has used a roll; measured on the leave-one-set-out folds: docs/dice-reader.md, seventeenth session)
    memory_k: int = 5  # this many of the remembered views most like a candidate vote on it
    memory_near: float = 0.7  # ... where the nearest is at least this alike (cosine about the memory's mean)
    memory_weight: float = 0.5  # the vote's share of the die probability
    memory_unsure: float = 0.6  # under this share of the die for every face, half of the face is the vote's
    memory_min: int = 10  # a memory of fewer views is not asked
    memory_cap: int = 600  # views kept (the oldest go first)
    memory_turns: int = 1  # each die is remembered as seen in this many quarter turns (1-4)
    memory_find: float = 0.1  # detector peaks this weak (under find_threshold) are dice too where the memory vouches
    # for them (learned.remembered_finds): a remembered view at least memory_find_near alike, at least memory_find_dice
    memory_find_near: float = 0.85  # of the memory_k most alike views dice, and the verifier at least
    memory_find_dice: float = 1.0  # memory_find_verify sure; each is flagged for the player (chosen on the
    memory_find_verify: float = 0.8  # leave-one-set-out folds: docs/dice-reader.md, twentieth session)
    upright: bool = True  # a frame whose dice's pips are stretched (a photo resized to a new aspect ratio, a
    # slanted camera) is read grown back to square dice (upright.upright_for, learned.upright_frame)
    upright_min: float = 0.15  # |log(width / height)| of the typical pip: less is square (the spread of photos whose
    # dice are square, docs/dice-reader.md, twenty-first session)
    upright_gain: float = 1.5  # the stretch taken out is this many times the pips' (blur makes small pips rounder:
    # against the labels' stretch they read 0.55-0.72 of it; 1.5 chosen over 1 and 2 on the folds' val parts)
    upright_max: float = 0.8  # at most this much stretch is taken out (a 16:9 frame squeezed square is 0.58)
    upright_pips: int = 3  # the stretch is measured on at least this many pips
    upright_dice: int = 12  # in the biggest this many of the first look's finds
    upright_camera_shaped: bool = False  # also frames in a camera's own shape (4:3, 3:2, 16:9: not resized; pips
    # not round there mean a slanted camera, and read upright the side faces look like top faces)
    # the face classifiers adapted to the table's look (table_look.TableLook, learned from the candidate spots of the
    # rolls the dice screen used where ``look`` is on; measured on the leave-one-set-out folds: docs/dice-reader.md,
    # eighteenth session)
    look: bool = False  # off as shipped: on the felt-trays fold +1.0-2.1 points; on the grey-mixed fold 4.3-7.0 worse;
    # its trial over the whole reading keeps it out of both (docs/dice-reader.md, twentieth session)
    look_min: int = 100  # a look learned from fewer used dice is not used
    look_cap: int = 400  # its statistics stand for this many dice and as many other spots (older ones weigh less)
    look_far: float = 0.1  # a table nearer than this to a training set's photos reads unadapted (table_look.choice)
    look_strength: float = 1.0  # how far each layer is mapped onto the training photos' numbers (1: all the way)
    look_trial: int = 100  # the trial: the last this many checked dice (and false dice one reading has more of), each
    # read by the whole reader as trained and as adapted to the look as it stood before that roll (TableLook.trial)
    look_margin: int = 2  # the look is used only while, over the trial, the adapted reader is right on at least this
    # many more of them than the reader as trained,
    look_z: float = 2.0  # and on at least this many times the square root of the dice they differ on more: a sign
    # test (the two equally good, the difference spreads by that root), so a few dice either way prove nothing

    # what the player is asked to check
    flag_small: float = 0.65  # a die whose box's longer side is under this share of the median of the frame's
    flag_small_count: int = 3  # dice (at least this many) is flagged: dice on one table are one size, a much
    # smaller "die" is most often one pip of a bigger die or something else (chosen on the validation parts: docs)


DEFAULT_SETTINGS = ReaderSettings()  # the shipped reader's
