"""The event folder, and the only code that touches it: the name of every file in it (`names`), reading and writing
files safely (`files`), event.toml (`event`; as the console's settings form: `settings`), a file opened in the PC's
own program (`opener`), the ledger event.db (`ledger/`: its connection, queries, schema, lock, disk detection and
the generated files it fingerprints), the 扫码单 files of voided draws (`qr_sheets`), the crash report (`crash`), and
the workbooks (`workbook`: teams.xlsx, round-N.xlsx, the checked copy, paper lots, teams.xlsx edited from the
console). May import every layer below it: `vocabulary`, `game`, `table`, `knockout`, `render` (the default
event.toml is one of render's templates). The only layer importing openpyxl, XlsxWriter, python-calamine,
defusedxml, filelock and tomlkit."""
