//! No circles and no arrows up between the modules of every Rust crate in the workspace.
//!
//! Cargo keeps crates from depending on each other in a circle, and `layers.rs` keeps the
//! engine's layers pointing down; this test does the same inside each folder of every crate.
//! It reads the sources, resolves each `crate::`, `super::` and `self::` path (groups
//! included) to the module it names, and then, for every folder:
//!
//! - the modules directly in it must not use each other in a circle (a strongly connected
//!   component of more than one module fails), so each folder reads as a small stack;
//! - no module may use the items of a folder it sits in (`super::Type` from a step of `tick/`):
//!   a folder's `mod.rs` declares and re-exports its children, and what they share lives in a
//!   child of its own, below them.
//!
//! Tests (files named `tests.rs`, `tests_*.rs`, `fixture.rs`, and inline `#[cfg(test)]` modules)
//! may use anything.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Every crate whose modules are checked, by folder from the workspace root.
const CRATES: &[&str] = &[
    "crates/novel-core/src",
    "crates/novel-store/src",
    "crates/novel-llm/src",
    "crates/novel-embed/src",
    "crates/novel-cli/src",
    "crates/novel-test-server/src",
    "src-tauri/src",
];

/// A module's path from its crate root: `tick::planning` is `["tick", "planning"]`.
type ModPath = Vec<String>;

/// The product files of one crate with the module path each defines.
fn modules_of(src: &Path) -> BTreeMap<ModPath, PathBuf> {
    let mut out = BTreeMap::new();
    walk(src, src, &mut out);
    out
}

fn walk(src: &Path, dir: &Path, out: &mut BTreeMap<ModPath, PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            walk(src, &path, out);
            continue;
        }
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let is_test = name == "tests.rs"
            || name.starts_with("tests_")
            || name.ends_with("_tests.rs")
            || name == "fixture.rs";
        if !name.ends_with(".rs") || is_test {
            continue;
        }
        let rel = path.strip_prefix(src).unwrap();
        let mut segments: ModPath = rel
            .iter()
            .map(|s| s.to_string_lossy().trim_end_matches(".rs").to_string())
            .collect();
        if matches!(
            segments.last().map(String::as_str),
            Some("mod" | "lib" | "main")
        ) {
            segments.pop();
        }
        out.insert(segments, path);
    }
}

/// The code of a file without its comments and without the items marked `#[cfg(test)]`
/// (a test module inline or declared, a test-only helper).
fn product_code(text: &str) -> String {
    let code: String = text
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n");
    let mut out = String::new();
    let mut rest = code.as_str();
    while let Some(i) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..i]);
        rest = skip_item(&rest[i + "#[cfg(test)]".len()..]);
    }
    out.push_str(rest);
    out
}

/// The text after the item at the start of `text`: up to its `;`, or its balanced `{…}`.
fn skip_item(text: &str) -> &str {
    let mut depth = 0usize;
    for (i, c) in text.char_indices() {
        match c {
            ';' if depth == 0 => return &text[i + 1..],
            '{' => depth += 1,
            '}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return &text[i + 1..];
                }
            }
            _ => {}
        }
    }
    ""
}

/// Every path written after `crate::`, `super::` or `self::` in `code`, groups expanded, as the
/// module path it starts from plus its segments.
fn paths_used(code: &str, module: &[String]) -> Vec<ModPath> {
    let mut out = Vec::new();
    let bytes = code.as_bytes();
    for start in ["crate::", "super::", "self::"] {
        for (i, _) in code.match_indices(start) {
            let before = i.checked_sub(1).map(|j| bytes[j]);
            if before.is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b':') {
                continue;
            }
            // The module `self::` and `super::` are relative to: a folder's `mod.rs` is the
            // folder itself, a file `a/b.rs` is `a::b`.
            let mut base: ModPath = match start {
                "crate::" => Vec::new(),
                _ => module.to_vec(),
            };
            let mut rest = &code[i + start.len()..];
            if start == "super::" {
                base.pop();
                while let Some(r) = rest.strip_prefix("super::") {
                    base.pop();
                    rest = r;
                }
            }
            if rest.starts_with('*') {
                // `use super::*` sits in an inline module (a platform's code), whose `super` is
                // its own file: nothing of the folder is named.
                continue;
            }
            for tail in expand(rest) {
                let mut full = base.clone();
                full.extend(tail);
                out.push(full);
            }
        }
    }
    out
}

/// The paths of a use tree written at the start of `text`: `a::{b, c::{d, self}}` is
/// `a::b`, `a::c::d` and `a::c`.
fn expand(text: &str) -> Vec<ModPath> {
    let mut segments = Vec::new();
    let mut rest = text;
    loop {
        let name: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if name.is_empty() {
            if let Some(group) = rest.strip_prefix('{') {
                let mut out = Vec::new();
                for item in split_group(group) {
                    if item.trim().is_empty() {
                        continue; // after a trailing comma
                    }
                    for tail in expand(item.trim()) {
                        let mut full = segments.clone();
                        if tail.first().map(String::as_str) != Some("self") {
                            full.extend(tail);
                        }
                        out.push(full);
                    }
                }
                return out;
            }
            return vec![segments];
        }
        rest = &rest[name.len()..];
        segments.push(name);
        match rest.strip_prefix("::") {
            Some(r) => rest = r,
            None => return vec![segments],
        }
    }
}

/// The top-level items of a `{…}` group (the text after its opening brace).
fn split_group(group: &str) -> Vec<&str> {
    let mut items = Vec::new();
    let mut depth = 0;
    let mut from = 0;
    for (i, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => {
                items.push(&group[from..i]);
                return items;
            }
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(&group[from..i]);
                from = i + 1;
            }
            _ => {}
        }
    }
    items.push(&group[from..]);
    items
}

/// The deepest module `path` names (a path may go on into an item of that module).
fn module_named(path: &[String], modules: &BTreeMap<ModPath, PathBuf>) -> ModPath {
    (0..=path.len())
        .rev()
        .map(|n| path[..n].to_vec())
        .find(|p| modules.contains_key(p))
        .unwrap_or_default()
}

/// What one crate's sources break: circles between the modules of a folder, and modules using
/// the items of a folder they sit in.
fn problems_in(src: &Path) -> Vec<String> {
    let modules = modules_of(src);
    // Per folder: child → children it uses.
    let mut edges: BTreeMap<ModPath, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    let mut problems = Vec::new();
    let exports = reexports(&modules);
    for (module, file) in &modules {
        let code = product_code(&std::fs::read_to_string(file).unwrap());
        for path in paths_used(&code, module) {
            let target = module_named(&path, &modules);
            let common = module
                .iter()
                .zip(&target)
                .take_while(|(a, b)| a == b)
                .count();
            if target.len() == common {
                // The target is this module or a folder it sits in. A folder's `mod.rs` may
                // re-export its children's items; a path through it is an arrow to that child.
                if target.len() < module.len() && !target.is_empty() {
                    let item = path.get(target.len()).map(String::as_str).unwrap_or("");
                    match exports.get(&target).and_then(|e| e.get(item)) {
                        Some(child) if *child == module[common] => {}
                        Some(child) => {
                            edges
                                .entry(target.clone())
                                .or_default()
                                .entry(module[common].clone())
                                .or_default()
                                .insert(child.clone());
                        }
                        None => problems.push(format!(
                            "{} uses `{}`, an item of the folder it sits in (`{}`): move what \
                             the folder's modules share into a module of their own",
                            file.strip_prefix(src).unwrap().display(),
                            path.join("::"),
                            target.join("::"),
                        )),
                    }
                }
                continue;
            }
            if module.len() == common {
                continue; // down into its own children
            }
            edges
                .entry(module[..common].to_vec())
                .or_default()
                .entry(module[common].clone())
                .or_default()
                .insert(target[common].clone());
        }
    }
    for (folder, graph) in &edges {
        for component in circles(graph) {
            let prefix = if folder.is_empty() {
                String::new()
            } else {
                format!("{}::", folder.join("::"))
            };
            let names: Vec<String> = component.iter().map(|m| format!("{prefix}{m}")).collect();
            problems.push(format!(
                "{}: modules in a circle: {}",
                src.display(),
                names.join(" ↔ ")
            ));
        }
    }
    problems
}

/// For each folder, the items its `mod.rs` brings in from its own children (`pub use
/// child::{A, B}`, `use child::*`), by name → child.
fn reexports(modules: &BTreeMap<ModPath, PathBuf>) -> BTreeMap<ModPath, BTreeMap<String, String>> {
    let mut out: BTreeMap<ModPath, BTreeMap<String, String>> = BTreeMap::new();
    for (module, file) in modules {
        if file.file_name().is_none_or(|n| n != "mod.rs") {
            continue;
        }
        let code = product_code(&std::fs::read_to_string(file).unwrap());
        let names = out.entry(module.clone()).or_default();
        for statement in use_statements(&code) {
            let statement = statement.as_str();
            let Some(tree) = statement
                .strip_prefix("pub use ")
                .or_else(|| statement.strip_prefix("pub(crate) use "))
                .or_else(|| statement.strip_prefix("pub(super) use "))
                .or_else(|| statement.strip_prefix("use "))
            else {
                continue;
            };
            let tree = tree.trim_start_matches("self::");
            for path in expand_with_aliases(tree) {
                let Some(child) = path.first() else { continue };
                let mut child_path = module.clone();
                child_path.push(child.clone());
                if !modules.contains_key(&child_path) {
                    continue;
                }
                match path.last().map(String::as_str) {
                    Some("*") => {
                        for name in items_defined(&modules[&child_path]) {
                            names.entry(name).or_insert_with(|| child.clone());
                        }
                    }
                    Some(name) => {
                        names.insert(name.to_string(), child.clone());
                    }
                    None => {}
                }
            }
        }
    }
    out
}

/// The `use` statements at the start of a line, each joined onto one line.
fn use_statements(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current: Option<String> = None;
    for line in code.lines() {
        let trimmed = line.trim();
        if current.is_none()
            && (trimmed.starts_with("use ")
                || trimmed.starts_with("pub use ")
                || trimmed.starts_with("pub(crate) use ")
                || trimmed.starts_with("pub(super) use "))
        {
            current = Some(String::new());
        }
        if let Some(statement) = current.as_mut() {
            statement.push_str(trimmed);
            statement.push(' ');
            if trimmed.ends_with(';') {
                out.push(statement.trim().trim_end_matches(';').to_string());
                current = None;
            }
        }
    }
    out
}

/// [`expand`] for a `use` tree that may end in `*` or rename with `as`: the last segment is
/// the name the item is known by.
fn expand_with_aliases(tree: &str) -> Vec<ModPath> {
    let tree = tree.replace(" as ", " @ ");
    let tree = tree.replace('*', "__glob__");
    expand_aliased(&tree)
        .into_iter()
        .map(|p| {
            p.into_iter()
                .map(|s| if s == "__glob__" { "*".to_string() } else { s })
                .collect()
        })
        .collect()
}

/// [`expand`], keeping `a @ b` (a rename) as `b` in the last segment.
fn expand_aliased(text: &str) -> Vec<ModPath> {
    let mut out = Vec::new();
    for mut path in expand(text) {
        let rest_has_alias = text.contains('@');
        if rest_has_alias && let Some(last) = path.last().cloned() {
            // Find "last @ alias" in the text and use the alias.
            let pattern = format!("{last} @ ");
            if let Some(i) = text.find(&pattern) {
                let alias: String = text[i + pattern.len()..]
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if !alias.is_empty() {
                    path.pop();
                    path.push(alias);
                }
            }
        }
        out.push(path);
    }
    out
}

/// The names a file defines at its top level (`pub fn x`, `struct Y`, `macro_rules! z`, …).
fn items_defined(file: &Path) -> Vec<String> {
    let code = product_code(&std::fs::read_to_string(file).unwrap());
    let mut out = Vec::new();
    for line in code.lines() {
        let mut words = line
            .split(|c: char| c.is_whitespace() || c == '(' || c == '<' || c == ':' || c == '!')
            .filter(|w| !w.is_empty());
        let mut prev = "";
        for word in words.by_ref() {
            if prev == "const" && word == "fn" {
                prev = word;
                continue;
            }
            if matches!(
                prev,
                "fn" | "struct"
                    | "enum"
                    | "type"
                    | "trait"
                    | "const"
                    | "static"
                    | "mod"
                    | "macro_rules"
            ) {
                out.push(word.trim_end_matches(['{', ';', ',']).to_string());
                break;
            }
            if !matches!(
                word,
                "pub"
                    | "pub(crate)"
                    | "pub(super)"
                    | "crate)"
                    | "super)"
                    | "async"
                    | "unsafe"
                    | "const"
                    | "fn"
                    | "struct"
                    | "enum"
                    | "type"
                    | "trait"
                    | "static"
                    | "mod"
                    | "macro_rules"
            ) {
                break;
            }
            prev = word;
        }
    }
    out
}

/// The strongly connected components of more than one node (Tarjan's algorithm).
fn circles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct State<'a> {
        graph: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on_stack: BTreeSet<&'a str>,
        out: Vec<Vec<String>>,
    }
    fn visit<'a>(s: &mut State<'a>, node: &'a str) {
        let n = s.index.len();
        s.index.insert(node, n);
        s.low.insert(node, n);
        s.stack.push(node);
        s.on_stack.insert(node);
        if let Some(next) = s.graph.get(node) {
            for m in next {
                let m = m.as_str();
                if !s.index.contains_key(m) {
                    visit(s, m);
                    let low = s.low[m].min(s.low[node]);
                    s.low.insert(node, low);
                } else if s.on_stack.contains(m) {
                    let low = s.index[m].min(s.low[node]);
                    s.low.insert(node, low);
                }
            }
        }
        if s.low[node] == s.index[node] {
            let mut component = Vec::new();
            while let Some(m) = s.stack.pop() {
                s.on_stack.remove(m);
                component.push(m.to_string());
                if m == node {
                    break;
                }
            }
            if component.len() > 1 {
                component.sort();
                s.out.push(component);
            }
        }
    }
    let mut s = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        out: Vec::new(),
    };
    for node in graph.keys() {
        if !s.index.contains_key(node.as_str()) {
            visit(&mut s, node);
        }
    }
    s.out
}

#[test]
fn no_crate_has_modules_in_a_circle_or_using_their_folder() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut problems = Vec::new();
    for krate in CRATES {
        problems.extend(problems_in(&root.join(krate)));
    }
    assert!(
        problems.is_empty(),
        "{} module problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn the_checker_finds_a_circle_and_an_arrow_up() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path();
    std::fs::create_dir_all(src.join("tick")).unwrap();
    std::fs::write(src.join("lib.rs"), "pub mod tick;\npub mod store;").unwrap();
    std::fs::write(src.join("store.rs"), "use crate::tick::Outcome;").unwrap();
    std::fs::write(
        src.join("tick/mod.rs"),
        "mod plan;\nmod write;\npub struct Models;\nuse crate::store::Store;",
    )
    .unwrap();
    std::fs::write(
        src.join("tick/plan.rs"),
        "use super::{write::draft, Models};\n#[cfg(test)]\nmod tests { use super::super::*; }",
    )
    .unwrap();
    std::fs::write(
        src.join("tick/write.rs"),
        "use crate::tick::{plan::{self}};",
    )
    .unwrap();
    let problems = problems_in(src);
    let text = problems.join("\n");
    assert_eq!(problems.len(), 3, "{text}");
    assert!(text.contains("store ↔ tick"), "{text}");
    assert!(text.contains("tick::plan ↔ tick::write"), "{text}");
    assert!(text.contains("`tick::Models`"), "{text}");
}

#[test]
fn use_trees_expand_to_every_path() {
    let paths: Vec<String> = expand("a::{b, c::{d, self}, e::F,\n}")
        .into_iter()
        .map(|p| p.join("::"))
        .collect();
    assert_eq!(paths, ["a::b", "a::c::d", "a::c", "a::e::F"]);
}
