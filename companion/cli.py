"""The ``companion`` command."""
from __future__ import annotations

import argparse
import sys


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="companion")
    parser.parse_args(argv)
    return 0


if __name__ == "__main__":
    sys.exit(main())
