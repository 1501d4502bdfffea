"""The event's workbooks: `teams.xlsx`, `round-N.xlsx`, its checked copy, and paper lots (docs/workbooks.md).

The only package that imports a spreadsheet library. Its modules, along their seams:

- `parsers` — lenient cell parsers (pure);
- `schema` — sheet names, labels, columns and fixed rows of every sheet (pure; also used by the printed score card);
- `problems` — `Problem` (the shared `shuangsheng.vocabulary.errors.Issue`, placed at a file, sheet and cell) and `WorkbookError`
  (pure);
- `guard` — checking a user's file before any parser sees it; `loading` — reading it into plain grids of values;
- `teams` — teams.xlsx; `teams_edit` — teams.xlsx as the console's table, a team added or corrected (openpyxl); `round_writer` / `round_reader` — round-N.xlsx; `checked` — the checked copy;
  `lots` — paper lots;
- `carry` — `draw --redo`: what was typed for the tables kept, carried into the corrected workbook;
- `style` — how every workbook the program writes looks and checks what is typed (XlsxWriter, opened so that no
  text becomes a formula or a link);
- `referee` — SIMULATION ONLY: typing hands in as a referee would, for the demo and the tests.

Readers are lenient about what people really type but never guess: anything else is a `Problem` naming the file,
``sheet!cell``, the value and what was expected, and all problems of a workbook are reported together.

The public functions are available here (`from shuangsheng.storage.workbook import read_round`); they are imported on first
use, so `import shuangsheng.storage.workbook.schema` loads no spreadsheet library. A type checker sees them through the
`if TYPE_CHECKING:` imports below, which tests/test_imports.py keeps in step with `_EXPORTS`.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # what the lazy __getattr__ below hands out, spelled out for a type checker (test_workbook_facade)
    from shuangsheng.storage.workbook.carry import carried as carried
    from shuangsheng.storage.workbook.checked import checked_bytes as checked_bytes
    from shuangsheng.storage.workbook.checked import checked_copy as checked_copy
    from shuangsheng.storage.workbook.checked import made_from as made_from
    from shuangsheng.storage.workbook.checked import match_problems as match_problems
    from shuangsheng.storage.workbook.checked import write_checked as write_checked
    from shuangsheng.storage.workbook.lots import read_lots as read_lots
    from shuangsheng.storage.workbook.parsers import parse_capture as parse_capture
    from shuangsheng.storage.workbook.parsers import parse_cards as parse_cards
    from shuangsheng.storage.workbook.parsers import parse_flag as parse_flag
    from shuangsheng.storage.workbook.parsers import parse_level as parse_level
    from shuangsheng.storage.workbook.parsers import parse_offense as parse_offense
    from shuangsheng.storage.workbook.parsers import parse_points as parse_points
    from shuangsheng.storage.workbook.parsers import parse_side as parse_side
    from shuangsheng.storage.workbook.parsers import parse_team_id as parse_team_id
    from shuangsheng.storage.workbook.parsers import parse_whole as parse_whole
    from shuangsheng.storage.workbook.problems import Problem as Problem
    from shuangsheng.storage.workbook.problems import WorkbookError as WorkbookError
    from shuangsheng.storage.workbook.referee import fill_round as fill_round
    from shuangsheng.storage.workbook.referee import typed_cells as typed_cells
    from shuangsheng.storage.workbook.round_reader import MatchSheet as MatchSheet
    from shuangsheng.storage.workbook.round_reader import RoundSheet as RoundSheet
    from shuangsheng.storage.workbook.round_reader import read_round as read_round
    from shuangsheng.storage.workbook.round_writer import write_round as write_round
    from shuangsheng.storage.workbook.schema import CHECK_SHEET as CHECK_SHEET
    from shuangsheng.storage.workbook.schema import HAND_COLUMNS as HAND_COLUMNS
    from shuangsheng.storage.workbook.schema import HAND_HEADER_ROW as HAND_HEADER_ROW
    from shuangsheng.storage.workbook.schema import HEADER as HEADER
    from shuangsheng.storage.workbook.schema import MATCHES_SHEET as MATCHES_SHEET
    from shuangsheng.storage.workbook.schema import PLAYOFF_ROWS as PLAYOFF_ROWS
    from shuangsheng.storage.workbook.schema import REGULAR_ROWS as REGULAR_ROWS
    from shuangsheng.storage.workbook.schema import TEAMS_SHEET as TEAMS_SHEET
    from shuangsheng.storage.workbook.schema import sheet_name as sheet_name
    from shuangsheng.storage.workbook.teams import holds_no_teams as holds_no_teams
    from shuangsheng.storage.workbook.teams import read_teams as read_teams
    from shuangsheng.storage.workbook.teams import write_teams as write_teams
    from shuangsheng.storage.workbook.teams import write_teams_template as write_teams_template

_EXPORTS = {
    "Problem": "problems",
    "WorkbookError": "problems",
    "write_teams": "teams",
    "write_teams_template": "teams",
    "read_teams": "teams",
    "holds_no_teams": "teams",
    "write_round": "round_writer",
    "read_round": "round_reader",
    "MatchSheet": "round_reader",
    "RoundSheet": "round_reader",
    "match_problems": "checked",
    "write_checked": "checked",
    "checked_bytes": "checked",
    "checked_copy": "checked",
    "made_from": "checked",
    "read_lots": "lots",
    "carried": "carry",
    "fill_round": "referee",
    "typed_cells": "referee",
    "parse_capture": "parsers",
    "parse_cards": "parsers",
    "parse_flag": "parsers",
    "parse_level": "parsers",
    "parse_offense": "parsers",
    "parse_points": "parsers",
    "parse_side": "parsers",
    "parse_team_id": "parsers",
    "parse_whole": "parsers",
    "HAND_COLUMNS": "schema",
    "HEADER": "schema",
    "HAND_HEADER_ROW": "schema",
    "REGULAR_ROWS": "schema",
    "PLAYOFF_ROWS": "schema",
    "MATCHES_SHEET": "schema",
    "TEAMS_SHEET": "schema",
    "CHECK_SHEET": "schema",
    "sheet_name": "schema",
}
__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> object:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS})

