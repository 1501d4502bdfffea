"""报到 (check-in) at the desk (docs/table-api.md, 报到): `GET /api/desk/checkin`, `POST /api/desk/checkin` {"team",
"arrived": true|false, "reason"}, `POST /api/desk/checkin/forfeit` {"team"}, `…/close` {} and `…/open` {"reason"},
every POST with the page's "id" and "mark". Answered before round 1 is drawn too (the desk's other presses need a
round). The desk API (`shuangsheng.hall.desk_api.DeskApi`) has refused what every desk request is refused for
(host, address, PIN, body) before it calls `answer`; the press is decided and stored by
`shuangsheng.usecases.checkin.press` in one write transaction, committed before the answer, which is the whole
check-in document (`shuangsheng.knockout.checkin.checkin_json`), as after a GET."""

from __future__ import annotations

import datetime as dt
from http import HTTPStatus

from shuangsheng.hall.api_common import NOT_READY, Reply, Seating, refusal
from shuangsheng.hall.shared_ledger import SharedLedger
from shuangsheng.knockout.checkin import CheckinDecision, checkin_json, parse_press
from shuangsheng.storage.ledger.connection import Ledger
from shuangsheng.usecases.checkin import press, read_checkin
from shuangsheng.vocabulary.errors import issues_json


def answer(ledger: SharedLedger, seating: Seating, now: dt.datetime, kind: str, body: object, address: str) -> Reply:
    """`kind`: "read" (the GET), or the press — "team" (POST /api/desk/checkin), "forfeit", "close", "open"; `ledger`
    and `seating` the desk's, `now` the PC's time as the desk reads it."""
    with ledger.lend() as book:
        if book is None:
            return refusal(HTTPStatus.SERVICE_UNAVAILABLE, NOT_READY)
        if kind == "read":
            return Reply(HTTPStatus.OK, document(book, seating, now))
        made = parse_press(kind, body)
        if isinstance(made, CheckinDecision):
            return Reply(made.verdict.http_status, issues_json(made.errors))
        _, where = read_checkin(book, seating.teams(), seating.event(), now)
        decision = press(book, made, where, address=address)
        if decision.errors:
            return Reply(decision.verdict.http_status, issues_json(decision.errors))
        return Reply(HTTPStatus.OK, document(book, seating, now))


def document(book: Ledger, seating: Seating, now: dt.datetime) -> dict[str, object]:
    """The check-in as it stands (`GET /api/desk/checkin`)."""
    checkin, where = read_checkin(book, seating.teams(), seating.event(), now)
    return checkin_json(checkin, where)
