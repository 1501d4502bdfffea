"""The organiser's desk page (裁判台, `/desk` of `shuangsheng serve`), rendered with jinja2 from
`shuangsheng/render/templates/desk.html.j2`. The page is the same for every event: it asks for the desk PIN, reads `GET /api/desk`
every few seconds and posts the desk's actions (docs/table-api.md, desk section). Pure: no files but the template,
no network.
"""

from __future__ import annotations

import jinja2

from shuangsheng.render.show_page import html_env

POLL_MS = 3000  # how often the desk asks for the round's state


def _template() -> jinja2.Template:
    return html_env().get_template("desk.html.j2")


def desk_page() -> bytes:
    """The whole page (UTF-8)."""
    return _template().render(poll_ms=POLL_MS).encode("utf-8")
