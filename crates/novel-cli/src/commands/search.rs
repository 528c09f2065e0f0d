//! `novel search "query"`: the book's prose by words and by meaning, each hit with its chapter
//! and scene, best first.

use std::path::Path;

use anyhow::{Result, bail};
use novel_core::views::Mode;
use novel_core::views::{BookHit, book_search};
use novel_core::{Access, Novel};

use crate::output::{json, say, say_err};

pub fn run(
    dir: &Path,
    query: &str,
    words: bool,
    meaning: bool,
    limit: u32,
    as_json: bool,
) -> Result<()> {
    if query.trim().is_empty() {
        bail!("give words to search for, e.g. novel search \"the ledger\"");
    }
    let mut novel = Novel::open(dir, Access::Read)?;
    if !words {
        super::semantic::attach(&mut novel);
    }
    let retrieval = novel.retrieval();
    if meaning && !retrieval.is_semantic() {
        bail!("searching by meaning needs the local embedding model; search by words with --words");
    }
    let mode = match (words, meaning) {
        (true, _) => Mode::KeywordOnly,
        (_, true) => Mode::SemanticOnly,
        _ => Mode::Hybrid,
    };
    let vector = if words {
        None
    } else {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?
            .block_on(retrieval.embed_query(query))
    };
    let hits = book_search(
        novel.store().conn(),
        &retrieval,
        query,
        vector.as_deref().map(Vec::as_slice),
        mode,
        limit,
    )?;
    if as_json {
        return json(&hits);
    }
    if hits.is_empty() {
        say_err!("Nothing in the book matches {query:?}.");
        return Ok(());
    }
    for hit in &hits {
        say!("{}", line(hit));
    }
    Ok(())
}

fn line(hit: &BookHit) -> String {
    let how = if hit.by_words { "" } else { " (by meaning)" };
    format!(
        "Chapter {} \"{}\", scene {} \"{}\"{how}:\n    {}",
        hit.chapter,
        hit.chapter_title,
        hit.tick,
        hit.scene_title,
        hit.snippet.split_whitespace().collect::<Vec<_>>().join(" ")
    )
}
