"""The row under the calibrate screen's instruction, built for each step: the faces captured so far, verify's
answers and their corrections, the faces to capture again, "replace it?", or the names and saved profiles to
pick. Its buttons call the screen's actions; their look is in ``chips.kv``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kivy.factory import Factory

from calibration.store import ProfileStore
from companion.calibrate.wizard import Wizard
from companion.i18n import _
from companion.ui.screens import load_kv
from companion.ui.screens.calibrate.words import (
    ACTION_ERRORS,
    NAME_PRESETS,
    NOT_A_DIE,
    NUMBER_DIE,
    answer_name,
    problem_sentence,
)
from companion.ui.words import face_name

if TYPE_CHECKING:
    from companion.ui.screens.calibrate.screen import CalibrateScreen

load_kv("calibrate/chips")


def build_chips(screen: CalibrateScreen) -> None:
    """The row under the instruction: captured faces, verify answers and corrections, or saved profiles."""
    box = screen.ids.chips
    box.clear_widgets()
    wizard = screen.wizard
    if wizard is None or screen.mismatch is not None:
        return
    if screen.step == "save" and screen.replace_name is not None:
        replace_question(screen, box, screen.replace_name)
    elif screen.step in ("colour", "picture"):
        face_chips(box, wizard, screen.step)
    elif screen.step == "verify" and screen.choosing is not None:
        pick_buttons(screen, box, wizard, screen.reads[screen.choosing][1])
    elif screen.step == "verify" and not screen.reads:
        recapture_buttons(screen, box, wizard)
    elif screen.step == "verify":
        answer_buttons(screen, box)
    elif screen.step == "save" and screen.store is not None:
        profile_buttons(screen, box, wizard, screen.store)


def replace_question(screen: CalibrateScreen, box: Any, name: str) -> None:
    """Save: replace the profile called ``name``, or keep it."""
    yes = Factory.ChoiceButton(
        text=_("Replace '{name}'").format(name=name),
        on_release=lambda _b: screen.confirm_replace(True),
    )
    yes.background_color = (0.6, 0.35, 0.1, 1)
    box.add_widget(yes)
    box.add_widget(Factory.ChoiceButton(text=_("Keep it"), on_release=lambda _b: screen.confirm_replace(False)))


def face_chips(box: Any, wizard: Wizard, kind: str) -> None:
    """Colour or picture: each face with its captures so far, the one to capture now marked."""
    task = wizard.task(kind)
    for face in task.faces:
        n = task.done.get(face, 0)
        chip = Factory.FaceChip(text=f"{face_name(face)} {n}/{task.per_face}")
        chip.done = n >= task.per_face
        chip.current = face == task.current
        box.add_widget(chip)


def pick_buttons(screen: CalibrateScreen, box: Any, wizard: Wizard, kind: str) -> None:
    """Verify, a die being corrected (read as ``kind``): what it may show."""
    faces = wizard.task(kind).faces if kind in ("colour", "picture") else wizard.colour.faces + wizard.picture.faces
    for face in [*faces, NUMBER_DIE, NOT_A_DIE]:  # four to a row, so the row never runs over the text above
        pick = Factory.PickButton(text=answer_name(face), on_release=lambda b: screen.correct(b.face))
        pick.face = face
        box.add_widget(pick)


def recapture_buttons(screen: CalibrateScreen, box: Any, wizard: Wizard) -> None:
    """Verify, nothing read now: the faces confused so far (four at most), to capture again."""
    confused: list[tuple[str, str]] = []
    for kind, tally in wizard.verifications.items():
        for truth, _read, _n in tally.confusions():
            if (kind, truth) not in confused:
                confused.append((kind, truth))
    for kind, face in confused[:4]:
        button = Factory.ChoiceButton(
            text=_("Recapture {face}").format(face=face_name(face)),
            on_release=lambda _b, k=kind, f=face: screen.recapture(k, f),
        )
        box.add_widget(button)


def answer_buttons(screen: CalibrateScreen, box: Any) -> None:
    """Verify, dice read: each die's answer (orange where the player corrected the reading); a tap corrects it."""
    for i, answer in enumerate(screen.answers):
        read = screen.reads[i][2]
        text = f"{i + 1}: {answer_name(answer)}"
        if answer != read:
            text = _("{answer} (read {read})").format(answer=text, read=answer_name(read))
        button = Factory.ChoiceButton(text=text, on_release=lambda b, i=i: screen.choose(i))
        button.background_color = (0.15, 0.45, 0.3, 1) if answer == read else (0.6, 0.35, 0.1, 1)
        box.add_widget(button)


def profile_buttons(screen: CalibrateScreen, box: Any, wizard: Wizard, store: ProfileStore) -> None:
    """Save: names to tap, then this camera's other saved profiles to make active (the active one greyed)."""
    profile = wizard.profile
    # names to tap: a kiosk has no keyboard (the text field still works with one)
    for preset in NAME_PRESETS:
        button = Factory.ChoiceButton(text=_(preset), on_release=lambda b: screen.set_name(b.text))
        button.background_color = (0.18, 0.30, 0.42, 1)
        box.add_widget(button)
    active = store.active(profile.camera, profile.resolution).profile
    try:
        entries = store.entries()
    except ACTION_ERRORS as exc:  # e.g. an unreadable active.json: saving still works (it is replaced)
        screen.problem = problem_sentence(exc)
        entries = []
    for entry in entries:
        if (entry.camera, tuple(entry.resolution)) != (profile.camera, tuple(profile.resolution)):
            continue
        if entry.problem:
            continue
        is_active = active is not None and active.name == entry.name
        text = _("{name} (active)").format(name=entry.name) if is_active else _("Use {name}").format(name=entry.name)
        button = Factory.ChoiceButton(text=text, on_release=lambda b, n=entry.name: screen.use_profile(n))
        button.disabled = is_active
        box.add_widget(button)
