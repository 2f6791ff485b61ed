"""What the app remembers between starts that is chosen on screen (not in the config file): the language.

One small JSON file in the data folder, written whole to a temporary file and renamed over the old one, so a
pulled plug leaves the old choice or the new one, never half a file. A missing, damaged or unreadable file
reads as "nothing chosen yet" (and says why); a card the app cannot write keeps the choice for this run only.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

MAX_BYTES = 64 * 1024  # a preferences file is a few dozen bytes; anything bigger is not ours


@dataclass
class Preferences:
    """The remembered choices, and the problem (if any) met reading or writing them."""

    path: Path | None
    values: dict[str, Any] = field(default_factory=dict)
    problem: str | None = None

    @classmethod
    def load(cls, path: Path | None) -> Preferences:
        prefs = cls(path)
        if path is None:
            return prefs
        try:
            if not path.exists():
                return prefs
            if path.stat().st_size > MAX_BYTES:
                prefs.problem = f"{path}: too big to be a preferences file; starting afresh"
                return prefs
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError, RecursionError) as err:
            prefs.problem = f"{path}: cannot be read ({err}); starting afresh"
            return prefs
        if not isinstance(data, dict):
            prefs.problem = f"{path}: not a preferences file; starting afresh"
            return prefs
        prefs.values = {k: v for k, v in data.items() if isinstance(k, str)}
        return prefs

    def get(self, key: str, default: Any = None) -> Any:
        return self.values.get(key, default)

    def set(self, key: str, value: Any) -> bool:
        """Remember ``key`` = ``value`` (kept in memory even when the file cannot be written: returns False and
        sets :attr:`problem` then)."""
        self.values[key] = value
        return self.save()

    def save(self) -> bool:
        if self.path is None:
            return True
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".preferences-", dir=self.path.parent)
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as handle:
                    json.dump(self.values, handle, ensure_ascii=False, indent=1, sort_keys=True)
                    handle.flush()
                    os.fsync(handle.fileno())
                os.replace(tmp, self.path)
            except BaseException:
                Path(tmp).unlink(missing_ok=True)
                raise
        except OSError as err:
            self.problem = f"{self.path}: cannot be written ({err.strerror or err}); kept until the app closes"
            return False
        self.problem = None
        return True


def preferences_file() -> Path:
    from companion.paths import data_dir

    return data_dir() / "preferences.json"
