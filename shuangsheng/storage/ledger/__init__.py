"""The event's ledger, `event.db` (SQLite): the only package that touches it (that file, SQLite's files beside it
and the folder's lock file).

What the program did is recorded here, so the next command can trust it instead of guessing from the files:
every draw (round, seed or lots, the pool in order, pairings, byes, the names at the draw) and whether its files
were all written, every file the program generated (with the fingerprint of the bytes about to land), each scored
round's outcomes with the rules in force, the entry codes, the phones' entries, the round clock, and a log. Rows
are only ever added: a file written again is a new row, a file forgotten is a row without a fingerprint, a draw
voided keeps its row and gains a `draw_void` row; the newest row of a name or round is what counts.

A folder from before event.db gets one on its next command, built from its files: the old JSON bookkeeping is
imported, and every PDF and checked copy there is taken as the program's (the round workbooks' draws are added by
`shuangsheng.usecases.folder.adopt_rounds`). That is an old folder: one with the JSON bookkeeping, or one where no
round has been drawn (a damaged event.db there is set aside under another name and rebuilt the same way, and said).
Anywhere else an event.db missing, emptied, damaged or (in `serve`) replaced is a lost ledger (`LedgerLost`): the
entry codes printed on the cards, the phones' entries and the draws' records went with it, so every opening
refuses, naming what to do (a copy put back, or `shuangsheng rebuild`, which builds it again through
`Ledger.rebuilt`); nothing is rebuilt without a word.

Its modules:

- `connection` — `Ledger`, an open event.db: opening, connecting, migrating, transactions, closing, `kept_open`;
- `queries` — `Queries`, what `Ledger` reads and adds, row by row;
- `schema` — the migrations; `records` — the rows as records, fingerprints, the stamps of every row;
- `disk` — WAL on a local disk, SQLite's rollback journal elsewhere (WAL needs shared memory, which network
  folders do not give); every connection checkpoints when it closes, so copying the folder copies everything;
- `lock` — one file-writing command at a time per folder (`exclusive`), and the temporary files a stopped one left;
- `lost` — `LedgerError`, the lost ledger and its refusal, a damaged event.db set aside;
- `marks` — cheap marks of what event.db holds, for the pollers of `serve` and `show`;
- `generated` — outputs made again on every run (PDFs, checked copies), written through `write_generated`: their
  fingerprint is recorded just before the rename that puts them in place, so a file is "edited by a person" only
  when it differs from what the program wrote there.

The file names (`event.db`, the lock, the old bookkeeping) are in `shuangsheng.storage.names`.
"""
