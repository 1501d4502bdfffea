"""A player replaced mid-event (换人, shuangsheng/knockout/replacement.py, docs/checkin.md, issue 33 item 4): logged in
event.db with its reason, refused in plain words, and the papers after it — the next draw sheet, the results, the 成绩公告
and the certificates — show the pair as it finished, the certificates naming the player replaced besides."""

from __future__ import annotations

from pathlib import Path

import pytest

from shuangsheng.knockout.replacement import Replacement, finished_pair, replaced_players, who_played
from shuangsheng.knockout.teams import Team
from shuangsheng.storage.ledger.connection import Ledger
from shuangsheng.usecases.replacement import replace_player
from tests.events import draw, play, start_event
from tests.helpers import cli
from tests.pdfcheck import text_of

PAIR = Team("03", ("张三", "李四"))


def test_a_refusal_and_the_note_name_the_pair_as_the_papers_print_it():
    from shuangsheng.knockout.replacement import Asked, replacement_problem

    teams = [Team("07", ("张三", "李四")), Team("100", ("王五", "赵六"))]
    refused = replacement_problem(Asked("07", "钱七", "孙八", "生病", "x", 0), teams, ())
    assert refused is not None and refused[1].message.startswith("第007组现在的队员是张三、李四")
    assert Replacement("07", "李四", "王九", 2, "生病").said(3).startswith("第007组：李四由王九替换")


def test_the_pair_as_it_finished_and_everyone_who_played():
    done = (Replacement("03", "李四", "王五", 2, "生病"), Replacement("03", "王五", "赵六", 3, "家中有事"),
            Replacement("04", "甲", "乙", 2, "x"))
    assert finished_pair(PAIR, done).players == ("张三", "赵六")
    assert who_played(PAIR, done) == ("张三", "李四", "王五", "赵六")
    assert replaced_players(PAIR, done) == ("李四", "王五")


def body(**fields: object) -> dict[str, object]:
    return {"team": "03", "out": "李四", "in": "王五", "reason": "生病", "id": "r1", "mark": 0, **fields}


@pytest.fixture
def book(tmp_path: Path):
    rng = start_event(tmp_path / "e", teams=8)
    draw(tmp_path / "e", rng)
    with Ledger.open(tmp_path / "e") as opened:
        yield opened


TEAMS = (PAIR, Team("04", ("钱七", "孙八")))


@pytest.mark.parametrize(("fields", "status", "field"), [
    ({"reason": " "}, 400, "reason"), ({"team": "42"}, 404, "team"), ({"out": "钱七"}, 422, "out"),
    ({"in": "孙八"}, 422, "in"), ({"in": ""}, 422, "in"), ({"round": 9}, 422, "round"), ({"mark": 3}, 409, "mark"),
    ({"id": None}, 422, "id"), ({"in": 5}, 422, "in")])
def test_each_refusal_has_its_status_and_stores_nothing(book, fields, status, field):
    done = replace_player(book, TEAMS, body(**fields), at="t", address="a")
    assert done.status == status and done.issue is not None and done.issue.field == field
    assert book.replacements() == ()


def test_a_replacement_is_a_row_with_its_reason_and_the_same_id_again_is_taken_once(book):
    first = replace_player(book, TEAMS, body(**{"out": "李 四"}), at="2026-03-15T10:00:00+08:00", address="127.0.0.1")
    assert first.status == 200 and first.made == Replacement("03", "李四", "王五", 1, "生病", "2026-03-15T10:00:00+08:00",
                                                             "127.0.0.1", "r1")
    assert replace_player(book, TEAMS, body(), at="t", address="a").made == first.made  # sent again: nothing added
    assert replace_player(book, TEAMS, body(**{"in": "周九"}), at="t", address="a").status == 409  # its id reused
    assert book.replacements() == (first.made,)


def test_before_round_1_a_replacement_is_a_change_of_teams_xlsx(tmp_path):
    start_event(tmp_path / "e", teams=4)
    out = cli("replace", tmp_path / "e", "--team", "01", "--out", "x", "--in", "y", "--reason", "z", code=1).output
    assert "第1轮还没有抽签：换队员请直接改报名表" in out


def test_the_papers_after_a_replacement_show_the_pair_as_it_finished_and_name_who_played(tmp_path):
    folder = tmp_path / "e"
    rng = start_event(folder, teams=4)
    draw(folder, rng)
    play(folder, 1, rng)
    from shuangsheng.usecases.folder import open_folder

    state = open_folder(folder)
    winners = [m.outcome.winner for m in state.score_of(1).matches]
    team = state.team_map[winners[0]]
    out = cli("replace", folder, "--team", team.id, "--out", team.players[1], "--in", "替补王", "--reason", "生病",
              "--round", 2).output
    assert f"已记下换人：第{team.id}组：{team.players[1]}由替补王替换（第2轮起；原因：生病）" in out
    assert "没有记下" in cli("replace", folder, "--team", team.id, "--out", team.players[1], "--in", "某人",
                            "--reason", "x", code=1).output  # not in the pair any more
    cli("draw", folder, "--seed", 5)
    with Ledger.open(folder) as book:
        assert book.draws()[2].names[team.id] == (team.players[0], "替补王")  # the names at the draw
    assert "替补王" in text_of((folder / "第2轮对阵表.pdf").read_bytes())
    play(folder, 2, rng)
    awards = cli("awards", folder).output
    assert f"换人：第{team.id}组：{team.players[1]}由替补王替换" in awards
    certificates = text_of((folder / "荣誉证书.pdf").read_bytes())
    assert f"{team.players[0]}、替补王" in certificates and f"（{team.players[1]}也曾为本组参赛）" in certificates
    assert "替补王" in text_of((folder / "成绩公告.pdf").read_bytes())


def test_the_desk_takes_a_replacement_with_a_reason_and_answers_every_refusal(tmp_path):
    import json

    from shuangsheng.hall.desk_api import DeskApi
    from shuangsheng.hall.hall import Request

    folder = tmp_path / "e"
    rng = start_event(folder, teams=4)
    headers = {"content-type": "application/json", "host": "127.0.0.1:8000", "x-desk-pin": "246810"}
    desk = DeskApi(folder, names={"127.0.0.1"}, port=8000, pin="246810", clock=lambda: "2026-03-15T10:00:00+08:00")

    def call(method: str, payload: object = None, **extra: str) -> tuple[int, dict]:
        data = b"" if payload is None else json.dumps(payload, ensure_ascii=False).encode()
        reply = desk.handle(Request(method, "/api/desk/replace", "127.0.0.1", {**headers, **extra}, data, len(data)))
        return reply.status, json.loads(reply.body())

    assert call("POST", body(team="01", out="x"))[0] == 409  # before round 1: teams.xlsx is changed instead
    draw(folder, rng)
    with Ledger.open(folder) as book:
        first = book.draws()[1].names["01"]
    status, doc = call("GET")
    assert (status, doc["replacements"], doc["mark"], doc["round"]) == (200, [], 0, 1)
    assert doc["teams"][0] == {"team": "01", "shown": "01", "players": list(first)}  # the pairs as they stand, by 组号
    assert [t["team"] for t in doc["teams"]] == ["01", "02", "03", "04"]
    assert call("POST", body(team="01", out=first[1], reason=""))[0] == 400
    assert call("POST", body(team="42", out=first[1]))[0] == 404
    assert call("POST", body(team="01", out="没这人"))[0] == 422
    assert call("POST", body(team="01", out=first[1], mark=1))[0] == 409
    assert call("GET", **{"x-desk-pin": ""})[0] == 401
    assert call("PUT")[0] == 405
    status, doc = call("POST", body(team="01", out=first[1]))
    assert status == 200 and doc["mark"] == 1
    assert doc["replacements"] == [{"team": "01", "out": first[1], "in": "王五", "from_round": 1, "reason": "生病",
                                    "time": "2026-03-15T10:00:00+08:00", "address": "127.0.0.1"}]
    assert doc["teams"][0] == {"team": "01", "shown": "01", "players": [first[0], "王五"]}  # the pair as it stands now
    assert call("POST", body(team="01", out=first[1]))[1]["mark"] == 1  # sent again: taken once


def test_the_desk_names_pairs_at_the_field_s_width_when_the_pairs_over_99_did_not_play(tmp_path):
    """99 pairs and a reserve numbered 100 who did not get in: round 1's draw holds 01–99 only, but teams.xlsx
    (the field every paper and workbook prints) has 100 pairs, so 第007组 — the desk's 换人 said 07 and 第07组."""
    import json

    from shuangsheng.hall.desk_api import DeskApi
    from shuangsheng.hall.hall import Request
    from tests.events import new_event

    folder = new_event(tmp_path / "e", [*(Team(f"{i:02d}", (f"甲{i}", f"乙{i}")) for i in range(1, 100)),
                                        Team("100", ("候补甲", "候补乙"), reserve=True)])
    cli("checkin", folder, "--arrived", ",".join(str(i) for i in range(1, 100)))
    cli("checkin", folder, "--close")
    cli("draw", folder, "--seed", 5)
    with Ledger.open(folder) as book:
        assert "100" not in book.draws()[1].round.pool
    headers = {"content-type": "application/json", "host": "127.0.0.1:8000", "x-desk-pin": "246810"}
    desk = DeskApi(folder, names={"127.0.0.1"}, port=8000, pin="246810", clock=lambda: "2026-03-15T10:00:00+08:00")

    def call(method: str, payload: object = None) -> tuple[int, dict]:
        data = b"" if payload is None else json.dumps(payload, ensure_ascii=False).encode()
        reply = desk.handle(Request(method, "/api/desk/replace", "127.0.0.1", headers, data, len(data)))
        return reply.status, json.loads(reply.body())

    from shuangsheng.storage import workbook
    assert workbook.read_round(folder / "round-1.xlsx").digits == 3  # the round's workbook writes 007
    status, doc = call("GET")
    assert status == 200 and doc["teams"][6]["shown"] == "007"
    status, refused = call("POST", body(team="07", out="没这人"))
    assert status == 422 and "第007组现在的队员是甲7、乙7" in json.dumps(refused, ensure_ascii=False)
