"""bookgen: printable puzzle books with proven-unique, deduction-solvable puzzles."""

__version__ = "0.1.0"
