"""Screens, one module (+ one .kv) each. ``SCREENS`` are always present; ``GAME_SCREENS`` are added when a
game of that kind is started or resumed, and only for games whose engine and screen modules exist."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from kivy.lang import Builder

HERE = Path(__file__).parent

SCREENS: dict[str, str] = {
    "home": "companion.ui.screens.home:HomeScreen",
    "setup": "companion.ui.screens.setup:SetupScreen",
    "games": "companion.ui.screens.games:GamesScreen",
    "buttons": "companion.ui.screens.buttons:ButtonTestScreen",
    "camera": "companion.ui.screens.camera:CameraScreen",
    "history": "companion.ui.screens.history:HistoryScreen",
    "play": "companion.ui.screens.play:PlayScreen",
    "stats": "companion.ui.screens.stats:StatsScreen",
    "players": "companion.ui.screens.players:PlayersScreen",
    "chart": "companion.ui.screens.chart:ChartScreen",
    "transfer": "companion.ui.screens.transfer:TransferScreen",
    "language": "companion.ui.screens.language:LanguageScreen",
    "settings": "companion.ui.screens.language:SettingsScreen",
    "howto": "companion.ui.screens.howto:HowToScreen",
}

# game id -> "module:Class". A game helper adds its one line here.
GAME_SCREENS: dict[str, str] = {
    "ratuki": "companion.ui.screens.ratuki:RatukiScreen",
    "ratatat": "companion.ui.screens.ratatat:RatatatScreen",
    "lowdown": "companion.ui.screens.lowdown:LowdownScreen",
    "artcollectors": "companion.ui.screens.artcollectors:ArtCollectorsScreen",
}

# Optional screens that appear once their module exists (dice reader, calibration wizard).
OPTIONAL_SCREENS: dict[str, str] = {
    "dice": "companion.ui.screens.dice:DiceScreen",
    "calibrate": "companion.ui.screens.calibrate:CalibrateScreen",
}

_loaded: set[str] = set()


def module_exists(target: str) -> bool:
    return importlib.util.find_spec(target.partition(":")[0]) is not None


def load_kv(name: str = "common") -> None:
    """Load ``<name>.kv`` from this folder once (screens call this at import)."""
    if name in _loaded:
        return
    _loaded.add(name)
    import companion.ui.widgets  # noqa: F401  (registers GameHeader, SeatButtons with the kv Factory)

    if name != "common":
        load_kv("common")
    Builder.load_file(str(HERE / f"{name}.kv"))


for _name, _target in OPTIONAL_SCREENS.items():
    if module_exists(_target):
        SCREENS[_name] = _target
