"""event.db's schema: the migrations that build and upgrade it, one version each (PRAGMA user_version). Pure."""

from __future__ import annotations

# Each entry upgrades the schema by one version (PRAGMA user_version); a folder at version k runs entries k…
MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE file (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,              -- inside the event folder
        sha256 TEXT,                     -- NULL: forgotten (deleted or no longer the program's)
        size INTEGER,
        at TEXT NOT NULL,
        command TEXT NOT NULL
    );
    CREATE INDEX file_by_name ON file (name, id);
    CREATE TABLE draw (
        id INTEGER PRIMARY KEY,
        round INTEGER NOT NULL,
        seed INTEGER,                    -- NULL: drawn from paper lots
        lots TEXT NOT NULL,              -- JSON [[team, lot], ...]
        pool TEXT NOT NULL,              -- JSON [team, ...] in draw order
        pairings TEXT NOT NULL,          -- JSON [[table, a, b, third_place], ...]
        byes TEXT NOT NULL,              -- JSON [team, ...]
        names TEXT NOT NULL,             -- JSON {team: [player1, player2]} at the draw
        format TEXT,                     -- JSON [format] at the draw, NULL for a round from before event.db
        at TEXT NOT NULL,
        command TEXT NOT NULL
    );
    CREATE INDEX draw_by_round ON draw (round, id);
    CREATE TABLE draw_done (             -- every file of the draw written: the draw is complete
        draw INTEGER PRIMARY KEY REFERENCES draw (id),
        at TEXT NOT NULL
    );
    CREATE TABLE draw_void (
        draw INTEGER PRIMARY KEY REFERENCES draw (id),
        reason TEXT NOT NULL,
        at TEXT NOT NULL,
        command TEXT NOT NULL
    );
    CREATE TABLE scored (
        id INTEGER PRIMARY KEY,
        draw INTEGER NOT NULL REFERENCES draw (id),
        rules TEXT NOT NULL,             -- JSON: the [rules] in force
        workbook TEXT NOT NULL,          -- sha256 of round-N.xlsx as read
        at TEXT NOT NULL,
        command TEXT NOT NULL
    );
    CREATE TABLE outcome (
        scored INTEGER NOT NULL REFERENCES scored (id),
        tbl INTEGER NOT NULL,
        status TEXT NOT NULL,
        winner TEXT,
        sheet TEXT NOT NULL,             -- sha256 of the table's sheet as read
        PRIMARY KEY (scored, tbl)
    );
    CREATE TABLE log (
        id INTEGER PRIMARY KEY,
        kind TEXT NOT NULL,
        detail TEXT NOT NULL,            -- JSON
        at TEXT NOT NULL,
        command TEXT NOT NULL
    );
    """,
    # 2: table-side entry — each table's entry code, and every accepted change from a phone or the desk
    """
    CREATE TABLE code (
        id INTEGER PRIMARY KEY,
        draw INTEGER NOT NULL REFERENCES draw (id),
        tbl INTEGER NOT NULL,
        code TEXT NOT NULL,              -- 8 characters, without the hyphen (shuangsheng/table/codes.py)
        at TEXT NOT NULL,
        command TEXT NOT NULL
    );
    CREATE INDEX code_by_code ON code (code);
    CREATE INDEX code_by_table ON code (draw, tbl, id);
    CREATE TABLE entry (
        id INTEGER PRIMARY KEY,
        draw INTEGER NOT NULL REFERENCES draw (id),
        tbl INTEGER NOT NULL,
        body TEXT NOT NULL,              -- JSON: shuangsheng.table.log.Entry.as_json()
        at TEXT NOT NULL,
        address TEXT NOT NULL            -- the device's IP address
    );
    CREATE INDEX entry_by_table ON entry (draw, tbl, id);
    """,
    # 3: the round clock of each draw (the desk's start and stop, rule 十六's hour)
    """
    CREATE TABLE clock (
        id INTEGER PRIMARY KEY,
        draw INTEGER NOT NULL REFERENCES draw (id),
        action TEXT NOT NULL,            -- start | stop (shuangsheng/table/clock.py)
        at TEXT NOT NULL,                -- ISO 8601 with the PC's UTC offset
        address TEXT NOT NULL            -- the device's IP address
    );
    CREATE INDEX clock_by_draw ON clock (draw, id);
    """,
    # 4: the desk's id for the press that made a clock row ("" without one: a press sent again after a lost answer
    # adds nothing, shuangsheng/table/clock.py)
    """
    ALTER TABLE clock ADD COLUMN request TEXT NOT NULL DEFAULT ''
    """,
    # 5: the units and seeds a draw kept apart (JSON {"units": {team: unit}, "seeds": {team: seed}}; NULL: none,
    # as for every draw before this version), so `draw --check` draws again with them whatever teams.xlsx says now
    """
    ALTER TABLE draw ADD COLUMN apart TEXT
    """,
    # 6: 报到 (check-in) before round 1, every mark a row (shuangsheng/knockout/checkin.py), and what a round-1 draw
    # took from it (JSON {"absent": [team, ...], "reserves_in": [team, ...]}; NULL: drawn without check-in)
    """
    CREATE TABLE checkin (
        id INTEGER PRIMARY KEY,
        action TEXT NOT NULL,            -- arrive, undo, forfeit, close or open
        team TEXT NOT NULL,              -- the team id, empty for close and open
        reason TEXT NOT NULL,
        at TEXT NOT NULL,                -- ISO 8601 with the PC's UTC offset
        address TEXT NOT NULL,           -- the device's IP address (the command line's: cli)
        request TEXT NOT NULL            -- the id of the press that made it
    );
    ALTER TABLE draw ADD COLUMN field TEXT
    """,
    # 7: a player replaced mid-event (shuangsheng/knockout/replacement.py), every replacement a row
    """
    CREATE TABLE replacement (
        id INTEGER PRIMARY KEY,
        team TEXT NOT NULL,
        player_out TEXT NOT NULL,
        player_in TEXT NOT NULL,
        from_round INTEGER NOT NULL,     -- the first round the new player plays
        reason TEXT NOT NULL,
        at TEXT NOT NULL,                -- ISO 8601 with the PC's UTC offset
        address TEXT NOT NULL,           -- the device's IP address (the command line's: cli)
        request TEXT NOT NULL            -- the id of the press that made it
    )
    """,
)
SCHEMA_VERSION = len(MIGRATIONS)
