-- Version 1: the story memory. Every table here is a source of truth; nothing is derived.

CREATE TABLE story_state (
    id               INTEGER PRIMARY KEY CHECK (id = 1),
    current_tick     INTEGER NOT NULL DEFAULT 0 CHECK (current_tick >= 0),
    active_character TEXT,
    created_at       TEXT NOT NULL,
    updated_at       TEXT NOT NULL
);

-- One counter per id prefix (C, L, R, O, W, S): ids are minted here and never reused.
CREATE TABLE id_counters (
    prefix TEXT PRIMARY KEY,
    next   INTEGER NOT NULL CHECK (next >= 0)
);

CREATE TABLE characters (
    id           TEXT PRIMARY KEY,
    name         TEXT NOT NULL,
    status       TEXT NOT NULL CHECK (status IN ('alive', 'dead', 'unknown')),
    data         TEXT NOT NULL CHECK (json_valid(data)),
    created_tick INTEGER NOT NULL,
    updated_tick INTEGER NOT NULL
);

CREATE TABLE locations (
    id            TEXT PRIMARY KEY,
    name          TEXT NOT NULL,
    tension_level INTEGER NOT NULL CHECK (tension_level BETWEEN 1 AND 5),
    data          TEXT NOT NULL CHECK (json_valid(data)),
    created_tick  INTEGER NOT NULL,
    updated_tick  INTEGER NOT NULL
);

-- Undirected: each pair once, smaller id first.
CREATE TABLE location_connections (
    a           TEXT NOT NULL REFERENCES locations(id) ON DELETE CASCADE,
    b           TEXT NOT NULL REFERENCES locations(id) ON DELETE CASCADE,
    description TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (a, b),
    CHECK (a < b)
);

CREATE TABLE relationships (
    id           TEXT PRIMARY KEY,
    character_a  TEXT NOT NULL REFERENCES characters(id),
    character_b  TEXT NOT NULL REFERENCES characters(id),
    kind         TEXT NOT NULL,
    status       TEXT NOT NULL,
    intensity    INTEGER NOT NULL CHECK (intensity BETWEEN 1 AND 10),
    data         TEXT NOT NULL CHECK (json_valid(data)),
    created_tick INTEGER NOT NULL,
    updated_tick INTEGER NOT NULL,
    UNIQUE (character_a, character_b),
    CHECK (character_a <> character_b)
);

-- The per-entity change log: every applied change and every flagged contradiction.
CREATE TABLE history (
    seq       INTEGER PRIMARY KEY AUTOINCREMENT,
    entity_id TEXT NOT NULL,
    tick      INTEGER NOT NULL,
    field     TEXT NOT NULL,
    change    TEXT NOT NULL,
    old_value TEXT,
    new_value TEXT,
    flagged   INTEGER NOT NULL DEFAULT 0 CHECK (flagged IN (0, 1)),
    source    TEXT NOT NULL
);
CREATE INDEX history_by_entity ON history (entity_id, seq);

CREATE TABLE scenes (
    id            TEXT PRIMARY KEY,
    tick          INTEGER NOT NULL UNIQUE,
    title         TEXT NOT NULL,
    pov_character TEXT REFERENCES characters(id),
    location      TEXT REFERENCES locations(id),
    prose         TEXT NOT NULL,
    word_count    INTEGER NOT NULL,
    summary       TEXT NOT NULL CHECK (json_valid(summary)),
    tension       INTEGER CHECK (tension BETWEEN 1 AND 10),
    created_at    TEXT NOT NULL
);

CREATE TABLE open_loops (
    id            TEXT PRIMARY KEY,
    description   TEXT NOT NULL,
    category      TEXT NOT NULL,
    importance    TEXT NOT NULL CHECK (importance IN ('low', 'medium', 'high', 'critical')),
    status        TEXT NOT NULL CHECK (status IN ('open', 'resolved', 'abandoned')),
    opened_tick   INTEGER NOT NULL,
    resolved_tick INTEGER,
    notes         TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(notes))
);

CREATE TABLE lore (
    id           TEXT PRIMARY KEY,
    fact         TEXT NOT NULL,
    category     TEXT NOT NULL,
    importance   TEXT NOT NULL CHECK (importance IN ('low', 'medium', 'high', 'critical')),
    keywords     TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(keywords)),
    source_tick  INTEGER,
    created_tick INTEGER NOT NULL
);

-- One row per committed tick: what was planned, what ran, what the checks found, what it cost.
CREATE TABLE ticks (
    tick        INTEGER PRIMARY KEY,
    plan        TEXT CHECK (plan IS NULL OR json_valid(plan)),
    execution   TEXT CHECK (execution IS NULL OR json_valid(execution)),
    findings    TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(findings)),
    usage       TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(usage)),
    timings     TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(timings)),
    started_at  TEXT NOT NULL,
    finished_at TEXT NOT NULL
);
