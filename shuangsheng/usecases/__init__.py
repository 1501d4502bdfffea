"""The commands' work, the only layer that combines storage, the domain and the renderers: `tournament` (draw,
check, redo, score, verify, bracket, awards — one module for now, to be carved into one per command),
`score_step` (`score` as one record), `demo`, `announced` (which tables the TV may show as final) and `progress`
(where the event stands, for the 下一步 line). May import every layer below it (`vocabulary` … `storage`)."""
