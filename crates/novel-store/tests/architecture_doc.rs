//! `docs/ARCHITECTURE.md` describes the data model table by table. A migration that adds a table
//! the page does not name makes the map wrong without anyone noticing, so this test reads every
//! migration in `src/store/schema/`, finds each `CREATE TABLE` and `CREATE VIRTUAL TABLE`, and
//! fails unless the page's "The data model" section names that table in backticks.

use std::path::{Path, PathBuf};

/// The section of the page that must name every table: from this heading to the next `## `.
const SECTION: &str = "## The data model";

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The data model section of `docs/ARCHITECTURE.md`.
fn data_model_section() -> String {
    let path = workspace_root().join("docs/ARCHITECTURE.md");
    let page = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let start = page
        .lines()
        .position(|l| l.trim_end() == SECTION)
        .unwrap_or_else(|| panic!("docs/ARCHITECTURE.md has no `{SECTION}` heading"));
    page.lines()
        .skip(start + 1)
        .take_while(|l| !l.starts_with("## "))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every migration file, in order, with its text.
fn migrations() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/store/schema");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "sql"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            let text = std::fs::read_to_string(&p).expect("a readable migration");
            (name, text)
        })
        .collect()
}

/// The tables a migration creates, plain and virtual, in order (SQL comments ignored).
fn created_tables(sql: &str) -> Vec<String> {
    let code: String = sql
        .lines()
        .map(|l| l.split("--").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n");
    let words: Vec<&str> = code
        .split(|c: char| c.is_whitespace() || c == '(' || c == ';')
        .filter(|w| !w.is_empty())
        .collect();
    let is = |i: usize, word: &str| words.get(i).is_some_and(|w| w.eq_ignore_ascii_case(word));
    let mut tables = Vec::new();
    for i in 0..words.len() {
        if !is(i, "CREATE") {
            continue;
        }
        let mut at = i + 1;
        if is(at, "VIRTUAL") {
            at += 1;
        }
        if !is(at, "TABLE") {
            continue;
        }
        at += 1;
        if is(at, "IF") && is(at + 1, "NOT") && is(at + 2, "EXISTS") {
            at += 3;
        }
        if let Some(name) = words.get(at) {
            tables.push(name.trim_matches(|c| c == '"' || c == '`').to_string());
        }
    }
    tables
}

#[test]
fn the_data_model_names_every_table_the_migrations_create() {
    let section = data_model_section();
    let mut missing = Vec::new();
    for (file, sql) in migrations() {
        for table in created_tables(&sql) {
            if !section.contains(&format!("`{table}`")) {
                missing.push(format!("`{table}` (created in {file})"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "docs/ARCHITECTURE.md, \"The data model\", does not describe these tables; add a line \
         for each under its migration saying what it holds:\n  {}",
        missing.join("\n  ")
    );
}

#[test]
fn tables_are_found_in_every_form_a_migration_writes() {
    let sql = "-- CREATE TABLE commented_out (id)\n\
               CREATE TABLE plain (id INTEGER);\n\
               create table if not exists guarded(id);\n\
               CREATE VIRTUAL TABLE fts USING fts5 (body);\n\
               CREATE INDEX not_a_table ON plain (id);";
    assert_eq!(created_tables(sql), ["plain", "guarded", "fts"]);
}

#[test]
fn the_parser_finds_the_tables_of_the_real_migrations() {
    let all = migrations();
    assert!(
        all.len() >= 9,
        "expected the migrations in src/store/schema, found {}",
        all.len()
    );
    let tables: Vec<String> = all
        .iter()
        .flat_map(|(_, sql)| created_tables(sql))
        .collect();
    for known in ["story_state", "search_index", "foundation", "plan_verdicts"] {
        assert!(
            tables.iter().any(|t| t == known),
            "the parser missed `{known}`"
        );
    }
}
