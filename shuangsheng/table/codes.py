"""Entry codes (录分码, printed on each table's 计分卡): the 8 characters that let a phone enter one table's hands. Pure.

A code is 40 bits from `secrets`, written with 32 characters that cannot be misread for one another (no 0/O, 1/I),
shown as `XXXX-XXXX`. Typed back it may carry the hyphen or not, any case, spaces around it, and full-width forms
(a phone's Chinese keyboard); anything else is refused.
"""

from __future__ import annotations

import secrets
import unicodedata
from collections.abc import Callable, Collection

ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"
LENGTH = 8
BITS = 5 * LENGTH  # 32 characters carry 5 bits each: 40 bits
_INDEX = {ch: i for i, ch in enumerate(ALPHABET)}


def encode(number: int) -> str:
    """A number below 2**40 → its 8 characters, most significant first."""
    if not 0 <= number < 2**BITS:
        raise ValueError(number)
    return "".join(ALPHABET[(number >> (5 * i)) & 31] for i in reversed(range(LENGTH)))


def new_code(randbits: Callable[[int], int] = secrets.randbits) -> str:
    """A fresh code (8 characters, no hyphen). `randbits` is `secrets.randbits` except in tests."""
    return encode(randbits(BITS))


def format_code(code: str) -> str:
    """'ABCD2345' → 'ABCD-2345', as printed on the 计分卡 (录分码 ABCD-2345)."""
    return f"{code[:4]}-{code[4:]}"


def parse_code(text: object) -> str | None:
    """A code as typed → its 8 characters, or None when it is not a code. Accepted: with or without the one hyphen
    between the halves, any case, spaces around it, full-width forms (NFKC)."""
    if not isinstance(text, str) or len(text) > 64:
        return None
    cleaned = unicodedata.normalize("NFKC", text).strip().upper()
    if len(cleaned) == LENGTH + 1 and cleaned[4] == "-":
        cleaned = cleaned[:4] + cleaned[5:]
    if len(cleaned) != LENGTH or any(ch not in _INDEX for ch in cleaned):
        return None
    return cleaned


def codes_for_tables(
    count: int, *, taken: Collection[str] = frozenset(), randbits: Callable[[int], int] = secrets.randbits
) -> tuple[str, ...]:
    """`count` fresh codes, one per table, none repeated and none in `taken` (the codes given before, so an old
    code can never come back and open another table)."""
    made: list[str] = []
    seen = set(taken)
    while len(made) < count:
        code = new_code(randbits)
        if code not in seen:
            seen.add(code)
            made.append(code)
    return tuple(made)
