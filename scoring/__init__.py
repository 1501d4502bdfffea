"""The domain of a 双升级 knockout event: levels, hands, matches, the knockout, and the files they live in.

Pure domain (no files, no spreadsheet or PDF library): `levels`, `rules`, `match`, `status` (how a table stands),
`knockout`, `teams`, `results`, `bracket` and `venue` (what a round, the whole draw and the hall display show),
`simulate` (seeded random matches), `report` and `text` (terminal text), `errors` (the `Issue` record of
what a user can fix, and `UserError`), `fields` (the record's field names), and inside `workbook` its
`parsers`, `schema` and `problems`.

Touch files: `hands` (pure, except `read_record`, which reads a match-record file), `files` (atomic writes, the
ledger of generated files), `event` (reads event.toml), `workbook` (the only package importing a spreadsheet
library: teams.xlsx, round-N.xlsx, checked copies, paper lots), `tournament` (an event folder: reads it, writes
round workbooks and checked copies), `demo` (builds a whole sample folder) and `crash` (saves the report of an
unexpected failure).
"""
