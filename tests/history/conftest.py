"""A journal and a history on real files in a temporary folder, with a ticking wall clock."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from logplay import Clock

from companion.history import History, HistoryStore
from companion.journal import Journal


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[Journal]:
    j = Journal(tmp_path / "journal.sqlite3", now=Clock())
    yield j
    j.close()


@pytest.fixture
def history(journal: Journal, tmp_path: Path) -> Iterator[History]:
    store = HistoryStore(tmp_path / "history.sqlite3", now=Clock(1_800_000_000.0, 1.0))
    yield History(journal, store)
    store.close()
