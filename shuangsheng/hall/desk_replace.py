"""换人 at the desk (docs/table-api.md, 换人): `GET /api/desk/replace` (every replacement so far, the mark, the round drawn
last and the pairs as they stand) and `POST
/api/desk/replace` {"team", "out", "in", "reason", "round" (optional), "id", "mark"}. The desk API
(`shuangsheng.hall.desk_api.DeskApi`) has refused what every desk request is refused for before it calls `answer`;
the request is decided and stored by `shuangsheng.usecases.replacement.replace_player` in one write transaction,
committed before the answer. The pairs are round 1's as its draw recorded them (who registered and was drawn)."""

from __future__ import annotations

from collections.abc import Collection
from http import HTTPStatus

from shuangsheng.hall.api_common import NOT_READY, Reply, refusal
from shuangsheng.hall.shared_ledger import SharedLedger
from shuangsheng.knockout.replacement import with_replacements
from shuangsheng.knockout.teams import Team, number_key, shown_id
from shuangsheng.storage.ledger.connection import Ledger
from shuangsheng.usecases.folder import event_digits
from shuangsheng.usecases.replacement import replace_player
from shuangsheng.vocabulary.errors import issues_json


def answer(ledger: SharedLedger, at: str, asked: bool, body: object, address: str, listed: Collection[str] = ()) -> Reply:
    """`asked`: the POST, `body` the replacement asked for; else the GET. `ledger` the desk's, `at` the time now,
    `listed` teams.xlsx's 组号 (the field whose width every paper prints: a reserve 100 who never played makes
    第007组 of pair 07 there, and so here)."""
    with ledger.lend() as book:
        if book is None:
            return refusal(HTTPStatus.SERVICE_UNAVAILABLE, NOT_READY)
        pairs = drawn_pairs(book)
        digits = event_digits(listed, (), book.draws().values())  # the event's one width, as the papers
        if asked:
            done = replace_player(book, pairs, body, at=at, address=address, digits=digits)
            if done.issue is not None:
                return Reply(done.status, issues_json((done.issue,)))
        return Reply(HTTPStatus.OK, document(book, digits))


def drawn_pairs(book: Ledger) -> tuple[Team, ...]:
    """Round 1's pairs as its draw recorded their players (none before round 1 is drawn)."""
    first = book.draws().get(1)
    if first is None:
        return ()
    return tuple(Team(t, (p[0], p[1])) for t, p in first.names.items() if len(p) == 2)


def document(book: Ledger, digits: int = 2) -> dict[str, object]:
    """Every replacement so far, the mark, the round drawn last (0 before round 1: the default `round` of a
    replacement) and each pair as it stands now (the desk's 换人 lists their players to pick the one going out);
    'shown': the 组号 as the papers print it, `digits` wide ('007' over 99 pairs)."""
    made = book.replacements()
    draws = book.draws()
    pairs = with_replacements(drawn_pairs(book), made)
    return {"replacements": [r.as_json() for r in made], "mark": len(made), "round": max(draws, default=0),
            "teams": [{"team": t.id, "shown": shown_id(t.id, digits), "players": list(t.players)}
                      for t in sorted(pairs, key=lambda t: number_key(t.id))]}
