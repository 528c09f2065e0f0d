-- Version 8: whether each scene did what its plan intended, as the extractor judged it in the
-- call that read the scene (or the audit, when asked to judge an older scene). Story state: a
-- rewind or a regeneration takes the verdict with its scene.
CREATE TABLE plan_verdicts (
    tick      INTEGER PRIMARY KEY CHECK (tick >= 1),
    verdict   TEXT NOT NULL CHECK (verdict IN ('realized', 'partly', 'not')),
    -- What the plan wanted and the scene did not do: a JSON list of strings.
    missed    TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(missed)),
    -- Who judged: 'extraction' (the tick's own call) or 'audit'.
    judged_by TEXT NOT NULL
);
