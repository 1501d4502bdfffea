"""A player replaced mid-event (换人: illness, an emergency), as the organiser allows it: the pair plays on with another
player from a round on; every replacement is kept (as the ledger keeps it, only ever added) with its reason. Unlike a
name corrected in teams.xlsx (the same person, spelled right: the record changes from then on), a replacement keeps
who played before it. Pure.

The pair as it finished (`finished_pair`) is what the results, the 成绩公告 and the certificates show; the players who
played (`who_played`), in the order they came in, are what the certificates name besides."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from shuangsheng.knockout.teams import (
    MAX_NAME_LENGTH,
    Team,
    canonical_id,
    id_digits,
    normalize,
    same_person,
    team_name,
)
from shuangsheng.table.entry import MAX_REASON_LENGTH, parse_made
from shuangsheng.vocabulary.errors import Issue, shown


@dataclass(frozen=True)
class Replacement:
    """`into` plays for `team` in place of `out` from round `from_round` on, for `reason`; when (ISO 8601), from
    which address, the press's id."""

    team: str
    out: str
    into: str
    from_round: int
    reason: str
    at: str = ""
    address: str = ""
    id: str = ""

    def said(self, digits: int = 2) -> str:
        """'第03组：李四由王五替换（第2轮起；原因：生病）' (第003组 with three `digits`: a field over 99)"""
        return f"{team_name(self.team, digits)}：{self.out}由{self.into}替换（第{self.from_round}轮起；原因：{self.reason}）"

    def as_json(self) -> dict[str, object]:
        return {"team": self.team, "out": self.out, "in": self.into, "from_round": self.from_round,
                "reason": self.reason, "time": self.at, "address": self.address}


def finished_pair(team: Team, replacements: Sequence[Replacement]) -> Team:
    """The pair as it finished: each replaced player's place taken by who came in, in the order replaced."""
    players = list(team.players)
    for made in replacements:
        if made.team == team.id and made.out in players:
            players[players.index(made.out)] = made.into
    return replace(team, players=(players[0], players[1]))


def pair_in_round(team: Team, replacements: Sequence[Replacement], number: int) -> Team:
    """The pair as it played round `number`: the replacements made from that round or an earlier one."""
    return finished_pair(team, [made for made in replacements if made.from_round <= number])


def who_played(team: Team, replacements: Sequence[Replacement]) -> tuple[str, ...]:
    """Every player who played for the pair, in the order they came in (the registered pair first)."""
    found = list(team.players)
    found += [made.into for made in replacements if made.team == team.id and made.into not in found]
    return tuple(found)


def replaced_players(team: Team, replacements: Sequence[Replacement]) -> tuple[str, ...]:
    """The players who played for the pair and were replaced (not in the pair as it finished)."""
    finished = finished_pair(team, replacements).players
    return tuple(p for p in who_played(team, replacements) if p not in finished)


def with_replacements(teams: Sequence[Team], replacements: Sequence[Replacement]) -> tuple[Team, ...]:
    return tuple(finished_pair(t, replacements) for t in teams)


# --- a replacement asked for (the desk's press, the command line) ---


@dataclass(frozen=True)
class Asked:
    team: str
    out: str
    into: str
    reason: str
    id: str
    mark: int


def parse_replacement(body: object) -> Asked | Issue:
    """{"team", "out", "in", "reason", "id", "mark"}, or what is wrong with it (the request's field named)."""
    made = parse_made(body)
    if isinstance(made, Issue):
        return made
    fields = body if isinstance(body, Mapping) else {}
    texts = {}
    for field in ("team", "out", "in", "reason"):
        value = fields.get(field)
        if not isinstance(value, str):
            return Issue.of_hand(None, field, f"应为文字，实际为 {shown(value)}")
        texts[field] = normalize(value) if field != "reason" else value.strip()
    return Asked(canonical_id(texts["team"]), texts["out"], texts["in"], texts["reason"], made.id, made.mark)


def replacement_problem(asked: Asked, teams: Sequence[Team], done: Sequence[Replacement],
                        digits: int | None = None) -> tuple[int, Issue] | None:
    """Why a replacement is refused, with its HTTP status, or None: no reason (400), a team not listed (404), a
    player not in the pair as it stands or a new player empty, too long or playing already (422). A pair is named
    `digits` wide (the field's, `id_digits`), by default as wide as `teams` make it."""
    if not asked.reason or len(asked.reason) > MAX_REASON_LENGTH:
        return 400, Issue.of_hand(None, "reason", f"换人须写明原因（如“生病”，{MAX_REASON_LENGTH} 字以内）")
    team = next((t for t in teams if t.id == asked.team), None)
    if digits is None:
        digits = id_digits(t.id for t in teams)  # a team named as the papers print it
    if team is None:
        return 404, Issue.of_hand(None, "team", f"参赛的组里没有{team_name(asked.team, digits)}；请核对组号")
    pair = finished_pair(team, done).players
    if not any(same_person(asked.out) == same_person(p) for p in pair):
        return 422, Issue.of_hand(None, "out", f"{team_name(team.id, digits)}现在的队员是{'、'.join(pair)}，没有“{asked.out}”；"
                                                "请写要换下的那位队员的姓名")
    if not asked.into or len(asked.into) > MAX_NAME_LENGTH:
        return 422, Issue.of_hand(None, "in", f"请写换上的队员的姓名（{MAX_NAME_LENGTH} 字以内）")
    playing = {same_person(p): t.id for t in teams for p in who_played(t, done)}
    if (other := playing.get(same_person(asked.into))) is not None:
        return 422, Issue.of_hand(None, "in", f"“{asked.into}”已经在{team_name(other, digits)}参赛，每人只能参加一组")
    return None


def out_as_listed(asked: Asked, team: Team, done: Sequence[Replacement]) -> str:
    """The name of the player replaced as the pair has it (the request may have spelled it with spaces)."""
    return next(p for p in finished_pair(team, done).players if same_person(p) == same_person(asked.out))
