"""What `serve` writes before it serves: an entry code for every table of every draw in force that has none (a
round drawn before codes existed). Writes event.db; the hall itself writes only what the phones and the desk send."""

from __future__ import annotations

from pathlib import Path

from shuangsheng.storage.ledger.connection import Ledger
from shuangsheng.usecases.draw import table_codes


def ensure_codes(folder: Path) -> list[int]:
    """Entry codes for every table of every draw in force that has none yet; returns the rounds that got codes.
    Writes event.db: call with the folder held."""
    made = []
    with Ledger.open(folder) as book:
        for number, record in book.draws().items():
            if set(book.codes(record.id)) != {p.table for p in record.round.pairings}:
                table_codes(book, record.id, record.round)
                made.append(number)
    return made
