"""The organiser's desk page (裁判台, `/desk` of `shuangsheng serve`), rendered with jinja2 from
`templates/desk.html.j2`. The page is the same for every event: it asks for the desk PIN, reads `GET /api/desk`
every few seconds and posts the desk's actions (docs/table-api.md, desk section). Pure: no files but the template,
no network.
"""

from __future__ import annotations

from functools import cache

import jinja2

from templates import TEMPLATE_DIR

POLL_MS = 3000  # how often the desk asks for the round's state


@cache
def _template() -> jinja2.Template:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATE_DIR), encoding="utf-8"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
    )
    return env.get_template("desk.html.j2")


def desk_page() -> bytes:
    """The whole page (UTF-8)."""
    return _template().render(poll_ms=POLL_MS).encode("utf-8")
