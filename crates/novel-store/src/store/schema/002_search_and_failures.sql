-- Version 2: the keyword index behind memory.search, and the record of failed ticks.

-- Derived data: rebuilt from the source tables by `reindex`, never the only copy of anything.
CREATE VIRTUAL TABLE search_index USING fts5 (
    entity_id UNINDEXED,
    kind UNINDEXED,
    tick UNINDEXED,
    title,
    body,
    tokenize = 'porter unicode61 remove_diacritics 2'
);

-- A failed tick leaves the story untouched; only this row (and errors/error_NNN.*) remember it.
CREATE TABLE tick_failures (
    seq        INTEGER PRIMARY KEY AUTOINCREMENT,
    tick       INTEGER NOT NULL,
    at         TEXT NOT NULL,
    error_type TEXT NOT NULL,
    message    TEXT NOT NULL,
    error_file TEXT NOT NULL,
    resolved   INTEGER NOT NULL DEFAULT 0 CHECK (resolved IN (0, 1))
);
CREATE INDEX tick_failures_by_tick ON tick_failures (tick);
