-- Version 3: memory that scales. Retrievable passages with their keyword index and vectors,
-- rolled-up summaries, and lore entries with aliases that can be always on.

-- The version-2 index held one row per record; passages replace it. The migration's hook
-- refills it from the source tables, so an upgraded novel searches as before.
DROP TABLE search_index;

-- Derived data, rebuilt by `reindex`: one row per retrievable passage — a record's
-- description, a lore entry, a scene's summary, a group of a scene's paragraphs.
CREATE TABLE search_chunks (
    id        INTEGER PRIMARY KEY,
    entity_id TEXT NOT NULL,
    kind      TEXT NOT NULL,
    part      TEXT NOT NULL CHECK (part IN ('record', 'summary', 'prose')),
    seq       INTEGER NOT NULL,
    tick      INTEGER,
    title     TEXT NOT NULL,
    body      TEXT NOT NULL,
    UNIQUE (entity_id, part, seq)
);
CREATE INDEX search_chunks_by_tick ON search_chunks (tick);

-- BM25 keyword index over the passages; triggers keep it in step (passages are replaced,
-- never edited in place).
CREATE VIRTUAL TABLE search_index USING fts5 (
    title,
    body,
    content = 'search_chunks',
    content_rowid = 'id',
    tokenize = 'porter unicode61 remove_diacritics 2'
);
CREATE TRIGGER search_chunks_indexed AFTER INSERT ON search_chunks BEGIN
    INSERT INTO search_index (rowid, title, body) VALUES (new.id, new.title, new.body);
END;
CREATE TRIGGER search_chunks_unindexed AFTER DELETE ON search_chunks BEGIN
    INSERT INTO search_index (search_index, rowid, title, body)
    VALUES ('delete', old.id, old.title, old.body);
END;

-- One embedding per passage, little-endian f32, with the model that made it.
CREATE TABLE search_vectors (
    chunk_id INTEGER PRIMARY KEY REFERENCES search_chunks(id) ON DELETE CASCADE,
    model    TEXT NOT NULL,
    dim      INTEGER NOT NULL CHECK (dim > 0),
    vector   BLOB NOT NULL CHECK (length(vector) = 4 * dim)
);

-- Which model the stored vectors belong to, how many there are, and a counter every vector
-- write bumps, so that an in-memory copy of the vectors knows when it is stale without
-- counting 30 MB of rows on every search.
CREATE TABLE search_meta (
    id         INTEGER PRIMARY KEY CHECK (id = 1),
    model      TEXT,
    dim        INTEGER,
    generation INTEGER NOT NULL DEFAULT 0,
    vectors    INTEGER NOT NULL DEFAULT 0
);
INSERT INTO search_meta (id) VALUES (1);
CREATE TRIGGER search_vectors_added AFTER INSERT ON search_vectors BEGIN
    UPDATE search_meta SET generation = generation + 1, vectors = vectors + 1 WHERE id = 1;
END;
CREATE TRIGGER search_vectors_removed AFTER DELETE ON search_vectors BEGIN
    UPDATE search_meta SET generation = generation + 1, vectors = vectors - 1 WHERE id = 1;
END;

-- Derived from the scenes: one line per chapter (level 1) and per arc (level 2), so the story
-- so far stays short however long the novel grows.
CREATE TABLE summary_rollups (
    level      INTEGER NOT NULL CHECK (level IN (1, 2)),
    first_tick INTEGER NOT NULL,
    last_tick  INTEGER NOT NULL,
    text       TEXT NOT NULL,
    PRIMARY KEY (level, first_tick)
);

-- Lorebook entries: other names that trigger them too, and entries that are always in context.
ALTER TABLE lore ADD COLUMN aliases TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(aliases));
ALTER TABLE lore ADD COLUMN always_on INTEGER NOT NULL DEFAULT 0 CHECK (always_on IN (0, 1));
