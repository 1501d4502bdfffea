"""Printed materials (PDF). Imports reportlab: the CLI imports these modules only inside the commands that print.

- `page`: A4 geometry, large-print sizes, Chinese line breaking, a canvas with our font;
- `fonts`: finding, reading and embedding a Chinese TrueType font, per-character fallback;
- `wording`: the jinja2 templates organisers may edit, rendered and parsed by the one markup grammar into blocks
  (shuangsheng/render/templates/README.md); what `{{ }}` inserts stays data;
- `flow`: those blocks, the inserts and the tables a document adds, laid out on A4 and drawn on a canvas;
- `documents`, `results`, `paper`, `ending`: the materials, what `score` prints, the score cards and draw sheet,
  the awards and the bracket chart; `conventions`: what `paper` and `results` share.

Everything is laid out by `flow` and drawn straight on reportlab's canvas: no layout engine is imported, so
`score`, which prints after every round, stays quick.
"""
