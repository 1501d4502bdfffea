"""One table, pure: how it stands (`status`: the table status every layer shows), its one record (`record`:
`TableRecord`, what all its sources add up to, which every renderer shows), its phone entries as an append-only
log (`log`) and the state they add up to (`state`), every decision on a phone's request (`entry`) and on the desk's
presses (`desk_actions`), the pieces of its record from all its sources — the paper sheet, the phone, the 终局
cells of a lost card (`sources`) —, the round clock (`clock`), the entry codes (`codes`) and the desk's rendering
of each record (`desk`). May import `vocabulary` and `game`. Today's exception (tests/test_layers.py): `sources`
takes the paper sheet's records from `storage.workbook`."""
