"""Printed materials (PDF). Imports reportlab: the CLI imports these modules only inside the commands that print.

- `page`: A4 geometry, large-print sizes, Chinese line breaking, a canvas with our font (no platypus);
- `fonts`, `ttf`: finding, reading and embedding a Chinese TrueType font, per-character fallback;
- `wording`: the jinja2 templates organisers may edit, rendered to marked-up lines;
- `flow`: those lines drawn straight on a canvas (the documents `score` prints, so it needs no platypus);
- `style`, `documents`: the same lines through platypus, for the documents with inserted tables and forms;
- `paper`, `results`, `ending`: the day's paper, the round results and playoff slips, the awards and the bracket.
"""
