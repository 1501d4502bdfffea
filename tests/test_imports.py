"""No import cycle among the project's modules, counting every import statement wherever it stands: at the top,
inside a function (a deferred import only hides a cycle), or under `if TYPE_CHECKING:`. Read with `ast`, nothing
is imported."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("shuangsheng",)
SCRIPTS: tuple[str, ...] = ()


def project_modules() -> dict[str, Path]:
    """Dotted module name → file, for the product's code (the tests and the benchmark stand outside it)."""
    modules = {path.stem: ROOT / path for path in map(Path, SCRIPTS)}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return modules


def _imported(node: ast.Import | ast.ImportFrom, module: str, is_package: bool) -> list[str]:
    """The dotted names one import statement in `module` may bring in: a name from a package may be a module."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = node.module or ""
    if node.level:
        anchor = module.split(".") if is_package else module.split(".")[:-1]
        anchor = anchor[: len(anchor) - (node.level - 1)]
        base = ".".join([*anchor, base] if base else anchor)
    return [base, *(f"{base}.{alias.name}" for alias in node.names)]


def import_graph(modules: dict[str, Path]) -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Import | ast.ImportFrom):
                continue
            for target in _imported(node, name, path.name == "__init__.py"):
                while target and target not in modules:  # `import a.b.c` of a name inside a.b: the module a.b
                    target = target.rpartition(".")[0]
                if target and target != name:
                    graph[name].add(target)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected component of more than one module (Tarjan), each as a sorted list."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_project_has_no_import_cycle():
    modules = project_modules()
    assert {"shuangsheng.cli", "shuangsheng.knockout.knockout", "shuangsheng.render.materials.paper", "shuangsheng.storage.workbook.problems"} <= set(modules)
    assert cycles(import_graph(modules)) == []


def test_a_cycle_hidden_in_a_function_is_found(tmp_path):
    """The checker itself: two modules importing each other, one of them only inside a function."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("", encoding="utf-8")
    (tmp_path / "pkg" / "a.py").write_text("from pkg.b import thing\n", encoding="utf-8")
    (tmp_path / "pkg" / "b.py").write_text("def thing():\n    from . import a\n    return a\n", encoding="utf-8")
    (tmp_path / "pkg" / "c.py").write_text("import pkg.a\n", encoding="utf-8")
    modules = {name: tmp_path / "pkg" / f"{name.split('.')[-1]}.py" for name in ("pkg.a", "pkg.b", "pkg.c")}
    modules["pkg"] = tmp_path / "pkg" / "__init__.py"
    assert cycles(import_graph(modules)) == [["pkg.a", "pkg.b"]]


def test_the_workbook_facade_spells_out_every_lazy_export_for_a_type_checker():
    """`shuangsheng.storage.workbook` hands its names out lazily (`__getattr__`), which a type checker cannot follow;
    its `if TYPE_CHECKING:` block must import each of them, as `name as name`, from the module `__getattr__` loads."""
    import shuangsheng.storage.workbook as facade

    path = project_modules()["shuangsheng.storage.workbook"]
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    (block,) = [node for node in tree.body if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING"]
    typed = {}
    for node in block.body:
        assert isinstance(node, ast.ImportFrom)
        for alias in node.names:
            assert alias.asname == alias.name, f"{alias.name}: re-exported as `{alias.name} as {alias.name}`"
            typed[alias.name] = node.module
    lazy = {name: f"shuangsheng.storage.workbook.{module}" for name, module in facade._EXPORTS.items()}
    assert typed == lazy
