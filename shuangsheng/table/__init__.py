"""One table, pure: how it stands (`status`: the table status every layer shows), its phone entries and every
decision on a phone's request (`entry`), its record from all its sources — the paper sheet, the phone, the 终局
cells of a lost card (`sources`) —, the round clock (`clock`), the entry codes (`codes`) and the desk's states
(`desk`). May import `vocabulary` and `game`. Today's exceptions (tests/test_layers.py): `sources` takes the paper
sheet's records from `storage.workbook`, `desk` takes the TV's reading of a table from `render.venue`."""
