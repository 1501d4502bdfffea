"""The one base class of everything a user can fix: the CLI prints `messages` and exits 1."""

from __future__ import annotations


class UserError(Exception):
    """Its text is complete Chinese lines naming where (file, sheet!cell, hand) and what was expected."""

    @property
    def messages(self) -> list[str]:
        return str(self).splitlines()


SHOWN_CHARACTERS = 40


def shown(value: object) -> str:
    """A value as quoted in a message: its repr cut to 40 characters; safe for a number of 5,000 digits (whose
    text Python refuses to build) and for a deeply nested list."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        return f"一个约 {int(value.bit_length() * 0.30103) + 1} 位的数"
    try:
        text = repr(value)
    except (ValueError, RecursionError):
        text = f"<{type(value).__name__}>"
    return text if len(text) <= SHOWN_CHARACTERS else text[: SHOWN_CHARACTERS - 1] + "…"
