"""Replaying a match hand by hand under the event's rules (比赛规则 as printed; options in docs/event-toml.md):
levels, the deal, the result, and why."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from shuangsheng.game.hands import Hand, HandError, MatchRecord, Offense, RecordError, check_hand, parse_record
from shuangsheng.game.levels import START, Level, Levels, Side
from shuangsheng.game.rules import (
    CARD_PENALTY,
    DEFAULT_RULES,
    HOLD_LINE,
    PENALTY_LEVELS,
    POLICY_LINE,
    PenaltyExcess,
    RuleSet,
    TieBreak,
)
from shuangsheng.vocabulary.errors import Issue, issues_json


class Status(str, enum.Enum):
    """How a sequence of hands came out (replay --json's "status"); a table's status, `shuangsheng.table.status.TableStatus`,
    is derived from it by `table_status` alone."""

    DECIDED = "decided"  # higher level when time was up (or after a 加赛 hand)
    PASSED_A = "passed_a"  # won outright by passing A
    NEEDS_PLAYOFF = "needs_playoff"  # tied when time was up; 加赛 hands still to play


class Kind(str, enum.Enum):
    """Why a hand came out as it did; the first that applies replaces normal scoring (rule clauses 十二–十四)."""

    DEALER_WRONG_BURY = "dealer_wrong_bury"  # 十三
    DEFENDER_WRONG_BURY = "defender_wrong_bury"  # 十三
    DEALER_REVOKE = "dealer_revoke"  # 十四
    DEFENDER_REVOKE = "defender_revoke"  # 十四
    LEVEL_CARD_CAPTURE = "level_card_capture"  # 十二
    POLICY = "policy"  # 十二 落实政策
    HOLD = "hold"  # 十: P < 80, the dealer side keeps the deal
    TAKE_OVER = "take_over"  # 十: P ≥ 80, the defenders take the deal


@dataclass(frozen=True)
class Rise:
    """A side gaining levels: asked for `gain`, got from `start` to `end`; `stop` names the must-play level
    that halted it, `excess` the levels it could not take."""

    side: Side
    gain: int
    start: Level
    end: Level
    stop: Level | None = None
    excess: int = 0


@dataclass(frozen=True)
class Move:
    """A side's level set directly (a drop for a J/A offence, a deduction, 落实政策)."""

    side: Side
    start: Level
    end: Level


@dataclass(frozen=True)
class HandOutcome:
    hand: int  # 1-based position in the record
    dealer: Side
    dealer_level: Level
    points: int  # the defenders' total P (after bottom, penalties, and clamping)
    playoff: bool
    kind: Kind
    before: Levels
    after: Levels
    next_dealer: Side
    hand_record: Hand
    rise: Rise | None = None
    drop: Move | None = None  # the dealer's drop (J → 2, A → J) or 落实政策's return
    deduction: Move | None = None
    passed_a: bool = False

    @property
    def explanation(self) -> str:
        return explain(self)


@dataclass(frozen=True, kw_only=True)
class MatchResult:
    outcomes: tuple[HandOutcome, ...]
    start: Levels
    levels: Levels
    next_dealer: Side | None
    status: Status | None  # None when there are errors or no hands
    winner: Side | None
    errors: tuple[HandError, ...] = ()
    time_up: Levels | None = None  # levels after the last regular (non-加赛) hand
    decided_by_dealer: bool = False  # tie_break = "dealer" settled a tie

    @property
    def ok(self) -> bool:
        return not self.errors


class _Replay:
    """The mutable walk through one record; `replay` is the only user."""

    def __init__(self, record: MatchRecord, rules: RuleSet):
        self.rules = rules
        self.levels = record.start
        self.left_two = {side: record.start[side] is not Level.TWO for side in Side}
        self.policy: tuple[Side, Level] | None = None  # 落实政策 pending for the next hand
        self.deduction: Move | None = None  # rule 十一's deduction in the hand being played

    def gain_for_dealer(self, side: Side, gain: int, *, scored: bool) -> Rise:
        """The dealer side keeps the deal: it may rise to, not past, the next must-play level above the one played."""
        start = self.levels[side]
        cap = self.rules.next_must_play_above(start)
        return self._rise(side, gain, cap, scored=scored)

    def gain_for_other(self, side: Side, gain: int, *, scored: bool) -> Rise:
        """Any other gain stops at the first must-play level at or above the team's current level."""
        cap = self.rules.first_must_play_from(self.levels[side], left_two=self.left_two[side])
        return self._rise(side, gain, cap, scored=scored)

    def _rise(self, side: Side, gain: int, cap: Level, *, scored: bool) -> Rise:
        """Rise to at most `cap`; the excess of a score-based gain (or any, with penalty_excess = "deduct") comes
        off the other side, never below 2 (rule 十一)."""
        start = self.levels[side]
        target = start + gain
        end = Level(min(target, cap))
        excess = target - end
        self.set(side, end)
        if excess and (scored or self.rules.penalty_excess is PenaltyExcess.DEDUCT):
            other = side.other
            before = self.levels[other]
            after = Level(max(Level.TWO, before - excess))
            self.set(other, after)
            self.deduction = Move(other, before, after)
        return Rise(side, gain, start, end, stop=cap if excess else None, excess=excess)

    def drop(self, side: Side, played: Level) -> Move:
        """J → 2, A → J (rules 十二, 十三, 十四)."""
        move = Move(side, played, Level.TWO if played is Level.JACK else Level.JACK)
        self.set(side, move.end)
        return move

    def set(self, side: Side, level: Level) -> None:
        self.levels = self.levels.with_level(side, level)
        if level is not Level.TWO:
            self.left_two[side] = True

    def play(self, number: int, hand: Hand) -> HandOutcome:
        rules = self.rules
        d, o = hand.dealer, hand.dealer.other
        before = self.levels
        played = before[d]
        points = rules.effective_points(hand.raw_points)
        policy, self.policy = self.policy, None
        self.deduction = None
        rise = drop = None
        passed_a = False
        offense = hand.offense
        if offense is Offense.DEALER_WRONG_BURY or offense is Offense.DEALER_REVOKE:
            kind = Kind(offense.value)
            keeps = False
            if played in (Level.JACK, Level.ACE):
                drop = self.drop(d, played)
            if offense is Offense.DEALER_WRONG_BURY or drop is None:
                rise = self.gain_for_other(o, PENALTY_LEVELS, scored=False)
        elif offense is Offense.DEFENDER_WRONG_BURY or offense is Offense.DEFENDER_REVOKE:
            kind = Kind(offense.value)
            keeps = True
            if offense is Offense.DEFENDER_REVOKE:
                points = 0  # 台下方出错牌，得分无效 (十四)
            if played is Level.ACE:
                passed_a = True
            else:
                rise = self.gain_for_dealer(d, PENALTY_LEVELS, scored=False)
        elif hand.level_card_capture:
            kind = Kind.LEVEL_CARD_CAPTURE
            keeps = True
            drop = self.drop(d, played)
            self.policy = (d, played)
        elif policy is not None and policy[0] is d and points < POLICY_LINE:
            kind = Kind.POLICY
            keeps = True
            drop = Move(d, played, policy[1])
            self.set(d, policy[1])
        elif points < HOLD_LINE:
            kind = Kind.HOLD
            keeps = True
            if played is Level.ACE:
                passed_a = True
            else:
                rise = self.gain_for_dealer(d, rules.dealer_gain(points), scored=True)
        else:
            kind = Kind.TAKE_OVER
            keeps = False
            rise = self.gain_for_other(o, rules.defender_gain(points), scored=True)
        return HandOutcome(
            hand=number,
            dealer=d,
            dealer_level=played,
            points=points,
            playoff=hand.playoff,
            kind=kind,
            before=before,
            after=self.levels,
            next_dealer=d if keeps else o,
            hand_record=hand,
            rise=rise,
            drop=drop,
            deduction=self.deduction,
            passed_a=passed_a,
        )


def error_order(error: HandError) -> tuple[int, int]:
    """Problems of the record as a whole first, then hand by hand (a stable sort keeps each hand's field order)."""
    return (0, 0) if error.hand is None else (1, error.hand)


@dataclass
class _Progress:
    """How far a replay has come (private to `replay`): decided by passing A or by a 加赛 hand, and the levels
    when time was up."""

    status: Status | None = None
    winner: Side | None = None
    decided_at: int | None = None
    time_up: Levels | None = None


Complaint = tuple[str | None, str]  # (field, message) about one hand


def replay(record: MatchRecord, rules: RuleSet = DEFAULT_RULES) -> MatchResult:
    """Replay every hand; errors (impossible values, a wrong dealer or level, hands after the end) name the hand.

    Every hand's impossible values are reported, together with the sequence errors (wrong dealer or level, a hand
    after the end) of the hands before the first bad one, all in hand order. The replay itself stops at the first
    bad hand: what follows depends on it, and checking on would only repeat the same mistake.
    """
    walk = Replay(record.start, rules)
    for hand in record.hands:
        walk.add(hand)
    return walk.result()


class Replay:
    """`replay` one hand at a time: `add` a hand, then `result` is what `replay` gives for the record of the hands
    added so far (`record`). For whoever chooses each hand from where the ones before left the match (the
    simulator), without replaying them all again."""

    def __init__(self, start: Levels = START, rules: RuleSet = DEFAULT_RULES):
        self.start, self.rules = start, rules
        self._hands: list[Hand] = []
        self._walk = _Replay(MatchRecord((), start), rules)
        self._outcomes: list[HandOutcome] = []
        self._progress = _Progress()
        self._errors: list[HandError] = []
        self._stopped = False  # at the first bad hand

    @property
    def record(self) -> MatchRecord:
        return MatchRecord(tuple(self._hands), self.start)

    def add(self, hand: Hand) -> None:
        self._hands.append(hand)
        number = len(self._hands)
        value_errors = check_hand(number, hand)
        self._errors.extend(value_errors)
        if self._stopped or value_errors:
            self._stopped = True
            return
        prev = self._outcomes[-1] if self._outcomes else None
        progress = self._progress
        complaint = _sequence_complaint(hand, prev, self._walk.levels, progress, self.rules)
        if complaint is not None:
            self._errors.append(Issue.of_hand(number, *complaint))
            self._stopped = True
            return
        outcome = self._walk.play(number, hand)
        self._outcomes.append(outcome)
        if outcome.passed_a:
            progress.status, progress.winner, progress.decided_at = Status.PASSED_A, outcome.dealer, number
        elif hand.playoff and not outcome.after.tied:
            progress.status, progress.winner, progress.decided_at = Status.DECIDED, outcome.after.leader, number

    def result(self) -> MatchResult:
        outcomes, levels = tuple(self._outcomes), self._walk.levels
        if self._errors:
            errors = sorted(self._errors, key=error_order)
            return MatchResult(outcomes=outcomes, start=self.start, levels=levels, next_dealer=None, status=None,
                               winner=None, errors=tuple(errors), time_up=self._progress.time_up)
        return _finished(self.record, outcomes, levels, self._progress, self.rules)


def _sequence_complaint(hand: Hand, prev: HandOutcome | None, levels: Levels, progress: _Progress,
                        rules: RuleSet) -> Complaint | None:
    """What is wrong with a hand coming after `prev`: after the end, the wrong dealer or level, a misplaced 加赛
    hand, 级牌抠底 at a level other than J or A. Notes the levels at time up when the first 加赛 hand comes."""
    if progress.status is Status.PASSED_A:
        assert progress.winner is not None  # a match decided has a winner
        return None, f"比赛已在第{progress.decided_at}局结束（{progress.winner.team}打过A），此后不应再有记录"
    if progress.status is Status.DECIDED:
        assert progress.winner is not None
        return "playoff", f"加赛已在第{progress.decided_at}局决出胜负（{progress.winner.team}胜），此后不应再有记录"
    if prev is not None and hand.dealer is not prev.next_dealer:
        why = "保庄" if prev.next_dealer is prev.dealer else "上台"
        return "dealer", (f"应为{prev.next_dealer.team}坐庄（第{prev.hand}局后{prev.next_dealer.team}{why}），"
                          f"记录为{hand.dealer.team}")
    played = levels[hand.dealer]
    if hand.level is not None and hand.level is not played:
        since = f"第{prev.hand}局后{hand.dealer.team}为{played}级" if prev else f"{hand.dealer.team}起始级数为{played}"
        return "level", f"{hand.dealer.team}此局应打{played}（{since}），记录为{hand.level}"
    complaint = _playoff_complaint(hand, prev, levels, progress, rules)
    if complaint is None and hand.level_card_capture and played not in (Level.JACK, Level.ACE):
        return "level_card_capture", f"级牌抠底只在庄家打 J 或 A 时适用，{hand.dealer.team}此局打{played}"
    return complaint


def _playoff_complaint(hand: Hand, prev: HandOutcome | None, levels: Levels, progress: _Progress,
                       rules: RuleSet) -> Complaint | None:
    if not hand.playoff:
        if prev is not None and prev.playoff:
            return "playoff", f"第{prev.hand}局是加赛局，其后的局也应标为加赛"
        return None
    if prev is None or not prev.playoff:
        progress.time_up = levels
        if not levels.tied:
            return "playoff", f"时间到时双方级数不同（{_pair(levels)}），不需要加赛"
    if rules.tie_break is TieBreak.DEALER:
        return "playoff", "本次比赛规则为级数相同判最后一局庄家胜（tie_break = \"dealer\"），不进行加赛"
    return None


def _finished(record: MatchRecord, outcomes: tuple[HandOutcome, ...], levels: Levels, progress: _Progress,
              rules: RuleSet) -> MatchResult:
    """The result of a replay without errors: decided at time (or by the last dealer under tie_break "dealer"),
    by passing A or a 加赛 hand, or tied and waiting for 加赛."""
    status, winner, decided_by_dealer = progress.status, progress.winner, False
    time_up = progress.time_up if progress.time_up is not None or not outcomes else levels
    if status is None and outcomes:
        if not levels.tied:
            status, winner = Status.DECIDED, levels.leader
        elif rules.tie_break is TieBreak.DEALER:
            last_regular = [o for o in outcomes if not o.playoff][-1]
            status, winner, decided_by_dealer = Status.DECIDED, last_regular.dealer, True
        else:
            status = Status.NEEDS_PLAYOFF
    return MatchResult(
        outcomes=outcomes,
        start=record.start,
        levels=levels,
        next_dealer=outcomes[-1].next_dealer if outcomes else None,
        status=status,
        winner=winner,
        errors=(),
        time_up=time_up,
        decided_by_dealer=decided_by_dealer,
    )


def replay_record(data: object, rules: RuleSet = DEFAULT_RULES) -> MatchResult:
    """A JSON match record (docs/match-record.md) parsed and replayed under its own rule overrides, else `rules`. A record that
    does not parse still has the hands before its first bad one replayed, so `errors` lists every problem — shape,
    values and sequence — in hand order."""
    try:
        record, own_rules = parse_record(data)
    except RecordError as exc:
        errors = list(exc.errors)
        if exc.readable is not None:
            errors.extend(replay(exc.readable, exc.rules or rules).errors)
        errors.sort(key=error_order)
        start = exc.readable.start if exc.readable is not None else START
        return MatchResult(outcomes=(), start=start, levels=start, next_dealer=None, status=None, winner=None,
                           errors=tuple(errors))
    return replay(record, own_rules or rules)


# --- explanations: one place turns an outcome into Chinese ---


def _pair(levels: Levels) -> str:
    return f"甲方 {levels.a}，乙方 {levels.b}"


def _points_text(o: HandOutcome) -> str:
    h = o.hand_record
    parts = [f"台下得分 {h.points}"]
    if h.capture:
        parts.append(f"+ 底牌 {h.bottom}×{h.capture}")
    if h.dealer_wrong_cards:
        parts.append(f"+ 台上罚 {h.dealer_wrong_cards} 张 {h.dealer_wrong_cards * CARD_PENALTY}")
    if h.defender_wrong_cards:
        parts.append(f"− 台下罚 {h.defender_wrong_cards} 张 {h.defender_wrong_cards * CARD_PENALTY}")
    raw = h.raw_points
    text = " ".join(parts)
    if len(parts) > 1:
        text += f" = {raw}"
    if raw != o.points:
        text += f"，按 {o.points} 计"
    return text


def _rise_text(o: HandOutcome, who: str) -> str:
    r = o.rise
    assert r is not None
    if r.gain == 0:
        return f"{who}不升级"
    if r.end == r.start:
        text = f"{who}应升{r.gain}级，因 {r.stop} 必打停在 {r.end}"
    elif r.excess:
        text = f"{who}升{r.gain}级，因 {r.stop} 必打止于 {r.stop}（{r.start}→{r.end}）"
    else:
        text = f"{who}升{r.gain}级（{r.start}→{r.end}）"
    if o.deduction is not None:
        dd = o.deduction
        if dd.start == dd.end:
            text += f"，余{r.excess}级应从{dd.side.team}扣除，但{dd.side.team}已是 2，不再扣（扣到2为止）"
        else:
            text += f"，余{r.excess}级从{dd.side.team}扣除（{dd.start}→{dd.end}）"
            if dd.end - dd.start != -r.excess:
                text += "，扣到2为止"
    elif r.excess and r.end != r.start:
        text += f"，余{r.excess}级不计（罚升级不扣对方）"
    elif r.excess:
        text += "（罚升级不扣对方）" if o.kind not in (Kind.HOLD, Kind.TAKE_OVER) else ""
    return text


def explain(o: HandOutcome) -> str:
    """第6局：甲方坐庄打10，台下得分 40 → 庄家升2级，因 J 必打止于 J，余1级从乙方扣除（7→6）"""
    cause, effect = _cause_and_effect(o)
    return f"{cause}{'' if cause.endswith('）') else ' '}→ {effect}"  # no space after a closing bracket


def consequence(o: HandOutcome) -> str:
    """What the hand did, without what led to it (the part of `explain` after →): 甲方保庄，庄家升2级（5→7）."""
    return _cause_and_effect(o)[1]


def _cause_and_effect(o: HandOutcome) -> tuple[str, str]:
    d, other = o.dealer.team, o.dealer.other.team
    head = f"第{o.hand}局{'（加赛）' if o.playoff else ''}：{d}坐庄打{o.dealer_level}"
    k = o.kind
    if k is Kind.DEALER_WRONG_BURY or k is Kind.DEALER_REVOKE:
        what = "台上扣错底" if k is Kind.DEALER_WRONG_BURY else "台上出错牌"
        clause = "十三" if k is Kind.DEALER_WRONG_BURY else "十四"
        effect = f"{d}下台"
        if o.drop is not None:
            effect += f"并降级（{o.drop.start}→{o.drop.end}）"
        if o.rise is not None:
            effect += f"；{other}罚升{PENALTY_LEVELS}级：" + _rise_text(o, other)
        else:
            effect += f"；{other}不升级"
        return f"{head}，{what}（第{clause}条）", effect
    if k is Kind.DEFENDER_WRONG_BURY or k is Kind.DEFENDER_REVOKE:
        what = "台下扣错底" if k is Kind.DEFENDER_WRONG_BURY else "台下出错牌，得分无效"
        clause = "十三" if k is Kind.DEFENDER_WRONG_BURY else "十四"
        cause = f"{head}，{what}（第{clause}条）"
        if o.passed_a:
            return cause, f"{d}保庄，打过 A，{d}获胜"
        return cause, f"{d}保庄，罚升{PENALTY_LEVELS}级：" + _rise_text(o, "庄家")
    if k is Kind.LEVEL_CARD_CAPTURE:
        assert o.drop is not None  # 级牌抠底 always drops the dealer
        return f"{head}，台下用 {o.dealer_level} 抠底（第十二条）", (
            f"不论得分，{d}保庄，从 {o.drop.end} 重新打起（{o.drop.start}→{o.drop.end}）"
            + ("，此时 2 非必打" if o.drop.end is Level.TWO else "")
            + "；下一局台下得分不满40分可回到"
            + f" {o.drop.start}"
        )
    points = _points_text(o)
    if k is Kind.POLICY:
        assert o.drop is not None  # 落实政策 is a return
        return (f"{head}，{points}，不满{POLICY_LINE}分",
                f"落实政策（第十二条），{d}保庄，回到 {o.drop.end}（{o.drop.start}→{o.drop.end}）")
    if k is Kind.HOLD:
        cause = f"{head}，{points}，不够{HOLD_LINE}分"
        if o.passed_a:
            return cause, f"{d}保庄，打过 A，{d}获胜"
        return cause, f"{d}保庄，" + _rise_text(o, "庄家")
    return f"{head}，{points}，达到{HOLD_LINE}分", f"{other}上台，" + _rise_text(o, other)


def result_summary(result: MatchResult) -> str:
    """One Chinese sentence on how the match stands."""
    if result.errors:
        return "记录有误，无法判定"
    if result.status is None:
        return "尚无记录"
    levels = _pair(result.levels)
    if result.status is Status.NEEDS_PLAYOFF:
        return f"时间到双方同为 {result.levels.a} 级，需加赛"
    assert result.winner is not None  # any other status has a winner
    if result.status is Status.PASSED_A:
        return f"{result.winner.team}打过 A 获胜（{levels}）"
    if result.decided_by_dealer:
        return f"时间到双方同为 {result.levels.a} 级，按规则由最后一局坐庄的{result.winner.team}获胜"
    return f"{result.winner.team}获胜（{levels}）"


def result_as_json(result: MatchResult) -> dict[str, object]:
    """The --json output (docs/match-record.md), or {"errors": [...]}."""
    if result.errors:
        return issues_json(result.errors)
    return {
        "hands": [
            {
                "hand": o.hand,
                "dealer": o.dealer.value,
                "dealer_level": o.dealer_level.label,
                "points": o.points,
                "levels": o.after.as_json(),
                "next_dealer": o.next_dealer.value,
                "explanation": o.explanation,
                "outcome": consequence(o),
            }
            for o in result.outcomes
        ],
        "levels": result.levels.as_json(),
        "next_dealer": result.next_dealer.value if result.next_dealer else None,
        "status": result.status.value if result.status else None,
        "winner": result.winner.value if result.winner else None,
    }
