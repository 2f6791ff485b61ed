"""Dice: the live camera view with each die boxed and labelled, the sum, tap-to-correct, and "use this roll".

Reading runs in the camera thread (``read_dice`` as the feed's processor); the live tracker turns the stream
of readings into one settled roll. The player can correct any die by tapping it (a correction is journaled
as a note action when a game is in progress), add a die the camera missed (tap where it lies, or *Add die*),
remove a false one, and hand the roll to the game. A roll handed over has been checked: the reader remembers its
dice (each die used, each added where it lies, each spot removed as "not a die") and reads this table's dice
with that memory from then on (``companion.vision.dice_memory``; *Forget* empties it).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from kivy.app import App
from kivy.factory import Factory
from kivy.graphics import Color, Line, Rectangle
from kivy.graphics.texture import Texture
from kivy.metrics import dp
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.image import Image
from kivy.uix.label import CoreLabel
from kivy.uix.screenmanager import Screen

from companion.i18n import N_, _, ngettext, pgettext
from companion.journal import JournalError
from companion.ui.screens import load_kv
from companion.ui.screens.camera import frame_texture
from companion.ui.screens.game import not_saved
from companion.ui.words import face_name, game_title
from companion.vision.roll import COLOUR, PICTURE, PIPS, DieRead, LiveState, Roll
from hardware.camera import Frame
from hardware.simtray import TrayRoll

STATUS = {
    LiveState.ROLLING: N_("Rolling…"),
    LiveState.READING: N_("Still — reading…"),
    LiveState.SETTLED: N_("Settled"),
}

load_kv("dice")

FACES: dict[str, list[Any]] = {
    PIPS: [1, 2, 3, 4, 5, 6],
    COLOUR: ["red", "orange", "purple", "blue", "green", "yellow"],
    PICTURE: ["cat", "rat", "swap"],
}


@dataclass(frozen=True)
class LiveResult:
    """What the camera thread hands over per frame: live state, the latest reading, and a settled roll (once)."""

    state: LiveState
    latest: Roll
    settled: Roll | None


def live_processor(settings: dict[str, Any], profile_for: Any, memory_for: Any = None) -> Any:
    """A per-frame function for the camera thread: motion → settle → read → vote (``companion.vision.live``),
    each frame timed by when it was taken (``Frame.taken``). ``profile_for(resolution)`` gives the calibration
    for the frames' size (looked up once per size); ``memory_for(resolution)``, the table's dice remembered
    from the player's checked rolls (asked at every reading: the dice screen learns between rolls)."""
    from dataclasses import replace

    from companion.vision.detections import Detections
    from companion.vision.live import LiveReader, LiveSettings
    from companion.vision.pipeline import DEFAULT_PROFILE, read_dice, to_roll, warm_up

    profiles: dict[tuple[int, int], Any] = {}

    def profile(frame: Any) -> Any:
        size = (int(frame.shape[1]), int(frame.shape[0]))
        if size not in profiles:
            profiles[size] = profile_for(size)
            warm_up(profiles[size])  # the networks load with the first frame, not on the first settled roll
        return profiles[size]

    def read(frame: Any) -> Any:
        p = profile(frame)
        memory = memory_for((int(frame.shape[1]), int(frame.shape[0]))) if memory_for is not None else None
        if memory is not None and len(memory):
            p = replace(p or DEFAULT_PROFILE, memory=memory)
        return read_dice(frame, p)

    flag_below = float(settings["min_confidence"])
    reader = LiveReader(
        LiveSettings(settle_s=settings["settle_ms"] / 1000, votes=int(settings["vote_frames"]), flag_below=flag_below),
        reader=read,
    )

    held: list[Roll | None] = [None]  # the settled roll, handed over with every frame until the dice move again
    # The boxes to draw over this frame: the last reading, but only while the scene has not moved since it was
    # read. A reading of an earlier picture drawn over a new one showed boxes where no dice were.
    overlay: list[Detections] = [Detections.empty()]

    def process(frame: Frame) -> LiveResult:
        profile(frame.image)
        before = reader.latest
        settled = reader.feed(frame.image, frame.taken)
        if reader.latest is not before:
            overlay[0] = reader.latest  # read from this very frame
        elif reader.state == LiveState.ROLLING:
            overlay[0] = Detections.empty()  # the dice moved since that reading
        if settled is not None or reader.state != LiveState.SETTLED:
            held[0] = settled
        # The feed keeps only the newest result for the UI, so a roll sent with one frame alone could be lost.
        return LiveResult(reader.state, to_roll(overlay[0], flag_below=flag_below), held[0])

    return process


class DiceView(Image):
    """The camera image; draws the boxes of the current roll over it and maps touches to frame pixels."""

    def frame_to_widget(self, x: float, y: float, frame_size: tuple[int, int]) -> tuple[float, float]:
        fw, fh = frame_size
        nw, nh = self.norm_image_size
        ox = self.center_x - nw / 2
        oy = self.center_y - nh / 2
        return ox + x * nw / fw, oy + (fh - y) * nh / fh

    def widget_to_frame(self, x: float, y: float, frame_size: tuple[int, int]) -> tuple[float, float]:
        fw, fh = frame_size
        nw, nh = self.norm_image_size
        ox = self.center_x - nw / 2
        oy = self.center_y - nh / 2
        return (x - ox) * fw / max(nw, 1), fh - (y - oy) * fh / max(nh, 1)

    def draw_roll(
        self,
        roll: Roll | None,
        frame_size: tuple[int, int] | None,
        selected: int | None,
        pending: tuple[int, int, int, int] | None = None,
    ) -> None:
        """Each die's box (blue: selected, orange: to check, green: read) and its face; ``pending``: where a die
        being added will lie (dashed white)."""
        self.canvas.after.clear()
        if frame_size is None:
            return
        if pending is not None:
            with self.canvas.after:
                ax, ay = self.frame_to_widget(pending[0], pending[3], frame_size)
                bx, by = self.frame_to_widget(pending[2], pending[1], frame_size)
                Color(1, 1, 1, 1)
                Line(rectangle=(ax, ay, bx - ax, by - ay), width=1, dash_length=dp(4), dash_offset=dp(3))
        if roll is None:
            return
        with self.canvas.after:
            for index, die in enumerate(roll.dice):
                x0, y0, x1, y1 = die.box
                ax, ay = self.frame_to_widget(x0, y1, frame_size)
                bx, by = self.frame_to_widget(x1, y0, frame_size)
                if index == selected:
                    Color(0.2, 0.6, 1, 1)
                elif die.flagged or die.kind == "unknown":
                    Color(1, 0.45, 0.1, 1)
                else:
                    Color(0.2, 0.9, 0.4, 1)
                Line(rectangle=(ax, ay, bx - ax, by - ay), width=dp(2))
                Color(1, 1, 1, 1)
                if self.texture is None:  # no camera image: dice entered by touch show their face inside the box
                    label = CoreLabel(text=face_text(die), font_size=dp(30), bold=True)
                    label.refresh()
                    w, h = label.texture.size
                    Rectangle(texture=label.texture, pos=((ax + bx - w) / 2, (ay + by - h) / 2), size=(w, h))
                    continue
                label = CoreLabel(text=f"{face_text(die)} {die.confidence:.0%}", font_size=dp(16), bold=True)
                label.refresh()
                Rectangle(texture=label.texture, pos=(ax, by + dp(2)), size=label.texture.size)


def box_at(
    point: tuple[float, float], dice: tuple[DieRead, ...] | list[DieRead], frame_size: tuple[int, int]
) -> tuple[int, int, int, int]:
    """A die's box about ``point`` (frame pixels), as big as the roll's other dice (the median side; a seventh
    of the frame's shorter side without any), inside the frame."""
    fw, fh = frame_size
    sides = sorted(max(d.box[2] - d.box[0], d.box[3] - d.box[1]) for d in dice if d.box[2] > d.box[0])
    side = sides[len(sides) // 2] if sides else max(24, min(fw, fh) // 7)
    side = max(8, min(side, fw, fh))
    x0 = int(min(max(point[0] - side / 2, 0), fw - side))
    y0 = int(min(max(point[1] - side / 2, 0), fh - side))
    return (x0, y0, x0 + side, y0 + side)


def free_box(dice: list[DieRead], frame_size: tuple[int, int]) -> tuple[int, int, int, int]:
    """Where to draw a die entered by touch (the camera missed it): the first free place in rows from the
    frame's bottom-left corner, clear of every die already drawn, so it can be tapped to correct it."""
    fw, fh = frame_size
    side = max(24, min(fw, fh) // 7)
    gap = side // 4
    per_row = max(1, (fw - gap) // (side + gap))
    for slot in range(per_row * max(1, (fh - gap) // (side + gap))):
        x0 = gap + (slot % per_row) * (side + gap)
        y1 = fh - gap - (slot // per_row) * (side + gap)
        box = (x0, y1 - side, x0 + side, y1)
        if all(x0 >= d.box[2] or d.box[0] >= box[2] or box[1] >= d.box[3] or d.box[1] >= y1 for d in dice):
            return box
    return (gap, fh - gap - side, gap + side, fh - gap)  # a full frame: the corner


def face_text(die: DieRead) -> str:
    return face_name(die.face)


def roll_summary(roll: Roll) -> str:
    """ "3 + 5 + 6" for pips, then colour and picture faces; "?" marks a die to check."""
    parts = []
    for die in roll.dice:
        text = face_text(die)
        parts.append(f"[color=ff8a50]{text}?[/color]" if die.flagged or die.face is None else text)
    return "  ".join(parts) if parts else _("no dice")


class DiceScreen(Screen):
    """Live dice reading with correction; "use this roll" hands the roll to the game in progress."""

    status_text = StringProperty("")
    status_is_error = BooleanProperty(False)
    sum_text = StringProperty("–")
    dice_text = StringProperty("")
    use_text = StringProperty("")
    can_use = BooleanProperty(False)
    source_text = StringProperty("")  # said under the dice when the frames are not a real camera's
    simulated = BooleanProperty(False)  # the frames are the simulated tray's: a Roll button is shown
    memory_text = StringProperty("")  # how many of this table's dice the reader has learned ("" for none)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.roll: Roll | None = None
        self.frame_size: tuple[int, int] | None = None
        self.selected: int | None = None
        self.adding = False
        self.by_hand = False  # the shown roll was entered or corrected by touch
        self._taken: Roll | None = None  # the settled roll last shown (it comes with every frame until the dice move)
        self.return_to = "home"  # where "use this roll" goes: a game screen, or home
        self.back_to = "home"
        self._texture: Texture | None = None
        self.moving = False  # the dice move on the frames now: boxes drawn for an earlier picture are hidden
        # What the reader learns when the roll is used: the frame it was read on, the boxes the player removed
        # as "not a die", the boxes of dice added by Add die (drawn in a free corner, not where the die lies: not
        # learned), and where a die being added was tapped.
        self._roll_frame: Any = None
        self._removed: list[tuple[int, int, int, int]] = []
        self._unplaced: set[tuple[int, int, int, int]] = set()
        self._add_at: tuple[float, float] | None = None
        self._memory_for: tuple[int, int] | None = None  # the frame size memory_text was counted for

    @property
    def app(self) -> Any:
        return App.get_running_app()

    # -- life cycle --------------------------------------------------------------------------------------

    def open_for(self, return_to: str, back_to: str | None = None) -> None:
        """Say where "use this roll" goes (a game screen, or home) and where Back goes (default: the same)."""
        self.return_to = return_to
        self.back_to = back_to or return_to

    def expected_dice(self) -> TrayRoll:
        """The dice the game we came from waits for (its screen's ``tray_roll()``), else a few number dice."""
        screen = self.app.manager.get_screen(self.return_to) if self.app.manager.has_screen(self.return_to) else None
        wanted = getattr(screen, "tray_roll", None) if self.game_session() is not None else None
        spec = wanted() if wanted is not None else None
        return spec if spec is not None else TrayRoll(pips=(1, 3))

    def roll_again(self) -> None:
        """The on-screen Roll of the simulated tray (a real tray is rolled by hand)."""
        if self.app.roll_tray():
            self.say(_("Rolling…"))

    def game_session(self) -> Any:
        """The game in progress this screen hands its roll to, or None (nothing is journaled)."""
        session = self.app.session
        return session if session is not None and self.return_to == session.setup.game else None

    def on_pre_enter(self, *_args: Any) -> None:
        app = self.app
        self.reset()
        session = self.game_session()
        self.use_text = (
            _("Use in {game}").format(game=game_title(session.engine)) if session else _("No game to use it in")
        )
        self.simulated = app.feed is not None and getattr(app, "sim_tray", None) is not None
        self.source_text = _("Simulated tray: tap Roll (or press R) to roll again") if self.simulated else ""
        if self.simulated:
            app.expect_dice(self.expected_dice())
        if app.feed is None:
            self._texture = None
            self.ids.view.texture = None
            self.say(_("No camera: add dice by touch (Add die)."), error=True)
            return
        self._start_reader()

    def _start_reader(self) -> None:
        app = self.app
        if app.feed is not None:
            processor = live_processor(app.settings["dice"], app.vision_profile, app.dice_memory)
            app.feed.want(True, processor=processor)
            self.say(_("Roll the dice into the tray…"))

    def on_leave(self, *_args: Any) -> None:
        if self.app.feed is not None:
            self.app.feed.want(False)

    def back(self) -> None:
        self.app.go(self.back_to if self.app.manager.has_screen(self.back_to) else "home")

    def reset(self) -> None:
        """Forget the current roll and read a new one."""
        if self.manager is not None and self.manager.current == self.name:
            self._start_reader()
        self.roll = None
        self.by_hand = False
        self.selected = None
        self.adding = False
        self._forget_roll_frame()
        self.ids.picker.clear_widgets()
        self._show()

    def _forget_roll_frame(self, frame: Any = None) -> None:
        self._roll_frame = frame
        self._removed = []
        self._unplaced = set()
        self._add_at = None

    def say(self, text: str, error: bool = False) -> None:
        self.status_text = text
        self.status_is_error = error

    # -- camera ------------------------------------------------------------------------------------------

    def on_frame(self, frame: Any, result: Any) -> None:
        self._texture = frame_texture(frame, self._texture)
        self.ids.view.texture = self._texture
        self.frame_size = (frame.shape[1], frame.shape[0])
        if self._memory_for != self.frame_size:
            self._memory_for = self.frame_size
            self._count_learned()
        if isinstance(result, LiveResult):
            self.moving = result.state == LiveState.ROLLING
        if isinstance(result, Exception):
            self.say(_("Dice reader error: {problem}").format(problem=result), error=True)
            return
        if not isinstance(result, LiveResult):
            return
        busy = self.selected is not None or self.adding
        settled = result.settled
        if (
            settled is not None
            and settled is not self._taken
            and self.by_hand
            and self._taken is not None
            and self._only_corrected_dice_differ(settled)
        ):
            # The same dice in the same places after a hand or a shadow passed: the player's corrections stay.
            self._taken = settled
            count = len(self.roll.dice) if self.roll else 0
            self.say(
                ngettext("Still {n} die, with your corrections", "Still {n} dice, with your corrections", count).format(
                    n=count
                )
            )
        elif settled is not None and settled is not self._taken and not busy and (settled.dice or not self.by_hand):
            # A new settled roll replaces the last one unless the player is correcting it right now (an empty
            # tray does not replace dice entered by hand, e.g. while the camera was away).
            dropped = self.by_hand and self.roll is not None
            self.roll = self._taken = settled
            self.by_hand = False
            self._forget_roll_frame(frame)  # what a use of this roll teaches the reader is read off this frame
            count = len(self.roll.dice)
            if self.roll.needs_check:
                said = ngettext(
                    "Settled: {n} die — check the orange dice: tap one to correct it",
                    "Settled: {n} dice — check the orange dice: tap one to correct it",
                    count,
                )
            else:
                said = ngettext(
                    "Settled: {n} die — tap a die to correct", "Settled: {n} dice — tap a die to correct", count
                )
            said = said.format(n=count)
            self.say(
                _("New roll: the corrections were for the last one. {said}").format(said=said) if dropped else said
            )
        elif result.state != LiveState.SETTLED and not busy and not self.by_hand:
            # Dice moving again: the last reading goes (a roll entered or corrected by hand stays until the
            # next settled reading or Read again, so a camera coming back does not wipe what was typed).
            self.roll = None
            self.say(_(STATUS[result.state]) if result.state in STATUS else result.state)
        self._show(live=result.latest if self.roll is None else None)

    def _only_corrected_dice_differ(self, settled: Roll) -> bool:
        """True when ``settled`` shows the dice the player corrected, in the same places, and every die they
        did not correct reads as before (a hand or a shadow passed): the corrections stay. A die the player left
        alone that now reads another face was turned over: a new roll."""
        taken, shown = self._taken, self.roll
        assert taken is not None
        match = taken.match_dice(settled)
        if match is None:
            return False
        if shown is None or len(shown.dice) != len(taken.dice):
            return True  # dice added or taken out by hand: only the places can be compared
        for i, k in enumerate(match):
            untouched = shown.dice[i].face == taken.dice[i].face
            if untouched and settled.dice[k].face != taken.dice[i].face:
                return False
        return True

    def on_camera(self, problem: str | None) -> None:
        """The camera went away (``problem``) or came back (None): say what to do instead of "Rolling…"."""
        if problem is not None:
            self.say(_("No camera right now: add dice by touch (Add die). It reconnects by itself."), error=True)
        elif self.roll is None:
            self.say(_("Camera back: roll the dice into the tray…"))

    # -- correction --------------------------------------------------------------------------------------

    def view_tapped(self, view: Any, touch: Any) -> bool:
        if not view.collide_point(*touch.pos) or (self.frame_size is None and not self.adding):
            return False
        if self.adding:
            return True
        if self.roll is None or self.frame_size is None:
            self.say(_("Wait for the dice to settle, then tap one to correct it"), error=True)
            return True
        fx, fy = view.widget_to_frame(touch.x, touch.y, self.frame_size)
        for index, die in enumerate(self.roll.dice):
            x0, y0, x1, y1 = die.box
            pad = max(6, (x1 - x0) // 4)
            if x0 - pad <= fx <= x1 + pad and y0 - pad <= fy <= y1 + pad:
                self.select(index)
                return True
        self.start_add(at=(fx, fy))  # a die the camera missed: added where it lies
        return True

    def select(self, index: int) -> None:
        """Show the face picker for die ``index``."""
        assert self.roll is not None
        self.selected = index
        die = self.roll.dice[index]
        self._fill_picker(FACES.get(die.kind, FACES[PIPS]), allow_remove=True)
        self.say(_("Die {n}: what does it show?").format(n=index + 1))
        self._show()

    def start_add(self, at: tuple[float, float] | None = None) -> None:
        """Add a die the camera missed: pick its face. ``at``: where it lies (frame pixels; tapped on the
        picture), else it is drawn in a free corner (*Add die*)."""
        self.adding = True
        self.selected = None
        self._add_at = at
        kinds = {d.kind for d in self.roll.dice} if self.roll else {PIPS}
        kind = next(iter(kinds - {"unknown"}), PIPS)
        self._fill_picker(FACES.get(kind, FACES[PIPS]), allow_remove=False)
        self.say(_("Add a die here: what does it show?") if at is not None else _("Add a die: what does it show?"))
        self._show()

    def _fill_picker(self, faces: list[Any], *, allow_remove: bool) -> None:
        grid = self.ids.picker
        grid.clear_widgets()
        from companion.ui.fit import fit_font

        def fitted(button: Any, largest: float) -> Any:  # no word broken over two lines ("Cancel·l / a")
            button.bind(width=lambda b, w: setattr(b, "font_size", fit_font(b.text, w - dp(10), largest, dp(16))))
            return button

        for face in faces:
            button = fitted(Factory.BigButton(text=face_name(face), font_size=dp(20)), dp(20))
            button.bind(on_release=lambda _b, f=face: self.pick(f))
            grid.add_widget(button)
        if allow_remove:
            remove = fitted(Factory.DangerButton(text=_("Not a die"), font_size=dp(18)), dp(18))
            remove.bind(on_release=lambda _b: self.pick(None))
            grid.add_widget(remove)
        # TRANSLATORS: closes the dice screen's face picker without choosing (a short word: a third of a column)
        cancel = fitted(Factory.BigButton(text=pgettext("face picker", "Cancel"), font_size=dp(18)), dp(18))
        cancel.bind(on_release=lambda _b: self.cancel_pick())
        grid.add_widget(cancel)

    def cancel_pick(self) -> None:
        self.selected = None
        self.adding = False
        self._add_at = None
        self.ids.picker.clear_widgets()
        self._show()

    def pick(self, face: Any) -> None:
        """Apply the player's answer: correct, remove or add a die (journaled when a game is in progress)."""
        roll = self.roll or Roll((), source="touch")
        dice = list(roll.dice)
        if self.adding:
            kind = next((k for k, faces in FACES.items() if face in faces), PIPS)
            if self.frame_size is None:
                self.frame_size = (480, 480)  # no camera: a square of its own where dice entered by touch lie
            if self._add_at is not None and self._roll_frame is not None:
                box = box_at(self._add_at, dice, self.frame_size)
            else:
                box = free_box(dice, self.frame_size)
                self._unplaced.add(box)
            dice.append(DieRead(kind, face, 1.0, box))
            note = {"type": "note.dice_correction", "die": len(dice), "read": "missed", "face": face}
        else:
            assert self.selected is not None
            old = dice[self.selected]
            note = {
                "type": "note.dice_correction",
                "die": self.selected + 1,
                "read": old.face,
                "face": face if face is not None else "not a die",
            }
            if face is None:
                dice.pop(self.selected)
                if old.box not in self._unplaced:
                    self._removed.append(old.box)
            else:
                kind = next((k for k, faces in FACES.items() if face in faces and k == old.kind), old.kind)
                if kind == "unknown":
                    kind = next((k for k, faces in FACES.items() if face in faces), PIPS)
                dice[self.selected] = replace(old, kind=kind, face=face, confidence=1.0, flagged=False)
        session = self.game_session()
        if session is not None:
            try:
                session.do(note)  # journaled first: a correction that cannot be saved changes nothing
            except JournalError as err:
                self.say(not_saved(err), error=True)
                return
        self.roll = Roll(tuple(dice), source=roll.source)
        self.by_hand = True
        self.selected = None
        self.adding = False
        self._add_at = None
        self.ids.picker.clear_widgets()
        shown = face_name(face) if face is not None else _("not a die")
        if session is not None:
            self.say(_("Die {n}: {face} (journaled)").format(n=note["die"], face=shown))
        else:
            self.say(_("Die {n}: {face}").format(n=note["die"], face=shown))
        self._show()

    # -- result ------------------------------------------------------------------------------------------

    def _show(self, live: Roll | None = None) -> None:
        roll = self.roll or live
        shown = roll if roll is not None else Roll(())
        pips = shown.faces(PIPS)
        self.sum_text = str(sum(int(v) for v in pips)) if pips else "–"
        self.dice_text = roll_summary(shown) if roll is not None else ""
        ready = self.roll is not None and bool(self.roll.dice) and not self.roll.needs_check
        self.can_use = ready and self.game_session() is not None
        if "ids" in dir(self) and "view" in self.ids:
            # While the dice move, a roll read (or corrected) on an earlier picture keeps its values but its
            # boxes are not drawn: they would sit where no die is now.
            stale = self.moving and self.roll is not None and self._texture is not None
            pending = None
            if self.adding and self._add_at is not None and self.frame_size is not None:
                pending = box_at(self._add_at, roll.dice if roll is not None else (), self.frame_size)
            self.ids.view.draw_roll(None if stale else roll, self.frame_size, self.selected, pending)

    # -- what the reader learns ----------------------------------------------------------------------------

    def learn(self, roll: Roll) -> None:
        """Teach the reader the checked roll's number dice (on the frame it was read on): each die with its
        face, each die added where it lies, each spot removed as "not a die". Dice added in a free corner and
        colour or picture dice are not learned. Never stops the roll from being used (the app says what failed)."""
        frame = self._roll_frame
        if frame is None or self.frame_size != (frame.shape[1], frame.shape[0]):
            return
        boxes, values = [], []
        for die in roll.dice:
            if die.kind == PIPS and isinstance(die.face, int) and die.box not in self._unplaced:
                boxes.append(die.box)
                values.append(die.face)
        boxes += self._removed
        values += [0] * len(self._removed)
        if boxes:
            self._show_learned(self.app.learn_dice(frame, boxes, values), self.app.dice_tuned(self.frame_size))
        self._forget_roll_frame(frame)  # a roll is learned once

    def _count_learned(self) -> None:
        if self.frame_size is not None:
            self._show_learned(int(self.app.dice_memory(self.frame_size).dice), self.app.dice_tuned(self.frame_size))

    def _show_learned(self, n: int, tuned: bool = False) -> None:
        """Say how many of the table's dice the reader has learned, and whether it now reads them with its face
        classifiers tuned to the table's look (``table_look``: only while the checked rolls say that reads better)."""
        if n <= 0:
            self.memory_text = ""
        elif tuned:
            self.memory_text = ngettext(
                "Learned {n} of your dice; reading tuned to your table",
                "Learned {n} of your dice; reading tuned to your table",
                n,
            ).format(n=n)
        else:
            self.memory_text = ngettext("Learned {n} of your dice", "Learned {n} of your dice", n).format(n=n)

    def ask_forget(self) -> Any:
        """Forget what the reader learned of this table's dice, after a confirmation."""
        from companion.ui.widgets import confirm

        question = _("Forget the dice the reader has learned here? It learns them again from the rolls you use.")
        return confirm(question, _("Forget"), self.forget_learned)

    def forget_learned(self) -> None:
        if self.frame_size is not None and self.app.forget_dice(self.frame_size):
            self._show_learned(0)
            self.say(_("Forgotten: the reader learns your dice again from the rolls you use"))

    def use_roll(self) -> None:
        """Hand the roll to the game screen we came from (or to the current game)."""
        if self.roll is None:
            return
        self.learn(self.roll)
        app = self.app
        target = self.return_to if self.game_session() is not None else "home"  # never an earlier game's screen
        screen = app.manager.get_screen(target) if app.manager.has_screen(target) else None
        handler = getattr(screen, "on_roll", None)
        app.go(target)
        if handler is not None:
            handler(self.roll)
