"""Printed materials (PDF). Imports reportlab: the CLI imports these modules only inside the commands that print.

- `page`: A4 geometry, large-print sizes, Chinese line breaking, a canvas with our font (no platypus);
- `fonts`, `ttf`: finding, reading and embedding a Chinese TrueType font, per-character fallback;
- `wording`: the jinja2 templates organisers may edit, rendered to marked-up lines;
- `flow`: those lines, and the tables a document adds, laid out on A4 and drawn on a canvas (no platypus);
- `documents`, `results`, `ending`: the materials, what `score` prints, the awards and the bracket chart;
- `paper`, `style`: the score cards and playoff slips, laid out with platypus tables.
"""
