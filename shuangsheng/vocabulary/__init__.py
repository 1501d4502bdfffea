"""The shared vocabulary, below every other layer: what a user can fix, as records (`errors`: `Issue`, its `Place`,
`UserError`), a spreadsheet cell or range (`places`), the match record's field names and their Chinese labels
(`fields`), and text as it shows on screen and as a command is typed (`text`: display width, `command_line`).
Pure. May import nothing but the standard library."""
