"""The knockout, pure: its format options (`formats`), the teams (`teams`), drawing rounds by lot, byes, advancement
and the final placings (`knockout`), and the bracket chart as data (`bracket`). May import `vocabulary`, `game`
and `table` (a match's outcome is its table's status). Today's exception (tests/test_layers.py): `bracket` takes
the format options through `storage.event`."""
