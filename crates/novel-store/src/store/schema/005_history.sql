-- Version 5: the story's recorded history, its branches, and every version of every scene.
-- None of these tables is story state: they record how the story got where it is, and the
-- change recorder never tracks them.

-- One row per recorded change (a committed tick, a writer's edit, the seed): the SQLite
-- changeset that turns the parent's state into this one, so it can be undone or redone exactly.
CREATE TABLE changes (
    seq        INTEGER PRIMARY KEY AUTOINCREMENT,
    parent     INTEGER REFERENCES changes(seq),
    kind       TEXT NOT NULL,
    tick       INTEGER NOT NULL,
    label      TEXT NOT NULL,
    changeset  BLOB NOT NULL,
    created_at TEXT NOT NULL
);
CREATE INDEX changes_by_parent ON changes (parent);

-- A named line of the story: the change its latest state ends with.
CREATE TABLE branches (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    name       TEXT NOT NULL UNIQUE,
    head       INTEGER REFERENCES changes(seq),
    created_at TEXT NOT NULL
);
INSERT INTO branches (id, name, head, created_at) VALUES (1, 'main', NULL, datetime('now'));

-- Where the database is: the current branch and the change the story state reflects. History
-- before `baseline_tick` was not recorded (the novel predates recording). `restore_to` is set
-- while a regeneration has undone a scene and not yet written its replacement.
CREATE TABLE story_head (
    id            INTEGER PRIMARY KEY CHECK (id = 1),
    branch        INTEGER NOT NULL REFERENCES branches(id),
    head          INTEGER REFERENCES changes(seq),
    baseline_tick INTEGER NOT NULL DEFAULT 0,
    restore_to    INTEGER REFERENCES changes(seq)
);
INSERT INTO story_head (id, branch, head, baseline_tick)
    SELECT 1, 1, NULL, current_tick FROM story_state;

-- Every version of every scene, never deleted: drafts, revisions, regenerations, the writer's
-- edits and restores, on whichever branch they were made.
CREATE TABLE scene_versions (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    tick       INTEGER NOT NULL,
    branch     TEXT NOT NULL,
    origin     TEXT NOT NULL CHECK (origin IN ('draft', 'revision', 'regeneration', 'edit', 'restore', 'imported')),
    title      TEXT NOT NULL,
    prose      TEXT NOT NULL,
    words      INTEGER NOT NULL,
    change_seq INTEGER REFERENCES changes(seq),
    created_at TEXT NOT NULL
);
CREATE INDEX scene_versions_by_tick ON scene_versions (tick, id);
INSERT INTO scene_versions (tick, branch, origin, title, prose, words, created_at)
    SELECT tick, 'main', 'imported', title, prose, word_count, created_at FROM scenes ORDER BY tick;

-- Moving through history applies recorded changes row by row, and a passage deleted and
-- re-created under the same rowid is recorded as an update: the keyword index and the vector
-- generation must follow updates too.
CREATE TRIGGER search_chunks_reindexed AFTER UPDATE ON search_chunks BEGIN
    INSERT INTO search_index (search_index, rowid, title, body)
    VALUES ('delete', old.id, old.title, old.body);
    INSERT INTO search_index (rowid, title, body) VALUES (new.id, new.title, new.body);
END;
CREATE TRIGGER search_vectors_replaced AFTER UPDATE ON search_vectors BEGIN
    UPDATE search_meta SET generation = generation + 1 WHERE id = 1;
END;
