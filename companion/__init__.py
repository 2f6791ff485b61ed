"""Table Companion: referee, timer, dice reader and score keeper for games played at a real table."""

__version__ = "0.1.0"
