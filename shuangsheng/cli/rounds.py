"""The commands of the rounds and the end: `draw` (and `--check`, `--redo`), `score` (and `--verify`,
`--accept-rules`), `awards`, `bracket` and `rebuild` (a lost event.db built again). Each parses, calls the library,
prints."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from shuangsheng.cli.shared import FolderArg, JsonOpt, app, fail, hold, print_json
from shuangsheng.cli_help import WholeNumber, a_file
from shuangsheng.vocabulary.errors import UserError
from shuangsheng.vocabulary.text import command_line

if TYPE_CHECKING:  # imported inside the commands, for speed
    from shuangsheng.usecases.score_step import ScoreStep


@app.command()
def draw(
    folder: FolderArg = Path("."),
    seed: Annotated[
        int | None,
        # Stored as a number in round-N.xlsx: a spreadsheet keeps 15 digits, and the reader takes whole numbers ≥ 0.
        typer.Option("--seed", metavar="整数", parser=WholeNumber(0, 10**15 - 1), help="随机种子（不填则自动生成并打印）"),
    ] = None,
    lots: Annotated[
        Path | None, typer.Option("--lots", metavar="文件", help="按纸签抽签：组号→签号的表格（xlsx 或 csv）", parser=a_file)
    ] = None,
    force: Annotated[
        bool, typer.Option("--force", help="重新生成被改动过的对阵表和计分卡；不会重新抽签")
    ] = False,
    check: Annotated[
        int | None,
        typer.Option("--check", metavar="轮次", min=1, help="按记下的随机种子和抽签名单重抽第几轮，核对是否一致（不写任何文件）"),
    ] = None,
    redo: Annotated[
        int | None,
        typer.Option("--redo", metavar="轮次", min=2,
                     help="上一轮的成绩在这一轮抽签后改过：这一轮各桌不变，只换上应晋级的组（之后各轮作废，原文件另存备份）"),
    ] = None,
) -> None:
    """抽下一轮：写出 round-N.xlsx（对阵和每桌记分表）、对阵表和计分卡（PDF）；上次被中断的抽签按原对阵补全。"""
    from shuangsheng.render.report import check_text, draw_text, next_after_draw
    from shuangsheng.usecases.draw import check_draw, draw_next
    from shuangsheng.usecases.papers.draw import write_draw_papers
    from shuangsheng.usecases.redo import redo_draw

    if check is not None:
        try:
            checked = check_draw(folder, check)
        except UserError as exc:
            fail(exc.messages)
        typer.echo(check_text(checked))
        raise typer.Exit(code=0 if checked.agrees else 1)
    if redo is not None and (seed is not None or lots is not None):
        fail("--redo 沿用这一轮原来的抽签，不能同时给 --seed 或 --lots")
    try:
        with hold(folder):
            if redo is not None:
                report = redo_draw(folder, redo, papers=lambda drawn: write_draw_papers(drawn, force=force))
            else:
                report = draw_next(folder, seed=seed, lots=lots, force=force,
                                   papers=lambda drawn: write_draw_papers(drawn, force=force))
    except UserError as exc:
        fail(exc.messages)
    typer.echo(draw_text(report, folder))
    for line in report.notes:
        typer.echo(line, err=True)
    if report.papers_problems:
        fail([*(f"对阵表/计分卡没有更新：{line}" for line in report.papers_problems),
              f"抽签已经记下；解决上面的问题后再运行 shuangsheng draw {folder}，会按同一抽签补全"])
    papers = report.papers  # the writer above always runs unless it stopped the draw
    for path in papers.paths if papers is not None else ():
        typer.echo(f"已生成 {path}")
    for line in papers.warnings if papers is not None else ():
        typer.echo(line, err=True)
    typer.echo(next_after_draw(report, folder))


@app.command()
def score(
    folder: FolderArg = Path("."),
    round_number: Annotated[int | None, typer.Option("--round", metavar="轮次", parser=WholeNumber(1), help="第几轮（默认最近一轮）")] = None,
    json_out: JsonOpt = False,
    force: Annotated[bool, typer.Option("--force", help="覆盖已被改动过的检查副本")] = False,
    verify: Annotated[
        Path | None,
        typer.Option("--verify", metavar="另一份.xlsx", parser=a_file,
                     help="双人录入核对：与另一个人独立录入的同一轮记分表逐格比较，列出每处不一致"),
    ] = None,
    accept_rules: Annotated[
        bool, typer.Option("--accept-rules", help="计分规则在计分后改过：按新规则重新计算已计分的轮次（记入日志）")
    ] = False,
) -> None:
    """读取填好的记分表，逐局计算级数，判定胜负、加赛和晋级；另存检查副本、本轮成绩和加赛单（PDF），不改动原文件。"""
    with hold(folder, json_out=json_out):
        _score(folder, round_number, json_out=json_out, force=force, verify=verify, accept_rules=accept_rules)


def _score(folder: Path, round_number: int | None, *, json_out: bool, force: bool, verify: Path | None,
           accept_rules: bool) -> None:
    from shuangsheng.render.report import empty_round_text
    from shuangsheng.usecases.papers.score import write_score_papers
    from shuangsheng.usecases.score_step import score_and_write, score_step_json

    try:
        step = score_and_write(folder, round_number, verify=verify, force=force, accept_rules=accept_rules,
                               write_papers=lambda report: write_score_papers(report, force=force))
    except UserError as exc:
        fail(exc.messages, as_json=exc.as_json() if json_out else None)
    if json_out:
        print_json(score_step_json(step, folder))
    elif step.empty:
        typer.echo(empty_round_text(step.report.score, folder))
        for line in step.report.notes:
            typer.echo(line, err=True)
    else:
        _score_lines(step, folder, verify)
    for line in step.warnings:
        typer.echo(line, err=True)
    if step.failed:
        raise typer.Exit(code=1)


def _score_lines(step: ScoreStep, folder: Path, verify: Path | None) -> None:
    """What `score` prints of a round scored."""
    from shuangsheng.render.report import edited_checked_copy, score_text, verification_text

    report = step.report
    typer.echo(score_text(report.score, report.teams, report.digits))
    if report.verification is not None:
        typer.echo(verification_text(report.verification, step.book, folder, other_path=verify,
                                     round_number=report.score.round.number))
    for item in step.not_written:
        typer.echo("\n".join(item.lines()), err=True)
    if step.checked_edited:
        typer.echo(edited_checked_copy(report.checked, step.book, folder), err=True)
    for line in report.notes:
        typer.echo(line, err=True)
    if step.checked is not None:
        typer.echo(f"检查副本（逐局级数与说明，错误处已标出）：{step.checked}")
    for path in step.papers:
        typer.echo(f"已生成 {path}")
    typer.echo(_score_next(step, folder))


def _score_next(step: ScoreStep, folder: Path) -> str:
    """The 下一步 line of `score`: for an earlier round than the latest, from where the event stands now."""
    from shuangsheng.render.report import next_after_score
    from shuangsheng.storage.names import rounds_drawn
    from shuangsheng.usecases.progress import progress

    number = step.report.score.round.number
    if step.report.redo is not None:  # a correction after the next draw: the one way forward
        return f"下一步：运行 {command_line('draw', folder)} --redo {step.report.redo}"
    later = progress(folder, known=(step.report.score.sheet,)) if rounds_drawn(folder) > number else None
    return next_after_score(step.next_step, step.book, folder, number=number, later=later)


@app.command()
def awards(
    folder: FolderArg = Path("."),
    json_out: JsonOpt = False,
    per_player: Annotated[bool, typer.Option("--per-player", help="荣誉证书每位队员一张（默认每组一张）")] = False,
    force: Annotated[bool, typer.Option("--force", help="覆盖被改动过的成绩公告、荣誉证书和晋级图")] = False,
) -> None:
    """最终名次：一等奖、二等奖、三等奖；比赛结束后另有成绩公告、荣誉证书、成绩册和晋级图 PDF。"""
    from shuangsheng.knockout.placings import placings_as_json
    from shuangsheng.render.report import next_after_awards, placings_text
    from shuangsheng.usecases.awards import bracket, rounds_results
    from shuangsheng.usecases.papers.ending import write_awards

    try:
        with hold(folder, json_out=json_out):
            chart, state = bracket(folder)
            written = None
            if chart.placings.complete:
                written = write_awards(folder, chart, state.event, day=state.event.print.award_date,
                                       per_player=per_player, replaced=state.replaced,
                                       rounds=rounds_results(state), force=force)
    except UserError as exc:
        fail(exc.messages, as_json=exc.as_json() if json_out else None)
    if json_out:
        print_json(placings_as_json(chart.placings))
    else:
        typer.echo(placings_text(chart.placings, state.team_map, state.digits))
    for line in state.notes:
        typer.echo(line, err=True)
    for path in written.paths if written else ():
        typer.echo(f"已生成 {path}", err=json_out)
    for line in written.warnings if written else ():
        typer.echo(line, err=True)
    for line in written.notes if written else ():
        typer.echo(line, err=json_out)
    if not json_out:
        typer.echo(next_after_awards(chart.placings.complete, folder))


@app.command()
def bracket(
    folder: FolderArg = Path("."),
    force: Annotated[bool, typer.Option("--force", help="覆盖被改动过的晋级图")] = False,
) -> None:
    """晋级图：到目前为止的每一轮、每场比赛和名次，A3 纸的 PDF，组数多时分几张拼接。"""
    from shuangsheng.render.report import next_after_bracket
    from shuangsheng.usecases.awards import bracket as run
    from shuangsheng.usecases.papers.ending import write_bracket

    try:
        with hold(folder):
            chart, state = run(folder)
            written = write_bracket(folder, chart, state.event, force=force)
    except UserError as exc:
        fail(exc.messages)
    for line in state.notes:
        typer.echo(line, err=True)
    for path in written.paths:
        typer.echo(f"已生成 {path}（{written.note}）")
    for line in written.warnings:
        typer.echo(line, err=True)
    typer.echo(next_after_bracket(chart.placings.complete, folder))


@app.command()
def rebuild(folder: FolderArg = Path(".")) -> None:
    """比赛记录 event.db 丢失、清空或损坏后（已经抽过签）：按文件夹里的文件重建，换新的录分码，重新生成当前一轮的计分卡。"""
    from shuangsheng.storage.event import missing_folder
    from shuangsheng.storage.ledger.lock import exclusive
    from shuangsheng.usecases.papers.draw import write_draw_papers
    from shuangsheng.usecases.papers.qr_sheet import reprint_qr_sheet
    from shuangsheng.usecases.rebuild import rebuild as run
    from shuangsheng.usecases.rebuild import rebuilt_lines

    if (missing := missing_folder(folder)) is not None:
        fail(missing)
    try:
        with exclusive(folder):  # held, but not prepared: preparing is what refuses a lost ledger
            # the papers replaced whatever they are: the codes printed on them are dead
            done = run(folder, papers=lambda drawn: write_draw_papers(drawn, force=True), sheet=reprint_qr_sheet)
    except UserError as exc:
        fail(exc.messages)
    if done.papers_problems:  # rebuilt, but the cards with the new codes not printed: `rebuild` again completes it
        fail(rebuilt_lines(done))
    for line in rebuilt_lines(done):
        typer.echo(line)
    for line in getattr(done.papers, "warnings", ()):
        typer.echo(line, err=True)
