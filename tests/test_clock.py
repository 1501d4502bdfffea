"""shuangsheng.table.clock: the round clock from its start/stop rows and `now` (pause, resume, restart, never negative)."""

from __future__ import annotations

import datetime as dt

from hypothesis import given
from hypothesis import strategies as st

from shuangsheng.table.clock import ClockAction, ClockDecision, ClockRow, clock_at, decide_clock, running_after

T0 = dt.datetime(2026, 12, 1, 9, 0, 0, tzinfo=dt.timezone(dt.timedelta(hours=8)))
START, STOP = ClockAction.START, ClockAction.STOP


def at(seconds: float) -> str:
    return (T0 + dt.timedelta(seconds=seconds)).isoformat(timespec="seconds")


def row(action: ClockAction, seconds: float) -> ClockRow:
    return ClockRow(action, at(seconds), "127.0.0.1")


def now(seconds: float) -> dt.datetime:
    return T0 + dt.timedelta(seconds=seconds)


def test_a_clock_never_started_is_none():
    assert clock_at([], now(100), 60) is None
    assert clock_at([row(STOP, 5)], now(100), 60) is None


def test_a_running_clock_counts_down_from_its_first_start():
    clock = clock_at([row(START, 0)], now(600), 60)
    assert clock is not None
    assert clock.as_json() == {"minutes": 60, "started_at": at(0), "left_s": 3000, "running": True}


def test_a_pause_stops_the_count_and_a_start_resumes_it():
    rows = [row(START, 0), row(STOP, 600)]
    paused = clock_at(rows, now(2000), 60)
    assert paused is not None and (paused.left_s(), paused.running) == (3000, False)
    resumed = clock_at([*rows, row(START, 2000)], now(2100), 60)
    assert resumed is not None and (resumed.left_s(), resumed.running) == (2900, True)
    assert resumed.started_at == at(0)  # the first start, not the resumption


def test_a_table_s_extra_minutes_add_to_its_time_only():
    clock = clock_at([row(START, 0)], now(3600), 60)
    assert clock is not None
    assert clock.left_s() == 0 and clock.time_up()
    assert clock.table_json(5) == {"minutes": 60, "extra_minutes": 5, "started_at": at(0), "left_s": 300,
                                   "running": True, "time_up": False}
    assert clock.table_json(0)["time_up"] is True


def test_time_left_is_never_negative_and_time_up_stays():
    clock = clock_at([row(START, 0)], now(9999), 60)
    assert clock is not None and clock.left_s() == 0 and clock.time_up()


def test_a_clock_set_back_adds_no_negative_time():
    clock = clock_at([row(START, 100), row(STOP, 50)], now(200), 60)
    assert clock is not None and clock.left_s() == 3600
    assert clock_at([row(START, 100)], now(0), 60).left_s() == 3600


def test_the_same_rows_read_again_give_the_same_clock():
    """A restart of `serve` reads the rows back from event.db: the clock is theirs, not the process's."""
    rows = [row(START, 0), row(STOP, 300), row(START, 400)]
    assert clock_at(list(rows), now(1000), 60) == clock_at(tuple(rows), now(1000), 60)
    assert clock_at(rows, now(1000), 60).left_s() == 3600 - 900


def test_decide_adds_a_row_only_when_it_changes_the_clock():
    assert decide_clock([], STOP, at=at(0), address="x", request="p0", mark=0) == ClockDecision()
    started = decide_clock([], START, at=at(0), address="127.0.0.1", request="p1", mark=0).row
    assert started == ClockRow(START, at(0), "127.0.0.1", "p1")
    assert decide_clock([started], START, at=at(5), address="x", request="p2", mark=1) == ClockDecision()
    assert decide_clock([started], STOP, at=at(5), address="x", request="p3", mark=1) == ClockDecision(
        ClockRow(STOP, at(5), "x", "p3"))


def test_a_press_made_again_with_its_id_adds_nothing_and_its_id_for_the_other_action_is_reused():
    started = decide_clock([], START, at=at(0), address="x", request="p1", mark=0).row
    assert started == ClockRow(START, at(0), "x", "p1")
    stopped = decide_clock([started], STOP, at=at(60), address="x", request="p2", mark=1).row
    rows = [started, stopped]
    # the start's answer was lost and the page sends it again: the clock is paused since, and stays so
    assert decide_clock(rows, START, at=at(90), address="x", request="p1", mark=0) == ClockDecision()
    assert decide_clock(rows, STOP, at=at(90), address="x", request="p1", mark=2) == ClockDecision(reused=started)
    assert decide_clock(rows, START, at=at(90), address="x", request="p3", mark=2).row == ClockRow(
        START, at(90), "x", "p3")


def test_a_new_press_made_on_an_older_mark_of_the_clock_is_stale():
    """Two desks: one paused the clock since the other's page read it; the other's new press is refused."""
    started = decide_clock([], START, at=at(0), address="x", request="p1", mark=0).row
    stopped = decide_clock([started], STOP, at=at(60), address="y", request="p2", mark=1).row
    assert decide_clock([started, stopped], STOP, at=at(90), address="x", request="p3", mark=1) == ClockDecision(
        stale=True)


def test_times_with_different_offsets_compare_as_moments():
    utc = (T0 + dt.timedelta(seconds=60)).astimezone(dt.UTC).isoformat()
    clock = clock_at([row(START, 0), ClockRow(STOP, utc)], now(5000), 60)
    assert clock is not None and clock.left_s() == 3540


steps = st.lists(st.tuples(st.sampled_from([START, STOP]), st.integers(0, 60)), max_size=12)


@given(steps, st.integers(0, 500), st.integers(1, 120), st.integers(0, 120))
def test_left_is_within_the_time_and_elapsed_is_the_running_intervals(actions, after, minutes, extra):
    t, rows = 0, []
    for action, gap in actions:
        t += gap
        rows.append(row(action, t))
    clock = clock_at(rows, now(t + after), minutes)
    if not any(a is START for a, _ in actions):
        assert clock is None
        return
    assert clock is not None
    assert 0 <= clock.left_s(extra) <= (minutes + extra) * 60
    assert clock.running == running_after(rows)
    assert clock.elapsed_s == _running_seconds(rows, t + after)


def _running_seconds(rows: list[ClockRow], end: int) -> int:
    """The reference: second by second, whether the clock ran."""
    times = [(r.action, int((dt.datetime.fromisoformat(r.at) - T0).total_seconds())) for r in rows]
    total = 0
    for second in range(end):
        state = False
        for action, moment in times:
            if moment <= second:
                state = action is START
        total += state
    return total


@given(steps, st.integers(0, 3000))
def test_decided_rows_alternate_start_and_stop(actions, _):
    rows: list[ClockRow] = []
    t = 0
    for action, gap in actions:
        t += gap
        added = decide_clock(rows, action, at=at(t), address="x", request=f"p{t}-{len(rows)}", mark=len(rows)).row
        if added is not None:
            rows.append(added)
    assert all(a.action is not b.action for a, b in zip(rows, rows[1:], strict=False))
    assert not rows or rows[0].action is START
