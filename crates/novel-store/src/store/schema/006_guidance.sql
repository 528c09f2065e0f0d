-- Version 6: the writer's guidance as story state, so that its edits are recorded changes like
-- any other (undoable, and part of every branch): the foundation (premise, goal, tone, style,
-- the author's note — novel.toml mirrors it), the outline of beats the planner takes in order,
-- and the pressure on the story: clocks that fill toward a threshold and events bound to a tick.

CREATE TABLE foundation (
    id   INTEGER PRIMARY KEY CHECK (id = 1),
    data TEXT NOT NULL CHECK (json_valid(data))
);

CREATE TABLE outline_beats (
    id        TEXT PRIMARY KEY,
    position  INTEGER NOT NULL,
    text      TEXT NOT NULL,
    status    TEXT NOT NULL CHECK (status IN ('open', 'done')),
    done_tick INTEGER
);

CREATE TABLE pressure_clocks (
    id           TEXT PRIMARY KEY,
    name         TEXT NOT NULL,
    description  TEXT NOT NULL DEFAULT '',
    value        INTEGER NOT NULL CHECK (value >= 0),
    max          INTEGER NOT NULL CHECK (max > 0),
    per_tick     INTEGER NOT NULL DEFAULT 0,
    thresholds   TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(thresholds)),
    created_tick INTEGER NOT NULL
);

CREATE TABLE story_events (
    id          TEXT PRIMARY KEY,
    tick        INTEGER NOT NULL CHECK (tick > 0),
    description TEXT NOT NULL,
    status      TEXT NOT NULL CHECK (status IN ('pending', 'done'))
);
