"""The Windows Start-menu entry's launcher (shuangsheng/cli/launch.py): `start` on the events root in Documents (the
console; a second start is `start`'s own, tests/test_console.py)."""

from __future__ import annotations

from shuangsheng.cli import launch


class Recorder:
    def __init__(self, codes=None):  # type: ignore[no-untyped-def]
        self.ran: list[list[str]] = []
        self.opened: list[str] = []
        self.codes = codes or {}

    def run(self, argv) -> int:  # type: ignore[no-untyped-def]
        self.ran.append(list(argv))
        return self.codes.get(argv[0], 0)

    def open(self, url: str) -> None:
        self.opened.append(url)


def test_the_events_root_is_in_documents():
    from shuangsheng.storage import home

    assert home.events_root().name == "双升级比赛"
    assert home.events_root().parent == home.documents()


def test_the_entry_starts_the_console_on_the_events_root(tmp_path):
    root = tmp_path / "Documents" / "双升级比赛"
    seen = Recorder()
    assert launch.launch(root, run=seen.run) == 0
    assert seen.ran == [["start", str(root)]]


def test_a_failed_start_gives_its_exit_code(tmp_path):
    seen = Recorder(codes={"start": 1})
    assert launch.launch(tmp_path, run=seen.run) == 1


def test_a_command_runs_in_this_process_and_gives_its_exit_code(capsys):
    assert launch.run_command(["demo", "--teams", "1"]) == 2  # a usage mistake: exit 2, said in Chinese
    assert "--teams 应为 2 到 512 之间的整数" in capsys.readouterr().err
