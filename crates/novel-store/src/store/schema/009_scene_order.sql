-- Version 9: the writer shapes the book by hand. A scene's tick is its place in the book, so
-- adding, moving or deleting a scene renumbers the scenes after it, and every recorded change
-- must be able to undo a renumbering: a move is a rotation (3→4, 4→5, 5→3) that SQLite's
-- changeset apply could not replay under a UNIQUE tick (no order of row updates frees a slot).
-- The table is rebuilt without that constraint; the shaping code keeps ticks distinct, and a
-- plain index keeps reads by tick fast. Columns and primary key are unchanged, so every
-- recorded changeset still applies.
CREATE TABLE scenes_ordered (
    id            TEXT PRIMARY KEY,
    tick          INTEGER NOT NULL,
    title         TEXT NOT NULL,
    pov_character TEXT REFERENCES characters(id),
    location      TEXT REFERENCES locations(id),
    prose         TEXT NOT NULL,
    word_count    INTEGER NOT NULL,
    summary       TEXT NOT NULL CHECK (json_valid(summary)),
    tension       INTEGER CHECK (tension BETWEEN 1 AND 10),
    created_at    TEXT NOT NULL
);
INSERT INTO scenes_ordered
    SELECT id, tick, title, pov_character, location, prose, word_count, summary, tension, created_at
    FROM scenes;
DROP TABLE scenes;
ALTER TABLE scenes_ordered RENAME TO scenes;
CREATE INDEX scenes_by_tick ON scenes (tick);

-- A version belongs to a scene, not to a place in the book: renumbering (never undone in this
-- untracked table) must not hand a scene's versions to the scene that now has its number.
ALTER TABLE scene_versions ADD COLUMN scene_id TEXT;
UPDATE scene_versions SET scene_id = (SELECT s.id FROM scenes s WHERE s.tick = scene_versions.tick);
CREATE INDEX scene_versions_by_scene ON scene_versions (scene_id, id);
