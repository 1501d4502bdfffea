"""What people see, deciding nothing: the printed PDFs and the phone pictures (`materials`: fonts, the wording
markup, layout on reportlab's canvas, one module per kind of document), the HTML pages of the TV, the desk and
the phones (`show_page`, `desk_page`, `table_page`), terminal text (`report`), Chinese line breaking
(`linebreak`), the records the use-cases hand the renderers (`reports`), a round's results and the TV's board as
data (`results`, `venue`), and `templates`: the wording organisers may edit (jinja2), the pages' templates and the
default event.toml. May import `vocabulary`, `game`, `table` and `knockout`; the only layer importing reportlab,
pypdfium2 and jinja2; it writes no file (the use-cases write what it draws, `shuangsheng/usecases/papers/`).
Today's exceptions (tests/test_layers.py): renderers take the `Event` record from `storage.event`, double entry's
`Verification` from `storage.workbook.verify` and the workbooks' labels, columns and marks from
`storage.workbook.schema`; the wording reads an event folder's own templates through `storage.files`; the
terminal's 下一步 line names a round's workbook (`storage.names`); and the records of `reports` hold storage's
records (`Event`, the workbook's sheets, `Verification`, a voided 扫码单).
"""
