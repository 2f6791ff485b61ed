"""Child process for test_crash.py: appends actions to a journal forever, printing each committed seq.

Usage: ``python crash_writer.py JOURNAL GAME_ID``. Prints ``ready N`` once the journal is open (N = actions
already there), then one line per action, written and flushed only after ``Journal.append`` has returned.
The parent kills it with SIGKILL at a random moment.
"""

from __future__ import annotations

import sys

from companion.journal import Journal


def main() -> int:
    path, game_id = sys.argv[1], int(sys.argv[2])
    journal = Journal(path)
    n = len(journal.actions(game_id))
    print(f"ready {n}", flush=True)
    while True:
        n += 1
        # Varying sizes make commits span different numbers of pages.
        seq = journal.append(game_id, {"type": "tick", "n": n, "pad": "x" * (n * 37 % 1500)})
        if seq != n:
            print(f"mismatch {seq} {n}", flush=True)
            return 3
        print(seq, flush=True)


if __name__ == "__main__":
    sys.exit(main())
