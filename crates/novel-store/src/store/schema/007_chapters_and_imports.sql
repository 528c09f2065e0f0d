-- Chapters, and the bookkeeping of a manuscript import.

-- The writer's chapters: consecutive runs of scenes (by tick), from tick 1 without gaps. Scenes
-- after the last row are grouped by proposal (every ten scenes) until the writer shapes them.
-- Story state: every change is a recorded change, so rewinding restores the chapters too.
CREATE TABLE chapters (
    first_tick INTEGER PRIMARY KEY CHECK (first_tick >= 1),
    last_tick  INTEGER NOT NULL CHECK (last_tick >= first_tick),
    title      TEXT NOT NULL,
    -- Set on the first chapter of a part: the part's heading.
    part_title TEXT,
    -- Who chose the title: a proposal from the scenes' gist, the writer, or the imported manuscript.
    titled_by  TEXT NOT NULL CHECK (titled_by IN ('proposal', 'writer', 'manuscript'))
);

-- An import in progress or done: where the manuscript came from. Bookkeeping, never recorded.
CREATE TABLE import_job (
    id          INTEGER PRIMARY KEY CHECK (id = 1),
    source      TEXT NOT NULL,
    format      TEXT NOT NULL,
    scenes      INTEGER NOT NULL,
    started_at  TEXT NOT NULL,
    finished_at TEXT
);

-- The imported manuscript split into scenes, in order. `tick` is set in the same transaction
-- that commits the scene, so a resumed import knows exactly which scenes are in the story.
CREATE TABLE import_scenes (
    ordinal       INTEGER PRIMARY KEY CHECK (ordinal >= 1),
    chapter       INTEGER NOT NULL CHECK (chapter >= 1),
    chapter_title TEXT NOT NULL,
    part_title    TEXT,
    heading       TEXT,
    text          TEXT NOT NULL,
    tick          INTEGER,
    done_at       TEXT
);
