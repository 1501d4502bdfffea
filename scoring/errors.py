"""The one base class of everything a user can fix: the CLI prints `messages` and exits 1."""

from __future__ import annotations


class UserError(Exception):
    """Its text is complete Chinese lines naming where (file, sheet!cell, hand) and what was expected."""

    @property
    def messages(self) -> list[str]:
        return str(self).splitlines()
