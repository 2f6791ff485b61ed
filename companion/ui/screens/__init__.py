"""Screens, one module (+ one .kv) each. ``SCREENS`` are always present; a game's screen (named in
``companion.games.GAMES``, beside its engine) is added when a game of that kind is started or resumed."""

from __future__ import annotations

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
    "dice": "companion.ui.screens.dice:DiceScreen",
    "calibrate": "companion.ui.screens.calibrate:CalibrateScreen",
    "howto": "companion.ui.screens.howto:HowToScreen",
}

_loaded: set[str] = set()


def load_kv(name: str = "common") -> None:
    """Load ``<name>.kv`` from this folder once (screens call this at import)."""
    if name in _loaded:
        return
    _loaded.add(name)
    import companion.ui.fit  # registers FitLines with the kv Factory
    import companion.ui.widgets  # noqa: F401  (registers GameHeader, SeatButtons with the kv Factory)

    if name != "common":
        load_kv("common")
    Builder.load_file(str(HERE / f"{name}.kv"))
