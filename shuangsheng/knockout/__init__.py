"""The knockout, pure: its format options (`formats`), the teams (`teams`), a round's records, byes and sizes
(`knockout`), drawing a round by seed or lots (`draw`), who goes on and what to draw next (`advance`), the final
placings (`placings`), and the bracket chart as data (`bracket`). May import `vocabulary`, `game`
and `table` (a match's outcome is its table's status). Today's exception (tests/test_layers.py): `bracket` takes
the format options through `storage.event`."""
