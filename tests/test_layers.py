"""The layers of `shuangsheng/` (README.md, Layout): every module sits in one layer, a layer imports only the
layers below it, each third-party library is imported in its own layer only, and `shuangsheng --help` loads no
heavy one. Every import statement counts wherever it stands (at the top, inside a function, under
`if TYPE_CHECKING:`), as in tests/test_imports.py; read with `ast`, nothing of the package is imported (but the
last test runs `python -m shuangsheng --help`).

What the code does against these rules today is listed in KNOWN_VIOLATIONS, one line each, so that the list can
only shrink: a new violation fails, and so does a listed one that is gone (delete its line)."""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "shuangsheng"

# Bottom to top: a module may import its own layer and the layers before it, never one after it. The package's
# root modules (`shuangsheng`, `shuangsheng.__main__`, `shuangsheng.cli_help`) and the package `shuangsheng.cli` are
# the command line, "cli"; every other module's layer is its folder under shuangsheng/.
LAYERS = ("vocabulary", "game", "table", "knockout", "render", "storage", "usecases", "hall", "cli")

# Each third-party library and the one layer that may import it (one missing here is a violation).
LIBRARIES = {
    "reportlab": "render",  # the PDFs, drawn on its canvas
    "pypdfium2": "render",  # the phone pictures, rendered from our own PDF
    "jinja2": "render",  # the wording templates and the HTML pages
    "markupsafe": "render",  # jinja2's Markup: the TV page's own HTML inserted as is
    "openpyxl": "storage",  # reading a workbook that holds formulas
    "xlsxwriter": "storage",  # writing every workbook
    "python_calamine": "storage",  # reading workbooks
    "defusedxml": "storage",  # XML of a user's workbook
    "filelock": "storage",  # the event folder's lock
    "tomlkit": "storage",  # event.toml written from the console's settings page, its comments kept
    "typer": "cli",  # the command line
}
# Never imported at module level (outside a function and `if TYPE_CHECKING:`) by a module that `shuangsheng --help`
# loads: each costs every command, --help included, its import time.
HEAVY = ("reportlab", "pypdfium2", "jinja2", "openpyxl", "xlsxwriter", "python_calamine", "tomlkit")

# (importing module, imported module or library): what breaks the rules today.
KNOWN_VIOLATIONS = {
    ("shuangsheng.game.hands", "shuangsheng.storage.files"),  # read_record reads a record file: the reading belongs in storage
    ("shuangsheng.knockout.bracket", "shuangsheng.storage.event"),  # Byes, ThirdPlace taken through event.py, which has them from knockout.formats
    ("shuangsheng.render.materials.announcement", "shuangsheng.storage.event"),  # the Event record lives with event.toml's reader
    ("shuangsheng.render.materials.booklet", "shuangsheng.storage.event"),  # the Event record lives with event.toml's reader
    ("shuangsheng.render.materials.bracket_chart", "shuangsheng.storage.event"),  # the Event record lives with event.toml's reader
    ("shuangsheng.render.materials.certificates", "shuangsheng.storage.event"),  # the Event record lives with event.toml's reader
    ("shuangsheng.render.materials.documents", "shuangsheng.storage.event"),  # the Event record lives with event.toml's reader
    ("shuangsheng.render.materials.draw_sheet", "shuangsheng.storage.event"),  # the Event record lives with event.toml's reader
    ("shuangsheng.render.materials.documents", "shuangsheng.storage.workbook.schema"),  # TEAMS_HEADER: the registration form prints teams.xlsx's columns
    ("shuangsheng.render.materials.flow", "shuangsheng.storage.event"),  # the Event record lives with event.toml's reader
    ("shuangsheng.render.materials.paper", "shuangsheng.storage.event"),  # the Event record lives with event.toml's reader
    ("shuangsheng.render.materials.paper", "shuangsheng.storage.workbook.schema"),  # HAND_COLUMNS and labels: the score card prints the workbook's hand columns
    ("shuangsheng.render.materials.picture", "shuangsheng.storage.event"),  # the Event record lives with event.toml's reader
    ("shuangsheng.render.materials.programme", "shuangsheng.storage.event"),  # the Event record lives with event.toml's reader
    ("shuangsheng.render.materials.qr_sheet", "shuangsheng.storage.event"),  # the Event record lives with event.toml's reader
    ("shuangsheng.render.materials.results", "shuangsheng.storage.event"),  # the Event record lives with event.toml's reader
    ("shuangsheng.render.materials.results_book", "shuangsheng.storage.event"),  # the Event record lives with event.toml's reader
    ("shuangsheng.render.materials.wording", "shuangsheng.storage.event"),  # the Event record lives with event.toml's reader
    ("shuangsheng.render.materials.wording", "shuangsheng.storage.files"),  # reads an event folder's own templates (read_bytes, decode_text)
    ("shuangsheng.render.report", "shuangsheng.storage.names"),  # round_file: the 下一步 line names the latest round's workbook
    ("shuangsheng.render.report", "shuangsheng.storage.workbook.verify"),  # Verification, double entry's result
    ("shuangsheng.render.reports", "shuangsheng.storage.event"),  # DrawReport, ScoreReport hold the Event record, which lives with event.toml's reader
    ("shuangsheng.render.reports", "shuangsheng.storage.qr_sheets"),  # Redo holds VoidedSheet, what became of a voided round's 扫码单
    ("shuangsheng.render.reports", "shuangsheng.storage.workbook"),  # MatchScore, RoundScore hold MatchSheet, RoundSheet, Problem: the sheet's records live with the workbook reader
    ("shuangsheng.render.reports", "shuangsheng.storage.workbook.verify"),  # ScoreReport holds Verification, double entry's result
    ("shuangsheng.render.results", "shuangsheng.storage.workbook.verify"),  # Verification, double entry's result
    ("shuangsheng.render.venue", "shuangsheng.storage.workbook.schema"),  # UNCHECKED, the 未逐局核对 mark
    ("shuangsheng.table.sources", "shuangsheng.storage.workbook.problems"),  # Cell, Problem: a difference is a workbook Problem
    ("shuangsheng.table.sources", "shuangsheng.storage.workbook.round_reader"),  # FinalCard, MatchSheet: the paper sheet's records live with the workbook reader
    ("shuangsheng.table.sources", "shuangsheng.storage.workbook.schema"),  # UNCHECKED, YES_MARK: the sheet's marks
}


def modules(package: Path = PACKAGE) -> dict[str, Path]:
    """Dotted module name → file, for every module of the package."""
    found = {}
    for path in sorted(package.rglob("*.py")):
        parts = path.relative_to(package.parent).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def layer_of(module: str) -> str | None:
    parts = module.split(".")
    if len(parts) == 1 or parts[1] in ("__main__", "cli", "cli_help"):
        return "cli"
    return parts[1] if parts[1] in LAYERS else None


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def imports(path: Path) -> Iterator[tuple[ast.Import | ast.ImportFrom, bool]]:
    """Every import statement of a module, and whether it runs when the module is imported (not inside a function,
    not under `if TYPE_CHECKING:`)."""

    def walk(node: ast.AST, top: bool) -> Iterator[tuple[ast.Import | ast.ImportFrom, bool]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Import | ast.ImportFrom):
                yield child, top
            elif isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                yield from walk(child, False)
            elif isinstance(child, ast.If) and _is_type_checking(child):
                for part in child.body:
                    yield from walk(ast.Module(body=[part], type_ignores=[]), False)
                for part in child.orelse:
                    yield from walk(ast.Module(body=[part], type_ignores=[]), top)
            else:
                yield from walk(child, top)

    yield from walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path)), True)


def targets(node: ast.Import | ast.ImportFrom, known: dict[str, Path]) -> list[str]:
    """What one import statement brings in: a module of the package (the most specific one named) or a
    third-party top-level name."""

    def ours(name: str) -> str:
        while name and name not in known:
            name = name.rpartition(".")[0]
        return name

    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        assert not node.level, "a relative import"
        base = node.module or ""
        names = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base for alias in node.names]
    return sorted({ours(name) or name.split(".")[0] for name in names})


def violations(known: dict[str, Path]) -> set[tuple[str, str]]:
    found = set()
    for module, path in known.items():
        mine = layer_of(module)
        assert mine is not None, module
        for node, _ in imports(path):
            for target in targets(node, known):
                if target in known:
                    theirs = layer_of(target)
                    assert theirs is not None, target
                    if LAYERS.index(theirs) > LAYERS.index(mine):
                        found.add((module, target))
                elif target in LIBRARIES:
                    if LIBRARIES[target] != mine:
                        found.add((module, target))
                elif target not in sys.stdlib_module_names:
                    found.add((module, target))  # a library with no layer yet: give it one in LIBRARIES
    return found


def help_path(known: dict[str, Path]) -> set[str]:
    """The modules `shuangsheng --help` and `python -m shuangsheng --help` load: the closure of the imports that
    run on import, from the command line's modules (with every package above each module)."""
    todo, seen = ["shuangsheng.cli", "shuangsheng.__main__"], set()
    while todo:
        module = todo.pop()
        if module in seen:
            continue
        seen.add(module)
        todo += [".".join(module.split(".")[:i]) for i in range(1, module.count(".") + 1)]
        for node, runs in imports(known[module]):
            if runs:
                todo += [t for t in targets(node, known) if t in known]
    return seen


def test_every_module_sits_in_a_layer_and_every_layer_says_what_it_holds():
    known = modules()
    assert {"shuangsheng.cli", "shuangsheng.__main__", "shuangsheng.knockout.knockout"} <= set(known)
    assert [m for m in known if layer_of(m) is None] == []
    for layer in LAYERS[:-1]:
        init = PACKAGE / layer / "__init__.py"
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8")))
        assert doc and "May import" in doc, layer


def test_no_layer_imports_one_above_it_or_a_library_of_another_layer():
    new = violations(modules()) - KNOWN_VIOLATIONS
    assert not new, "new layer violations (importer, imported):\n" + "\n".join(map(str, sorted(new)))


def test_every_known_violation_is_still_there():
    gone = KNOWN_VIOLATIONS - violations(modules())
    assert not gone, "fixed, delete from KNOWN_VIOLATIONS:\n" + "\n".join(map(str, sorted(gone)))


def test_help_loads_no_heavy_library_at_module_level():
    known = modules()
    path = help_path(known)
    assert {"shuangsheng.cli", "shuangsheng.cli_help", "shuangsheng.vocabulary.errors"} <= path
    heavy = sorted(f"{module}:{node.lineno}" for module in path for node, runs in imports(known[module])
                   if runs and any(t.split(".")[0] in HEAVY for t in targets(node, known)))
    assert heavy == []


def test_python_m_shuangsheng_help_loads_no_heavy_library():
    code = (
        "import runpy, sys\n"
        "sys.argv = ['shuangsheng', '--help']\n"
        "try:\n"
        "    runpy.run_module('shuangsheng', run_name='__main__', alter_sys=True)\n"
        "except SystemExit as done:\n"
        "    assert done.code in (0, None), done.code\n"
        f"print(sorted(m for m in sys.modules if m.split('.')[0] in {HEAVY!r}))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True,
                         encoding="utf-8")
    assert "shuangsheng" in out.stdout and out.stdout.strip().splitlines()[-1] == "[]"


def test_the_checker_finds_an_upward_import_and_a_library_out_of_its_layer(tmp_path):
    package = tmp_path / "shuangsheng"
    for layer in ("vocabulary", "render"):
        (package / layer).mkdir(parents=True)
        (package / layer / "__init__.py").write_text("", encoding="utf-8")
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "vocabulary" / "a.py").write_text("def f():\n    from shuangsheng.render import b\n", encoding="utf-8")
    (package / "render" / "b.py").write_text("import json\nimport openpyxl\nimport jinja2\nimport leftpad\n",
                                             encoding="utf-8")
    assert violations(modules(package)) == {("shuangsheng.vocabulary.a", "shuangsheng.render.b"),
                                            ("shuangsheng.render.b", "openpyxl"), ("shuangsheng.render.b", "leftpad")}
