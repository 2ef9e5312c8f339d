"""The one ordered table of difficulty levels.

Every variant uses the same four names; its grader decides which techniques
belong to which tier. Config keys, printed names, the 1-4 marker on the page
and solver tiers all derive from ``LEVELS``.
"""

from __future__ import annotations

from enum import IntEnum

from bookgen.core.i18n import N_


class Level(IntEnum):
    """A difficulty level; the integer order is the order of hardness."""

    EASY = 0
    MEDIUM = 1
    HARD = 2
    EXPERT = 3

    @property
    def key(self) -> str:
        """The name used in configs and JSON (``easy`` ...)."""
        return self.name.lower()

    @property
    def label(self) -> str:
        """The name printed in the book (``Easy`` ...), an English message id to translate."""
        return LABELS[self]

    @property
    def marker(self) -> int:
        """1..4, for the small difficulty marker printed beside a puzzle."""
        return int(self) + 1

    @classmethod
    def parse(cls, text: str) -> "Level":
        """Level from its config name; ``ValueError`` names the valid ones."""
        try:
            return cls[text.strip().upper()]
        except KeyError:
            raise ValueError(
                f"unknown level {text!r}; expected one of {', '.join(LEVEL_KEYS)}"
            ) from None


LEVELS: tuple[Level, ...] = tuple(Level)
LABELS: dict[Level, str] = {Level.EASY: N_("Easy"), Level.MEDIUM: N_("Medium"), Level.HARD: N_("Hard"),
                            Level.EXPERT: N_("Expert")}
LEVEL_KEYS: tuple[str, ...] = tuple(level.key for level in LEVELS)
