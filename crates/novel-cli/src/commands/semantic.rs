//! Semantic search for the commands that search memory: the machine's local embedding model
//! when it is installed, keyword search otherwise — and, then, one plain notice on stderr per
//! run saying so and how to turn it on (stderr, so `--json` output stays clean).

use std::sync::atomic::{AtomicBool, Ordering};

use novel_core::Novel;
use novel_core::views::Retrieval;

static NOTICE_SHOWN: AtomicBool = AtomicBool::new(false);

/// Gives `novel` the local model (loaded once per process) and reports once if there is none.
pub fn attach(novel: &mut Novel) {
    let retrieval = Retrieval::local();
    if let Some(notice) = retrieval.notice()
        && !NOTICE_SHOWN.swap(true, Ordering::SeqCst)
    {
        crate::output::say_err!("note: {notice}");
    }
    novel.set_retrieval(retrieval);
}
