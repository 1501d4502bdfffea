"""Printed materials (PDF) and the phone pictures (PNG), as bytes: nothing here writes a file (the use-cases do,
`shuangsheng/usecases/papers/`). Imports reportlab: the CLI imports these modules only inside the commands that
print.

- `page`: A4 geometry, large-print sizes, Chinese line breaking, a canvas with our font;
- `fonts`: finding, reading and embedding a Chinese TrueType font, per-character fallback;
- `wording`: the jinja2 templates organisers may edit, rendered and parsed by the one markup grammar into blocks
  (shuangsheng/render/templates/README.md); what `{{ }}` inserts stays data;
- `flow`: those blocks, the inserts and the tables a document adds, laid out on A4 and drawn on a canvas;
- one module per kind of document: `documents` (the six materials), `paper` (the score cards, the draw sheet, the
  playoff slip), `results` (what `score` prints), `bracket_chart` (晋级图), `announcement` (成绩公告),
  `certificates` (荣誉证书), `qr_sheet` (扫码单), `picture` (the phone pictures), and the booklets `programme`
  (秩序册) and `results_book` (成绩册) on `booklet` (cover, 目录, running heads); `conventions`: what they share.

Everything is laid out by `flow` and drawn straight on reportlab's canvas: no layout engine is imported, so
`score`, which prints after every round, stays quick.
"""
