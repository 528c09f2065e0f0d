//! The training rows of the learned reading, one JSON object per line: every labelled item's
//! sentence under test and every published sentence of the corpus, as the checks see them.
//! `scripts/train_sentence_model.py` reads them and writes the weights the checks ship with.
//!
//! `cargo run -p novel-core --example sentence_features -- crates/novel-core/tests/prose > rows.jsonl`

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use novel_core::evaluate::corpus::{feature_rows, load_corpus};

fn main() -> ExitCode {
    let Some(dir) = std::env::args_os().nth(1).map(PathBuf::from) else {
        eprintln!("usage: sentence_features CORPUS_DIR  (e.g. crates/novel-core/tests/prose)");
        return ExitCode::FAILURE;
    };
    let books = match load_corpus(&dir) {
        Ok(books) => books,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for row in feature_rows(&books) {
        let line = serde_json::to_string(&row).expect("a row is plain data");
        if writeln!(out, "{line}").is_err() {
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}
