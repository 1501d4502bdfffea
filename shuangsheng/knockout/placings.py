"""The final placings of the knockout (`placings`: 一等奖, 二等奖, the 三等奖 as `[format] third_place` says, the
places left vacant), the prize note a round's papers carry (`prize_note`), and the placings as `awards --json` gives
them. Pure."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from shuangsheng.knockout.advance import Blocker, check_rounds, match_results
from shuangsheng.knockout.formats import Byes, ThirdPlace
from shuangsheng.knockout.knockout import MatchOutcome, Round, is_final, next_size, round_title
from shuangsheng.knockout.teams import in_order, team_name


@dataclass(frozen=True)
class Placings:
    """The prizes: 一等奖 `first`, 二等奖 `second`, 三等奖 `third` (two when shared, one with a playoff or when
    the semi-final had a bye). `missing` names every match or draw still to come; `notes` explain the awards."""

    complete: bool
    first: str | None = None
    second: str | None = None
    third: tuple[str, ...] = ()
    missing: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()


def prize_note(
    round_: Round, third_place: ThirdPlace | str = ThirdPlace.SHARED, loser: str | None = None, *, digits: int = 2
) -> str | None:
    """What a round means for the prizes when it is not the usual shape: a 2-team field (no 三等奖) or a
    semi-final with a bye (only one semi-final loser). `loser` is that match's loser once known; the teams named
    `digits` wide (the event's width, `id_digits`: 第007组 in a field over 99)."""
    mode = ThirdPlace(third_place)
    if round_.number == 1 and is_final(round_):
        return "只有2组参赛，第1轮即为决赛：胜者获一等奖，负者获二等奖，不设三等奖。"
    if len(round_.pool) != 3 or len(round_.byes) != 1:
        return None
    match = next(p for p in round_.pairings if not p.third_place)
    who = team_name(loser, digits) if loser else f"{team_name(match.a, digits)}与{team_name(match.b, digits)}之间的负者"
    head = (
        f"半决赛（第{round_.number}轮）只有3组：{team_name(round_.byes[0], digits)}轮空，直接进入决赛（获一等奖或二等奖）；"
        f"只有一场半决赛，{who}获三等奖。"
    )
    if mode is ThirdPlace.PLAYOFF:
        return head + "只有一组半决赛负者，不进行三、四名决赛。"
    return head + "另一个三等奖名额空缺（没有第二场半决赛），如需另行颁发，由组委会决定。"


def placings(
    rounds: Sequence[Round],
    outcomes_by_round: Mapping[int, Sequence[MatchOutcome]],
    *,
    third_place: ThirdPlace | str = ThirdPlace.SHARED,
    byes: Byes | str = Byes.FIRST_ROUND,
    digits: int = 2,
) -> Placings:
    """The placings so far: final winner 1st, loser 2nd; 3rd the semi-final losers ("shared", named as soon as
    their match is decided, before the final) or the winner of the 3rd-place match ("playoff"). Incomplete while
    anything is undecided or undrawn, each listed in `missing` (rounds still to draw counted with `byes`); the
    notes name teams `digits` wide (the event's width). Raises BracketError if the rounds do not fit together."""
    mode = ThirdPlace(third_place)
    if not rounds:
        return Placings(False, missing=("第1轮尚未抽签",))
    check_rounds(rounds, outcomes_by_round, digits)
    results = [match_results(r, outcomes_by_round.get(r.number, ())) for r in rounds]
    missing = _missing(rounds, results, byes)
    last = rounds[-1]
    first = second = None
    if is_final(last):
        final_pairing = next(p for p in last.pairings if not p.third_place)
        final = results[-1][final_pairing.table]
        if not isinstance(final, Blocker):
            first, second = final
    third, third_missing, third_notes = _third(rounds, results, mode, digits)
    missing += third_missing
    notes = [*_semi_notes(rounds, results, mode, digits), *third_notes]
    return Placings(not missing, first, second, third, tuple(missing), tuple(notes))


def _missing(rounds: Sequence[Round], results: Sequence[dict[int, tuple[str, str] | Blocker]],
             byes: Byes | str) -> list[str]:
    """Every match not decided yet, then every round still to draw."""
    missing = [f"第{r.number}轮{b.message}" for r, res in zip(rounds, results, strict=True)
               for b in res.values() if isinstance(b, Blocker)]
    last = rounds[-1]
    if not is_final(last):
        size, number = len(last.pairings) + len(last.byes), last.number + 1
        while size >= 2:
            missing.append(f"{round_title(number, size)}尚未抽签")
            size, number = next_size(size, byes), number + 1
    return missing


def _third(rounds: Sequence[Round], results: Sequence[dict[int, tuple[str, str] | Blocker]],
           mode: ThirdPlace, digits: int) -> tuple[tuple[str, ...], list[str], list[str]]:
    """The 三等奖 so far, what keeps it open, and notes: (third, missing, notes)."""
    last = rounds[-1]
    final_drawn = is_final(last)
    semi_index = next((i for i, r in enumerate(rounds) if len(r.pool) in (3, 4)), None)
    if semi_index is None:
        note = prize_note(rounds[0], mode, digits=digits)
        return (), [], [note] if note is not None else []
    semi_matches = [p for p in rounds[semi_index].pairings if not p.third_place]
    outcomes = [results[semi_index][p.table] for p in semi_matches]
    semi_losers = tuple(in_order(o[1] for o in outcomes if not isinstance(o, Blocker)))  # in number order
    match = next((p for p in last.pairings if p.third_place), None) if final_drawn else None
    if len(semi_matches) == 2 and mode is ThirdPlace.PLAYOFF:
        if final_drawn and match is None:
            return (), [f"第{last.number}轮（决赛）没有三、四名决赛，无法确定三等奖（third_place = \"playoff\"）"], []
        if match is not None and not isinstance(res := results[-1][match.table], Blocker):
            return (res[0],), [], []
        return (), [], []
    notes = [] if match is None else [
        f"第{last.number}轮有三、四名决赛，但 third_place = \"shared\"：两组半决赛负者并列三等奖。"]
    return semi_losers, [], notes


def _semi_notes(
    rounds: Sequence[Round], results: Sequence[dict[int, tuple[str, str] | Blocker]], mode: ThirdPlace, digits: int
) -> tuple[str, ...]:
    for r, res in zip(rounds, results, strict=True):
        if len(r.pool) == 3:
            match = next(p for p in r.pairings if not p.third_place)
            outcome = res[match.table]
            loser = None if isinstance(outcome, Blocker) else outcome[1]
            note = prize_note(r, mode, loser, digits=digits)
            return (note,) if note else ()
    return ()


def placings_as_json(p: Placings) -> dict[str, object]:
    """docs/README.md (--json): {"complete": true, "first": "03", "second": "08", "third": ["05", "11"]}; "missing" is added
    while unfinished and "notes" whenever the awards need explaining."""
    data: dict[str, object] = {"complete": p.complete, "first": p.first, "second": p.second, "third": list(p.third)}
    if not p.complete:
        data["missing"] = list(p.missing)
    if p.notes:
        data["notes"] = list(p.notes)
    return data
