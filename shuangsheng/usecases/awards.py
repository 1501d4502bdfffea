"""`awards` and `bracket`: the final placings, and the bracket chart of everything drawn and scored so far, from
the folder as `open_folder` reads it. Reads the folder; writes nothing (the PDFs are written by their writers)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from shuangsheng.knockout import knockout
from shuangsheng.knockout.bracket import Bracket
from shuangsheng.knockout.bracket import build as build_bracket
from shuangsheng.knockout.placings import Placings
from shuangsheng.knockout.placings import placings as final_placings
from shuangsheng.render.reports import RoundScore
from shuangsheng.render.results import RoundResults, round_results
from shuangsheng.table.status import TableStatus
from shuangsheng.usecases.folder import (
    EventFolder,
    TournamentError,
    format_options,
    open_folder,
    recorded_draws,
    stop_if_stale,
)
from shuangsheng.usecases.scoring import outcomes_by_round


def awards(folder: Path) -> tuple[Placings, EventFolder]:
    return awards_in(open_folder(folder))


def awards_in(state: EventFolder) -> tuple[Placings, EventFolder]:
    """`awards` on a folder already open."""
    scores = state.scores()
    stop_if_stale(state, scores)
    try:
        placings = final_placings([s.round for s in scores], outcomes_by_round(scores), **format_options(state.event),
                                  digits=state.digits)
    except knockout.KnockoutError as exc:
        raise TournamentError(exc.issues, heading=exc.heading) from None
    return placings, state


def rounds_results(state: EventFolder) -> tuple[RoundResults, ...]:
    """Every round's results as `score` records them (each round scored once per reading), for the 成绩册: each
    with the pairs as they played it (a player replaced from a later round is still named in the earlier ones, as
    their 第N轮成绩 was posted), round 1 with check-in's field (the pairs 弃权, the reserves who came in)."""
    draws = recorded_draws(state.path)
    first = draws[1].field if 1 in draws else None
    return tuple(round_results(score, state.teams_in(score.round.number), digits=state.digits,
                               field=first if score.round.number == 1 else None) for score in state.scores())


def bracket(folder: Path) -> tuple[Bracket, EventFolder]:
    """The bracket chart of everything drawn and scored so far (levels for the decided matches)."""
    return bracket_in(open_folder(folder))


def bracket_in(state: EventFolder) -> tuple[Bracket, EventFolder]:
    """`bracket` on a folder already open."""
    return bracket_of(state, state.scores()), state


def bracket_of(state: EventFolder, scores: Sequence[RoundScore]) -> Bracket:
    """The bracket chart of the folder's rounds as `scores` scored them."""
    stop_if_stale(state, scores)
    levels = {
        (s.round.number, m.match.table): m.result.levels
        for s in scores
        for m in s.matches
        if m.result is not None and m.outcome.status in (TableStatus.DECIDED, TableStatus.PASSED_A)
    }
    try:
        chart = build_bracket(
            [s.round for s in scores],
            outcomes_by_round(scores),
            tuple(state.team_map.values()),  # each pair as it finished (players replaced mid-event)
            levels=levels,
            unchecked={(s.round.number, m.match.table) for s in scores for m in s.matches if m.unchecked},
            playoff_hands={(s.round.number, m.match.table): m.record.playoff_hands
                           for s in scores for m in s.matches if m.record.playoff_hands},
            title=state.event.title,
            digits=state.digits,
            **format_options(state.event),
        )
    except knockout.KnockoutError as exc:
        raise TournamentError(exc.issues, heading=exc.heading) from None
    return chart
