"""shuangsheng: runs a 双升级（双扣） knockout card tournament. One package; each folder is a layer.

Bottom to top — a layer imports only the layers before it in this list (tests/test_layers.py enforces it and lists
today's exceptions):

- `vocabulary` — what every layer says: `Issue`/`Place`/`UserError`, cells, field labels, text width;
- `game` — levels, the rules in force, hands and the match record, the rule engine (pure);
- `table` — one table: its status, phone entries and their decisions, its record from all sources, the round
  clock, entry codes, the desk's states (pure);
- `knockout` — formats, teams, the draw by lot, byes, advancement, placings, the bracket (pure);
- `render` — what people see, deciding nothing and writing no file: PDFs and pictures, the HTML pages, terminal
  text, the records the use-cases hand the renderers, the templates (reportlab, pypdfium2 and jinja2 live here only);
- `storage` — the event folder: every file's name, files, event.toml, the ledger event.db, the workbooks (the
  spreadsheet libraries live here only);
- `usecases` — the commands' work, combining storage, the domain and the renderers (and writing the papers);
- `hall` — `serve` and `show`: the HTTP server, the table and desk APIs, the QR watcher, the export;
- the command line — `cli/` (the `shuangsheng` script; `python -m shuangsheng` runs it too) and `cli_help`.
"""
