"""The game, pure: levels 2…A and the two sides (`levels`), the rules in force and the points table they imply
(`rules`), one hand and the match record, JSON both ways (`hands`), replaying a match hand by hand (`match`), and
plausible simulated matches (`simulate`). May import `vocabulary`. Today's exception (tests/test_layers.py):
`hands.read_record` reads a record file through `storage.files`."""
