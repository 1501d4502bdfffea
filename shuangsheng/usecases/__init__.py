"""The commands' work, the only layer that combines storage, the domain and the renderers: `folder` (the event folder
read as one record, checked against event.db), `scoring` (a round scored table by table), one module per command —
`draw` (and `draw --check`), `redo` (`draw --redo`), `score` (and `--verify`, the checked copy), `awards` (and the
bracket), `rebuild` (a lost event.db built again), `demo`, `serve` (the codes `serve` writes before it serves) —,
`score_step` (`score` as one record), `announced` (which tables the TV may show as final), `progress` (where the
event stands, for the 下一步 line), `settings` and `teams` (the console's settings and teams pages). May import every
layer below it (`vocabulary` … `storage`)."""
