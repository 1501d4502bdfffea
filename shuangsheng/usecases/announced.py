"""Which tables' results the venue display may show as final (docs/README.md, 场地大屏).

A table's result is final for the hall only as `score` recorded it in event.db while the table's sheet still has
the fingerprint `score` read, and the outcome read now is the one recorded (a 弃权 typed on the 对阵 sheet since is
a change too). A half-typed workbook saved but never scored, or a sheet edited after `score`, shows as 进行中 until
`score` runs again. A table confirmed by both teams on the phones (§9) is final as well: the round's results carry that
(`TableRecord.confirmed`), and its record lets it through (`TableRecord.final`). The rounds before the latest drawn are final as their next draw took
them. Reads event.db only; writes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from shuangsheng.render.reports import RoundScore
from shuangsheng.storage.ledger.connection import Ledger
from shuangsheng.storage.ledger.records import ScoredRecord
from shuangsheng.usecases.folder import same_draw
from shuangsheng.usecases.scoring import sheet_fingerprint

Announced = dict[int, frozenset[int]]  # round number → its tables whose result is final for the hall


def announced_tables(folder: Path, scores: Sequence[RoundScore]) -> Announced:
    """Round number → the tables to show as final, for every round in `scores` (in order, as the folder holds
    them). Without event.db (or with a damaged one) only the rounds a later draw took are final."""
    final: Announced = {s.round.number: frozenset(m.match.table for m in s.matches) for s in scores[:-1]}
    if not scores:
        return final
    latest = scores[-1]
    final[latest.round.number] = frozenset()
    book = Ledger.readable(folder)
    if book is None:
        return final
    with book:
        record = book.draws().get(latest.round.number)
        if record is None or not same_draw(record.round, latest.round):
            return final
        final[latest.round.number] = scored_unchanged(book.last_scored(record.id), latest)
    return final


def scored_unchanged(record: ScoredRecord | None, scored: RoundScore) -> frozenset[int]:
    """The tables whose sheet and outcome are what `score` last recorded."""
    if record is None:
        return frozenset()
    same = set()
    for m in scored.matches:
        table = m.record.table
        now = (m.record.status.value, m.record.winner)
        if record.outcomes.get(table) == now and record.sheets.get(table) == sheet_fingerprint(
                scored.sheet, m.match.sheet):
            same.add(table)
    return frozenset(same)

