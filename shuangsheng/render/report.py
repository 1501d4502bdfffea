"""Plain-text renderings for the terminal (the CLI prints these; PDFs live in `shuangsheng/render/materials/`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from shuangsheng.game.match import MatchResult, result_summary
from shuangsheng.knockout.checkin import (
    CheckinDecision,
    Field,
    Made,
    Phase,
    Press,
    Status,
    Verdict,
    phase_of,
    round_one_field,
)
from shuangsheng.knockout.knockout import Pairing, is_final
from shuangsheng.knockout.placings import Placings
from shuangsheng.knockout.teams import Team, in_order, team_label, team_name
from shuangsheng.render.results import NextStep
from shuangsheng.table.desk import DeskNext, NextAction
from shuangsheng.table.record import Source
from shuangsheng.table.status import TableStatus
from shuangsheng.vocabulary.errors import SHOWN_PROBLEMS
from shuangsheng.vocabulary.text import command_line, pad, width

if TYPE_CHECKING:  # only their types are needed here (the workbook's reads a spreadsheet library)
    from shuangsheng.render.reports import CheckinReport, DrawCheck, DrawReport, MatchScore, RoundScore
    from shuangsheng.render.results import Progress
    from shuangsheng.storage.workbook.verify import Verification


def table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """Columns aligned by display width; the last column is left ragged."""
    widths = [max(width(r[i]) for r in [header, *rows]) for i in range(len(header) - 1)]
    lines = []
    for row in [header, *rows]:
        cells = [pad(cell, widths[i]) for i, cell in enumerate(row[:-1])]
        lines.append("  ".join([*cells, row[-1]]).rstrip())
    return "\n".join(lines)


def replay_text(result: MatchResult) -> str:
    """The table `shuangsheng replay` prints: one row per hand with the levels after it and why."""
    rows = [
        [
            f"{o.hand}{'加' if o.playoff else ''}",
            o.dealer.cn,
            o.dealer_level.label,
            str(o.points),
            o.after.a.label,
            o.after.b.label,
            o.next_dealer.cn,
            o.explanation.split("：", 1)[1],
        ]
        for o in result.outcomes
    ]
    header = ["局", "庄家", "庄家级", "台下总分", "甲方", "乙方", "下局庄家", "说明"]
    start = f"起始级数：甲方 {result.start.a}，乙方 {result.start.b}"
    parts = [start, table(header, rows) if rows else "（没有记录任何一局）"]
    if result.errors:
        parts.append("错误：")
        parts.extend(f"  {e.message}" for e in result.errors)
    else:
        parts.append(f"结果：{result_summary(result)}")
    return "\n".join(parts)


def pairing_line(p: Pairing, teams: Mapping[str, Team], digits: int) -> str:
    """第1桌：甲方 第03组（…）  对  乙方 第08组（…）, each 组号 `digits` wide (the event's width)."""
    third = "（三四名决赛）" if p.third_place else ""
    return f"第{p.table}桌{third}：甲方 {team_label(teams, p.a, digits)}  对  乙方 {team_label(teams, p.b, digits)}"


def draw_text(report: DrawReport, folder: Path | None = None) -> str:
    """What `shuangsheng draw` prints: the file, the seed (or lots), every table and the bye, and the command
    that checks the draw."""
    r = report.round
    lines = [f"已按原抽签重新生成空白的 {path}" for path in report.restored]
    if report.redo is not None:
        lines += redo_lines(report)
    elif report.backup:
        lines.append(f"原第{r.number}轮已备份为 {report.backup}")
    if report.redo is not None:
        lines.append(f"{report.title}已按更正后的晋级组改好：{report.path}")
    elif report.resumed:
        lines.append(f"{report.title}的抽签上次没有完成（或要重新打印），已按原抽签补全：{report.path}（对阵不变）")
    else:
        lines.append(f"{report.title} 抽签完成：{report.path}")
    check = f"（复核：{command_line('draw', folder)} --check {r.number}）" if folder is not None else ""
    if r.seed is not None:
        how = "（自动生成，已记在对阵表中）" if report.seed_generated else ""
        lines.append(f"随机种子：{r.seed}{how}{check}")
    else:
        lines.append(f"按纸签抽签（签号已记在对阵表中）：{r.lot_plan.text}{check}")
    lots = dict(r.lots)
    for p in r.pairings:
        met = f"（签号{lots[p.a]}对{lots[p.b]}）" if p.a in lots and p.b in lots else ""
        lines.append(f"  {pairing_line(p, report.teams, report.digits)}{met}")
    for team in r.byes:
        lot = f"（签号{lots[team]}）" if team in lots else ""
        lines.append(f"  轮空：{team_label(report.teams, team, report.digits)}{lot}，直接进入下一轮")
    if report.apart:
        lines.append(f"{report.apart}。")
    if report.meetings:
        lines.append("纸签抽出的对阵中，以下各桌同单位或种子相遇（纸签不做调整，如要避开请重新抽纸签）：")
        lines += [f"  {m}" for m in report.meetings]
    lines += field_lines(report.field, report.teams, report.digits)
    if report.reserves:
        lines.append(f"候补组（不参加抽签）：{'、'.join(team_label(report.teams, t, report.digits) for t in report.reserves)}")
    if report.note:
        lines.append(report.note)
    return "\n".join(lines)


def field_lines(field: Field | None, teams: Mapping[str, Team], digits: int) -> list[str]:
    """Round 1 drawn after 报到: the pairs 弃权 (not checked in) and the reserves who took their places."""
    if field is None:
        return []
    lines = [f"报到后抽签：{len(field.pool)}组参加第1轮"]
    if field.absent:
        lines.append(f"弃权（未报到）：{'、'.join(team_label(teams, t, digits) for t in field.absent)}")
    if field.reserves_in:
        lines.append(f"候补补入：{'、'.join(team_label(teams, t, digits) for t in field.reserves_in)}")
    return lines


def checkin_text(report: CheckinReport) -> str:
    """`shuangsheng checkin`: what each press did, where check-in stands, and what comes next."""
    checkin, where, folder = report.checkin, report.where, report.folder
    lines = [_press_line(made, decision, where.digits) for made, decision in report.done]
    teams = {t.id: t for t in where.teams}
    digits = where.digits
    regular = [t for t in where.teams if not t.reserve]
    arrived = [t.id for t in where.teams if checkin.team(t.id).status is Status.ARRIVED]
    phase = phase_of(checkin, where.drawn)
    lines.append(f"报到：{PHASE_WORDS[phase]}；已报到 {sum(t.id in arrived for t in regular)}/{len(regular)} 组"
                 + (f"，候补到了 {sum(t.reserve and t.id in arrived for t in where.teams)} 组" if any(
                     t.reserve for t in where.teams) else ""))
    waiting = [t.id for t in regular if checkin.team(t.id).status is Status.WAITING]
    forfeit = [t.id for t in regular if checkin.team(t.id).status is Status.FORFEIT]
    if forfeit:
        lines.append(f"弃权：{'、'.join(team_label(teams, t, digits) for t in forfeit)}")
    if waiting and phase is Phase.OPEN:
        lines.append(f"还没有报到（{len(waiting)}组）：{'、'.join(team_label(teams, t, digits) for t in waiting)}")
        lines.append(f"{where.late.said(where.now)}以后，没有到的组可以判弃权：{command_line('checkin', folder)} --absent 组号")
    if phase is Phase.CLOSED:
        lines += field_lines(round_one_field(where.teams, checkin), teams, digits)
    lines.append(_checkin_next(phase, bool(waiting), folder))
    return "\n".join(lines)


PHASE_WORDS = {Phase.NOT_STARTED: "还没有开始（还没有一组报到；不用报到时第1轮照常按报名表抽签）", Phase.OPEN: "进行中",
               Phase.CLOSED: "已结束", Phase.DRAWN: "已结束（第1轮已经抽签）"}


def _press_line(made: Made, decision: CheckinDecision, digits: int) -> str:
    what = {Press.ARRIVE: "报到", Press.UNDO: "撤销报到", Press.FORFEIT: "判弃权", Press.CLOSE: "结束报到",
            Press.OPEN: "重新开始报到"}[made.press]
    who = f"{team_name(made.team, digits)} " if made.team else ""
    if decision.verdict is Verdict.CHANGED:
        return f"已记下：{who}{what}"
    if decision.verdict is Verdict.SAME:
        return f"不用改：{who}{what}（已经是这样）"
    return f"没有记下：{who}{what}——{decision.errors[0].message if decision.errors else ''}"


def _checkin_next(phase: Phase, waiting: bool, folder: Path) -> str:
    if phase is Phase.OPEN and waiting:
        return "下一步：等没到的组报到，或到时判弃权；都处理完后结束报到：" + command_line("checkin", folder) + " --close"
    if phase is Phase.OPEN:
        return f"下一步：各组都已报到，结束报到：{command_line('checkin', folder)} --close，然后抽第1轮：{command_line('draw', folder)}"
    if phase is Phase.CLOSED:
        return f"下一步：抽第1轮：{command_line('draw', folder)}"
    if phase is Phase.NOT_STARTED:
        return f"下一步：各组到场时报到：{command_line('checkin', folder)} --arrived 组号（多个组号用逗号隔开）"
    return "第1轮已经抽签，报到已经结束"


def redo_lines(report: DrawReport) -> list[str]:
    """What `draw --redo N` changed: the tables whose team was replaced, the rounds voided, the backups."""
    redo = report.redo
    assert redo is not None
    lines = [f"第{redo.number}轮各桌不变，换上应晋级的组："]
    for table, out, into in redo.replaced:
        lines.append(f"  第{table}桌：{team_label(report.teams, out, report.digits)} 换为 "
                     f"{team_label(report.teams, into, report.digits)}"
                     "（这一桌已录入的各局作废，请按新的计分卡重新比赛、录入）")
    kept = len(report.round.pairings) - len({t for t, _, _ in redo.replaced})
    lines.append(f"  其余{kept}桌已录入的各局保留不变")
    if redo.voided:
        lines.append(f"第{'、'.join(str(n) for n in redo.voided)}轮的抽签已作废，记分表已另存备份并移走；第{redo.number}轮决出后再抽下一轮")
    lines += [f"原记分表已备份为 {path}" for path in redo.backups]
    lines += [sheet.line() for sheet in redo.sheets]
    return lines


def check_text(check: DrawCheck) -> str:
    """What `shuangsheng draw --check N` prints."""
    how = f"随机种子 {check.seed} " if check.seed is not None else "纸签签号"
    head = f"第{check.number}轮抽签复核：按 {check.source} 记下的{how}和抽签名单（{len(check.pool)}组）重抽"
    if check.agrees:
        return f"{head}，对阵与记录一致。" + (f"（{check.apart}）" if check.apart else "")
    return "\n".join([f"{head}，结果不一致：", *(f"  {d}" for d in check.differences),
                      "请核对对阵表；round-N.xlsx 可能被改动过或换成了别的文件"])


def empty_round_text(score: RoundScore, folder: Path) -> str:
    """What `score` prints for a round with nothing entered at any table: nothing was written."""
    n = score.round.number
    return (f"第{n}轮还没有录入任何一桌（{score.sheet.path.name} 里没有一局，扫码录分也还没有），这次什么也没有写。"
            f"\n下一步：各桌的成绩录入记分表（或扫码录分）后，再运行 {command_line('score', folder)}")


def score_text(score: RoundScore, teams: Mapping[str, Team], digits: int) -> str:
    """What `shuangsheng score` prints: per table the teams, levels and result; the errors; the byes and who goes on,
    in number order (each 组号 `digits` wide, the event's width)."""
    r = score.round
    lines = [f"第{r.number}轮 计分结果"]
    for m in score.matches:
        lines.append(pairing_line(m.match.pairing, teams, digits))
        lines.extend(f"    {line}" for line in _match_lines(m, teams, digits, final=is_final(r), number=r.number))
    if r.byes:
        lines.append("轮空（直接晋级）：" + "、".join(team_label(teams, t, digits) for t in in_order(r.byes)))
    adv = score.advancement
    if adv.decided and is_final(r):  # the final has a winner and a runner-up, nobody goes on
        lines.extend(_final_lines(score, teams, digits))
    elif adv.decided:
        lines.append("晋级：" + "、".join(team_label(teams, t, digits) for t in in_order(adv.advancing)))
    else:
        lines.append("还不能抽下一轮：")
        lines.extend(f"  {b.message}" for b in adv.blockers)
    return "\n".join(lines)


def _match_lines(m: MatchScore, teams: Mapping[str, Team], digits: int, *, final: bool = False,
                 number: int = 0) -> list[str]:
    """How one table stands, under its pairing line in `score_text` (in the final nobody goes on: 获胜), and the
    desk's ruling when the signed card overrules the phone (`number`: the round, for the advice)."""
    return [*_outcome_lines(m, teams, digits, final=final, number=number), *_paper_rules_lines(m)]


def _outcome_lines(m: MatchScore, teams: Mapping[str, Team], digits: int, *, final: bool, number: int) -> list[str]:
    status, outcome = m.outcome.status, m.outcome
    if status is TableStatus.WALKOVER:
        return [f"{outcome.reason}，{team_label(teams, outcome.winner, digits)}{'获胜' if final else '晋级'}"]
    if status is TableStatus.OPEN:
        return [outcome.reason or "尚未录入"]  # a phone table still playing says so, with its levels
    if status is TableStatus.INVALID:
        shown = m.problems[:SHOWN_PROBLEMS]
        more = [f"  还有 {len(m.problems) - len(shown)} 处，检查副本里都已标出"] if len(m.problems) > len(shown) else []
        advice = [f"  {paper_rules_advice(number, m.record.table)}"] if m.record.source is Source.BOTH else []
        return [f"记录有误（{len(m.problems)}处），请改正：", *(f"  {p}" for p in shown), *more, *advice]
    assert m.result is not None
    if m.note:  # a lost card's match: its 终局 levels, no hand to count
        return [f"终局录入，{m.note}：" + result_summary(m.result), f"胜者：{team_label(teams, outcome.winner, digits)}"]
    lines = [f"共{len(m.result.outcomes)}局，" + result_summary(m.result)]
    if status is TableStatus.NEEDS_PLAYOFF:
        return [*lines, "需加赛：" + outcome.reason]
    return [*lines, f"胜者：{team_label(teams, outcome.winner, digits)}"]


def paper_rules_advice(number: int, table: int) -> str:
    """What to do when the sheet and the phone disagree and the signed card is right: the desk's 以纸质为准."""
    return (f"如果双方签字的计分卡是对的（手机录错了）：在控制台的“更正”页（本轮的一桌也可以在裁判台上）对第{number}轮"
            f"第{table}桌按“以纸质为准”并写明原因，记分表就是这一桌的成绩，手机录入的各局保留但不再计入"
            "（docs/table-api.md 的 paper_rules）；然后再运行 score")


def _paper_rules_lines(m: MatchScore) -> list[str]:
    ruling = m.record.paper_rules
    if ruling is None:
        return []
    return [f"以纸质计分卡为准（裁判台 {ruling.time[11:16]}：{ruling.reason}）；扫码录分的{ruling.phone_hands}局保留在 "
            "event.db 里，不计入成绩"]


def _final_lines(score: RoundScore, teams: Mapping[str, Team], digits: int) -> list[str]:
    lines = []
    for m in score.matches:
        p, won = m.match.pairing, m.outcome.winner
        lost = p.b if won == p.a else p.a
        if p.third_place:
            lines.append(f"三、四名决赛：{team_label(teams, won, digits)}获三等奖")
        else:
            lines.append(f"决赛结果：冠军（一等奖）{team_label(teams, won, digits)}，"
                         f"亚军（二等奖）{team_label(teams, lost, digits)}")
    return lines


def placings_text(placings: Placings, teams: Mapping[str, Team], digits: int) -> str:
    lines = []
    if placings.complete:
        lines.append("比赛结束，获奖名单：")
    else:
        lines.append("比赛尚未结束，目前已确定的名次：")
    lines.append(f"  一等奖：{team_label(teams, placings.first, digits)}")
    lines.append(f"  二等奖：{team_label(teams, placings.second, digits)}")
    thirds = "、".join(team_label(teams, t, digits) for t in in_order(placings.third))
    if not thirds:  # over with no 三等奖: a 2-team field has no semi-final (the notes say so)
        thirds = "不设（只有决赛，没有半决赛负者）" if placings.complete else "（待定）"
    lines.append(f"  三等奖：{thirds}")
    if placings.missing:
        lines.append("尚未完成：")
        lines.extend(f"  {m}" for m in placings.missing)
    if placings.notes:
        lines.append("说明：")
        lines.extend(f"  {n}" for n in placings.notes)
    return "\n".join(lines)


# --- what comes next: the line each step of the day ends with ---


def next_after_init(folder: Path) -> str:
    return f"下一步：核对 event.toml，在 teams.xlsx 填写各组，然后运行 {command_line('materials', folder)} 打印通知、规则、报名表和签条"


def next_after_materials(folder: Path, teams: int = 0, *, progress: Progress | None = None,
                         team_errors: bool = False) -> str:
    """`teams`: how many teams the list holds so far (0: none yet, or it cannot be read); `team_errors`: the list
    has errors to fix; `progress`: where the event stands (materials may be printed again on the day)."""
    if progress is not None and progress.drawn:
        return "下一步：" + event_next(progress, folder)
    if team_errors:
        return (f"下一步：按上面指出的单元格改正 teams.xlsx，再运行 {command_line('materials', folder)}"
                "（报名表、抽签签条和签收表这次按空白打印）")
    draw = command_line("draw", folder)
    if teams:
        return (f"下一步：比赛负责人核对规则口径确认单并签字；报名截止后运行 {draw} 抽签"
                f"（报名表现有{teams}组；报名有变动时改好 teams.xlsx 再运行一次 materials）")
    return f"下一步：报名表 teams.xlsx 填好后，运行 {draw} 抽签"


def event_next(progress: Progress, folder: Path) -> str:
    """What the event needs now, from its latest round (without the 下一步 prefix)."""
    from shuangsheng.storage.names import round_file  # the folder's names, loaded only where a round is named

    book = round_file(progress.drawn)
    if progress.latest is None and progress.problem:
        return (f"第{progress.drawn}轮已经抽签，但现在读不了：{progress.problem.rstrip('。')}；"
                f"改好后运行 {command_line('score', folder)} 查看该轮")
    if progress.latest is None:
        return f"第{progress.drawn}轮已经抽签：运行 {command_line('score', folder)} 查看该轮（{book}）"
    if progress.over:
        return f"比赛已经结束：运行 {command_line('awards', folder)} 查看最终名次，打印成绩公告和荣誉证书"
    if progress.latest is NextStep.DRAW:
        return f"第{progress.drawn}轮已经计分完毕：{_step_text(NextStep.DRAW, book, folder)}"
    return f"第{progress.drawn}轮已经抽签：{_step_text(progress.latest, book, folder)}"


CARDS_DOUBLE_SIDED = "计分卡双面打印（每桌一张纸，正面记分，背面是得分表和填法）"


def next_after_draw(report: DrawReport, folder: Path) -> str:
    book = report.path.name
    return (f"下一步：打印对阵表和计分卡，{CARDS_DOUBLE_SIDED}；比赛结束后，把各桌的每一局填入 {book}，"
            f"然后运行 {command_line('score', folder)}")


def next_after_score(step: NextStep, book: str, folder: Path, *, number: int | None = None,
                     later: Progress | None = None) -> str:
    """The round `number` (in `book`) needs `step`; `later`: where the event stands, when rounds after it are drawn
    already (then the step is said for that round: `score --round N`, or what the latest round needs)."""
    behind = later is not None and number is not None and later.drawn > number
    if behind and step is NextStep.DRAW:
        assert later is not None
        return f"下一步：第{number}轮的结果已定；{event_next(later, folder)}"
    return f"下一步：{_step_text(step, book, folder, number=number if behind else None)}"


def _step_text(step: NextStep, book: str, folder: Path, *, number: int | None = None) -> str:
    """`number`: an earlier round than the latest, so the command names it."""
    again = command_line("score", folder) + (f" --round {number}" if number else "")
    return {
        NextStep.ENTER: f"把还没有录入的桌填入 {book}，再运行 {again}",
        NextStep.FIX: f"按上面指出的单元格改正 {book}，再运行 {again}",
        NextStep.PLAYOFF: f"需加赛的桌按加赛单打加赛局，记完后把这些局填入 {book} 该桌的“加1、加2……”行，再运行 {again}",
        NextStep.DRAW: f"运行 {command_line('draw', folder)} 抽下一轮",
        NextStep.AWARDS: f"决赛已经结束：运行 {command_line('awards', folder)} 查看最终名次",
    }[step]


def desk_next_text(step: DeskNext, folder: Path) -> str:
    """The desk's `next` (`GET /api/desk`) for the terminal: the commands that do it."""
    score = command_line("score", folder, "--round", step.round)
    draw = f"运行 {command_line('draw', folder)} 抽下一轮"
    awards = f"运行 {command_line('awards', folder)} 查看最终名次"
    if step.action is NextAction.SCORE:
        after = awards if step.then is NextAction.AWARDS else draw
        return f"第{step.round}轮各桌结果都已确认：运行 {score} 计分（扫码录分的各局写入检查副本），然后{after}"
    if step.action is NextAction.DRAW:
        return f"第{step.round}轮已经计分：{draw}"
    return f"决赛（第{step.round}轮）已经计分：{awards}，打印成绩公告和荣誉证书"


def edited_checked_copy(checked: Path, book: str, folder: Path) -> str:
    """`score` keeps a checked copy somebody edited: say plainly that the edit counts for nothing."""
    return (
        f"注意：{checked.name} 在上次生成后被人改动过，这次没有覆盖它；检查副本里的改动不会被计分采用。"
        f"要改正比赛记录，请改 {book}，再运行 {command_line('score', folder)}"
        f"（想用新生成的检查副本替换改动过的，加 --force）"
    )


def next_after_bracket(complete: bool, folder: Path) -> str:
    if complete:
        return f"下一步：用 A3 纸打印晋级图；运行 {command_line('awards', folder)} 打印成绩公告和荣誉证书"
    return f"下一步：用 A3 纸打印晋级图贴在墙上；每轮 score 之后再运行 {command_line('bracket', folder)} 更新"


def next_after_awards(complete: bool, folder: Path) -> str:
    if complete:
        return "下一步：打印成绩公告张贴；荣誉证书（A4 横向）盖章后颁发；晋级图用 A3 纸打印"
    return f"下一步：比赛结束后再运行 {command_line('awards', folder)}，即可打印成绩公告和荣誉证书"


def next_after_demo(out: Path) -> str:
    return f"下一步：打开 {out} 文件夹看看这些文件；自己办比赛，从 shuangsheng init 活动文件夹 开始（例如 shuangsheng init 比赛）"


def verification_text(verification: Verification, book: str, folder: Path, *, other_path: Path | None = None,
                      round_number: int | None = None) -> str:
    """What `score --verify` says: the two entries agree, or every cell where they do not. The command to run
    again names the second file as it was typed (`other_path`) and the round, so it works from anywhere."""
    other = verification.other
    if verification.agree:
        return f"双人录入核对：{book} 与 {other} 逐格一致"
    lines = [f"双人录入核对：{book} 与 {other} 有 {len(verification.differences)} 处不一致"
             f"（斜线前为 {book}，后为 {other}）："]
    lines.extend(f"  {d}" for d in verification.differences)
    where = str(other_path) if other_path is not None else other
    again = command_line("score", folder, *(("--round", round_number) if round_number else ()), "--verify", where)
    lines.append(f"请对照纸质记分卡，改正录错的那一份，再运行 {again}")
    return "\n".join(lines)
