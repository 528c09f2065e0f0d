-- Version 4: what the engine repaired or dropped while committing a tick (shown on the
-- timeline), and the prompt sections the tick's requests carried with their token counts.
ALTER TABLE ticks ADD COLUMN notes TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(notes));
ALTER TABLE ticks ADD COLUMN context_used TEXT CHECK (context_used IS NULL OR json_valid(context_used));
