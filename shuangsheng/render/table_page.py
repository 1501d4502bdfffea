"""The table page for phones (扫码录分, `/t/<code>` of `shuangsheng serve`), rendered with jinja2 from
`shuangsheng/render/templates/table.html.j2`. The page is the same for every table but for its code: it reads the table from
`GET /api/t/<code>` and posts the hands to the table API (shuangsheng/table/entry.py decides every request). Pure: no files
but the template, no network.
"""

from __future__ import annotations

import jinja2

from shuangsheng.render.show_page import html_env
from shuangsheng.table.codes import format_code, parse_code


def _template() -> jinja2.Template:
    return html_env().get_template("table.html.j2")


def table_page(code: str) -> bytes:
    """The whole page (UTF-8) for the table with entry code `code` (as typed: any case, with or without the hyphen).
    ValueError when `code` is not a code at all; whether it names a table of the round is the API's answer."""
    parsed = parse_code(code)
    if parsed is None:
        raise ValueError(f"不是录分码：{code!r}")
    return _template().render(code=parsed, shown=format_code(parsed)).encode("utf-8")
