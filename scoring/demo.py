"""A whole sample event, simulated: the seed notice, N teams, every round drawn, filled and scored, the placings.

The printed materials are added by the CLI (`materials/`), so this module stays free of reportlab.
"""

from __future__ import annotations

import random
import shutil
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from scoring import event as event_file
from scoring import files, knockout, tournament, workbook
from scoring.errors import UserError
from scoring.knockout import Placings
from scoring.score_step import Written
from scoring.simulate import simulate_match
from scoring.teams import Team

MARKER = ".shuangsheng-demo"
SURNAMES = "王李张刘陈杨黄赵吴周徐孙马朱胡郭何林罗高郑梁谢宋唐许韩冯邓曹彭曾萧田董潘袁蔡蒋余于杜叶程魏苏吕丁任沈姚卢"
GIVEN = (
    "建国", "秀英", "桂兰", "志明", "玉珍", "德华", "淑芬", "国庆", "文静", "振华", "丽华", "永福", "素梅", "家豪",
    "春生", "美玲", "海涛", "凤英", "宝山", "兰芳", "子堃", "玥", "喆", "立新", "惠敏", "长青", "翠萍", "荣", "明",
)


class DemoError(UserError, ValueError):
    pass


@dataclass(frozen=True)
class RoundFiles:
    """What the demo wrote for one round: its workbook, the checked copy and the round's papers in print order."""

    number: int
    seed: int | None
    workbook: Path
    checked: Path
    papers: tuple[Path, ...]


@dataclass(frozen=True)
class DemoReport:
    folder: Path
    settings_path: Path  # event.toml
    teams_path: Path  # teams.xlsx
    event: event_file.Event
    teams: tuple[Team, ...]
    rounds: tuple[tournament.RoundScore, ...]
    files: tuple[RoundFiles, ...]  # round by round
    warnings: tuple[str, ...]  # the papers' (each once)
    placings: Placings
    state: tournament.EventFolder  # the folder as read round by round, for what the caller builds next


def make_teams(rng: random.Random, count: int) -> tuple[Team, ...]:
    names: list[str] = []
    seen: set[str] = set()
    while len(names) < 2 * count:
        name = rng.choice(SURNAMES) + rng.choice(GIVEN)
        if name not in seen:
            seen.add(name)
            names.append(name)
    return tuple(
        Team(f"{i + 1:02d}", (names[2 * i], names[2 * i + 1])) for i in range(count)  # no made-up phone numbers
    )


def prepare_folder(folder: Path, *, force: bool) -> None:
    """An empty folder, or one a previous demo made (it is cleared); anything else only with force."""
    if folder.exists() and any(folder.iterdir()):
        if (folder / MARKER).exists() or force:
            for child in folder.iterdir():
                if child.is_dir():
                    shutil.rmtree(child)
                else:
                    child.unlink()
        elif (folder / event_file.EVENT_FILE).exists():  # somebody's real event: --force is not offered at all
            raise DemoError(f"{folder} 是一个真实的活动文件夹（有 event.toml），示例不能放在这里；"
                            "请用 --out 另选一个空文件夹，例如 shuangsheng demo --out 示例")
        else:
            raise DemoError(f"{folder}：文件夹不是空的，也不是示例活动；请用 --out 另选一个空文件夹"
                            "（加 --force 会删除这个文件夹里的所有文件，只在确定不要它们时才用）")
    folder.mkdir(parents=True, exist_ok=True)
    files.write_text(folder / MARKER, "shuangsheng demo\n", force=True)


def _note(written: Written | None, papers: dict[Path, None], warnings: dict[str, None]) -> None:
    papers.update(dict.fromkeys(written.paths if written else ()))
    warnings.update(dict.fromkeys(written.warnings if written else ()))


def run_demo(
    folder: Path,
    *,
    teams: int = 11,
    seed: int = 2026,
    force: bool = False,
    after_draw: Callable[[tournament.DrawReport], Written] | None = None,
    after_score: Callable[[tournament.ScoreReport], Written] | None = None,
) -> DemoReport:
    """The whole event, round by round as on the day: draw, play, score. `after_draw` and `after_score` are
    called where the CLI's `draw` and `score` would print (the papers of each round; what they write is recorded
    in `files`). A match tied when time is up is scored once with its regular hands (when its playoff slip is
    printed) and again after its 加赛 hands."""
    if not knockout.MIN_TEAMS <= teams <= knockout.MAX_TEAMS:
        raise DemoError(f"参赛组数应为 {knockout.MIN_TEAMS}–{knockout.MAX_TEAMS}，实际为 {teams}")
    rng = random.Random(seed)
    prepare_folder(folder, force=force)
    settings_path = files.write_text(folder / event_file.EVENT_FILE, event_file.default_text())
    event = event_file.load(folder)
    team_list = make_teams(rng, teams)
    teams_path = folder / tournament.TEAMS_FILE
    workbook.write_teams(teams_path, team_list)
    scores: list[tournament.RoundScore] = []
    written: list[RoundFiles] = []
    warnings: dict[str, None] = {}
    state = tournament.open_folder(folder)  # once; each round is read once, right after it is filled
    while not (scores and knockout.is_final(scores[-1].round)):
        drawn = tournament.draw_in(state, seed=rng.randrange(10**6, 10**9))
        papers: dict[Path, None] = {}  # in the order they were printed, each once
        if after_draw is not None:
            _note(after_draw(drawn), papers, warnings)
        records = {
            p.table: simulate_match(rng, rules=event.rules)[0] for p in drawn.round.pairings
        }
        at_time = {t: replace(r, hands=tuple(h for h in r.hands if not h.playoff)) for t, r in records.items()}
        if after_score is not None and at_time != records:  # some table was tied when time was up
            workbook.fill_round(drawn.path, at_time)
            tied = state.with_round(workbook.read_round(drawn.path))
            _note(after_score(tournament.score_in(tied, drawn.round.number)), papers, warnings)
        workbook.fill_round(drawn.path, records)
        state = state.with_round(workbook.read_round(drawn.path))
        report = tournament.score_in(state, drawn.round.number)
        scores.append(report.score)
        checked = tournament.write_checked_copy(report)
        if after_score is not None:
            _note(after_score(report), papers, warnings)
        written.append(RoundFiles(drawn.round.number, drawn.round.seed, drawn.path, checked, tuple(papers)))
    placings, _ = tournament.awards_in(state)
    return DemoReport(folder, settings_path, teams_path, event, team_list, tuple(scores), tuple(written),
                      tuple(warnings), placings, state)
