"""The venue display (`shuangsheng show`): the TV page rendered from `scoring.venue`, the read-only local web
server that keeps it up to date, and the self-contained HTML export. Standard library and jinja2 only."""
