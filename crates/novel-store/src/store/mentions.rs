//! Where names appear in the book: the prose passages of the keyword index holding any of a
//! record's names (or aliases) as a phrase, in reading order. One FTS5 query over the derived
//! passages, so a codex page stays fast on a long book; the index is rebuildable, so a mention
//! list is never the only copy of anything.

use rusqlite::{Connection, params};

use super::error::StoreResult;

/// One prose passage that names the record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MentionRow {
    pub scene_id: String,
    pub tick: u32,
    /// The scene's title as the index holds it.
    pub title: String,
    /// The passage (a few paragraphs of model prose, to be shown as text).
    pub body: String,
}

/// The passages naming any of `names`, first scene first, at most `limit`. Each name is one
/// quoted phrase of its words (operators and column filters cannot be smuggled in by a name);
/// names with no word in them are skipped.
pub fn name_mentions(
    conn: &Connection,
    names: &[String],
    limit: u32,
) -> StoreResult<Vec<MentionRow>> {
    let Some(query) = phrases(names) else {
        return Ok(Vec::new());
    };
    let mut stmt = conn.prepare_cached(
        "SELECT c.entity_id, c.tick, c.title, c.body
         FROM search_index JOIN search_chunks c ON c.id = search_index.rowid
         WHERE search_index MATCH ?1 AND c.part = 'prose' AND c.tick IS NOT NULL
         ORDER BY c.tick, c.seq
         LIMIT ?2",
    )?;
    let rows = stmt.query_map(params![query, limit], |r| {
        Ok(MentionRow {
            scene_id: r.get(0)?,
            tick: r.get(1)?,
            title: r.get(2)?,
            body: r.get(3)?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// `body : ("tamsin vale" OR "tam")`: every name a phrase of its words, on the prose column.
fn phrases(names: &[String]) -> Option<String> {
    let mut seen: Vec<String> = Vec::new();
    for name in names {
        let words: Vec<String> = name
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(str::to_lowercase)
            .collect();
        if words.is_empty() {
            continue;
        }
        let phrase = format!("\"{}\"", words.join(" "));
        if !seen.contains(&phrase) {
            seen.push(phrase);
        }
    }
    (!seen.is_empty()).then(|| format!("body : ({})", seen.join(" OR ")))
}

#[cfg(test)]
mod tests {
    use super::phrases;

    #[test]
    fn names_become_quoted_phrases_without_operators() {
        let names = [
            "Tamsin Vale".to_string(),
            "the \"Warden\" NEAR(x)".into(),
            "  *^: ".into(),
            "tamsin  VALE".into(),
        ];
        assert_eq!(
            phrases(&names).unwrap(),
            "body : (\"tamsin vale\" OR \"the warden near x\")"
        );
        assert_eq!(phrases(&["--".into()]), None);
    }
}
