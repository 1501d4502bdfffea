"""One schema (issue 17, item 5): each hand column knows its label and its width in every renderer — the round
workbook, the checked copy and the printed score card take them from `shuangsheng.storage.workbook.schema`, and no other
table keyed by a column's label remains."""

from __future__ import annotations

import ast
from pathlib import Path

import openpyxl
import pytest

from shuangsheng.game.match import replay
from shuangsheng.render.materials import paper
from shuangsheng.storage.workbook import read_round, write_checked
from shuangsheng.storage.workbook.schema import HAND_COLUMNS, HAND_HEADER_ROW, HEADER
from shuangsheng.vocabulary.text import width as display_width
from tests.workbook_cases import filled_round

ROOT = Path(__file__).resolve().parents[1]


def test_no_table_keyed_by_hand_column_labels_remains_in_the_code():
    """A dict literal with two or more of the hand columns' labels as keys is a second table of them."""
    found = []
    for path in sorted(ROOT.glob("shuangsheng/**/*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Dict):
                keys = {k.value for k in node.keys if isinstance(k, ast.Constant)}
                if len(keys & set(HEADER)) >= 2:
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert found == []


@pytest.fixture(scope="module")
def books(tmp_path_factory) -> tuple[openpyxl.Workbook, openpyxl.Workbook]:
    folder = tmp_path_factory.mktemp("round")
    path = filled_round(folder)
    sheet = read_round(path)
    checked = write_checked(folder / "round-1-checked.xlsx", sheet, {m.table: replay(m.record) for m in sheet.matches})
    return openpyxl.load_workbook(path), openpyxl.load_workbook(checked)


def _widths(ws) -> dict[str, float]:  # type: ignore[no-untyped-def]
    """Each hand column's width as stored (a <col> element may cover several columns of one width)."""
    by_column = {col: d.width for d in ws.column_dimensions.values() for col in range(d.min, d.max + 1)}
    return {c.label: by_column[i] for i, c in enumerate(HAND_COLUMNS, start=1)}


def test_the_round_workbook_and_the_checked_copy_take_their_hand_column_widths_from_the_schema(books):
    round_book, checked = books
    for name in ("第1桌", "第2桌"):
        assert [c.value for c in round_book[name][HAND_HEADER_ROW]][: len(HEADER)] == list(HEADER)
        written = _widths(round_book[name])
        for c in HAND_COLUMNS[2:]:  # 局 and 庄家 (widened to the teams' ids) aside: each as the schema says
            expected = c.widths.workbook if c.widths.workbook is not None else display_width(c.label) + 4
            assert written[c.label] == pytest.approx(expected, abs=0.01), c.label
        assert written[HAND_COLUMNS[0].label] == pytest.approx(HAND_COLUMNS[0].widths.workbook, abs=0.01)
        copied = _widths(checked[name])
        assert copied == pytest.approx({c.label: c.widths.checked for c in HAND_COLUMNS}, abs=0.01)


def test_the_score_card_takes_its_hand_columns_from_the_schema():
    """One definition, two renderers: the card's columns are typed into the schema's, in its order (违规 as its
    four offences, each a box to tick), then both sides' level."""
    columns = paper.card_columns()
    sources = list(dict.fromkeys(c.source for c in columns if not c.tick))
    offences = [c.source for c in columns if c.tick]
    offense = next(c for c in HAND_COLUMNS if c.field == "offense")
    assert offences == list(offense.choices)
    assert sources == [label for label in HEADER if label != offense.label] + [paper.LEVELS_HEAD]
    first_tick = next(i for i, c in enumerate(columns) if c.tick)
    assert columns[first_tick - 1].source == HEADER[HEADER.index(offense.label) - 1]


