"""The venue display's HTML, rendered with jinja2 from `shuangsheng/render/templates/show.html.j2` and `shuangsheng/render/templates/show_views.j2`.

`views_html` is the part that changes as the folder is scored (the live page swaps it in place); `page_html` is the
whole self-contained page around it. Renders a `shuangsheng.render.venue.Board`; decides nothing.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from functools import cache

import jinja2
from markupsafe import Markup

from shuangsheng.render.templates import TEMPLATE_DIR
from shuangsheng.render.venue import Board

PAGE_SECONDS = 12  # how long each page stays on screen when the views need more than one
POLL_MS = 1500  # how often the live page asks whether the folder changed (it must show a change within 5 s)


@cache
def html_env() -> jinja2.Environment:
    """The one jinja2 environment of the hall's pages (venue display, table page, desk): HTML autoescaped."""
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATE_DIR), encoding="utf-8"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=False,
    )


def views_html(board: Board | None, notices: Sequence[str] = ()) -> str:
    """The views (and any calm notices) as an HTML fragment; `board` None shows the notices only."""
    return html_env().get_template("show_views.j2").render(board=board, notices=tuple(notices))


def version_of(views: str) -> str:
    """A short tag that changes exactly when the views' markup does (the live page compares it)."""
    return hashlib.sha256(views.encode("utf-8")).hexdigest()[:16]


def page_html(title: str, views: str, *, live: bool) -> str:
    """The whole page: `live` polls board.json on the server that served it; an export does not."""
    return html_env().get_template("show.html.j2").render(
        title=title,
        views=Markup(views),
        version=version_of(views),
        live=live,
        page_seconds=PAGE_SECONDS,
        poll_ms=POLL_MS,
    )
