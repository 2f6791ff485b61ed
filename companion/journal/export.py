"""Write one journaled game as JSON lines (the format ``companion replay`` reads)."""

from __future__ import annotations

from pathlib import Path

from companion.journal.replay import dump_lines
from companion.journal.store import Journal


def export_game(journal: Journal, game_id: int, path: str | Path) -> Path:
    """Export game ``game_id`` to ``path`` (folders created); written to a temp file, then renamed."""
    record = journal.readable_game(game_id)
    actions = journal.actions(game_id)  # read (GameDamaged names a broken move) before anything is written
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    temp = target.with_name(target.name + ".tmp")
    temp.write_text("\n".join(dump_lines(record.setup, actions)) + "\n", encoding="utf-8")
    temp.replace(target)
    return target
