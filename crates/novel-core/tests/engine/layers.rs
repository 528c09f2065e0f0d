//! The engine's modules form layers (see `src/lib.rs` and `docs/ARCHITECTURE.md`): a module
//! may use modules of its own layer or below, never above. Layers 0 and 1 are the
//! `novel-store` crate, whose modules keep their `crate::` paths in this one. This test reads
//! the sources of both crates and fails on an upward `crate::` path in product code (tests may
//! use anything). `modules.rs` checks the folders inside each module for circles.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Each top-level module's layer, lowest first. A new module must be placed here.
const LAYERS: &[(&str, u8)] = &[
    ("clock", 0),
    ("config", 0),
    ("diff", 0),
    ("fsutil", 0),
    ("ids", 0),
    ("layout", 0),
    ("lock", 0),
    ("merge", 0),
    ("model", 0),
    ("schema", 0),
    ("specta_types", 0),
    ("text", 0),
    ("store", 1),
    ("branches", 2),
    ("evaluate", 2),
    ("memory", 2),
    ("retrieval", 2),
    ("backup", 3),
    ("files", 3),
    ("novel", 3),
    ("reconcile", 3),
    ("tools", 3),
    ("executor", 4),
    ("plan", 4),
    ("context", 5),
    ("prompts", 5),
    ("tick", 6),
    ("audit", 7),
    ("backups", 7),
    ("bible", 7),
    ("chapters", 7),
    ("checks", 7),
    ("control", 7),
    ("edits", 7),
    ("export", 7),
    ("import", 7),
    ("library", 7),
    ("rename", 7),
    ("role_models", 7),
    ("run", 7),
    ("shape", 7),
    ("seed", 7),
    ("synthetic", 7),
    ("views", 7),
];

fn layer_of(module: &str) -> Option<u8> {
    LAYERS.iter().find(|(m, _)| *m == module).map(|(_, l)| *l)
}

/// Source files of product code, by top-level module.
fn product_files(src: &Path) -> BTreeMap<String, Vec<PathBuf>> {
    let mut out: BTreeMap<String, Vec<PathBuf>> = BTreeMap::new();
    for entry in std::fs::read_dir(src).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        if name == "lib" {
            continue;
        }
        let mut files = Vec::new();
        collect(&path, &mut files);
        out.entry(name).or_default().extend(files);
    }
    out
}

fn collect(path: &Path, files: &mut Vec<PathBuf>) {
    if path.is_dir() {
        for entry in std::fs::read_dir(path).unwrap() {
            collect(&entry.unwrap().path(), files);
        }
        return;
    }
    let name = path.file_name().unwrap().to_string_lossy();
    let is_test = name == "tests.rs" || name.starts_with("tests_") || name == "fixture.rs";
    if name.ends_with(".rs") && !is_test {
        files.push(path.to_path_buf());
    }
}

/// The code of a file without its inline test module and without comments.
fn product_code(text: &str) -> String {
    let code = match text.find("#[cfg(test)]") {
        Some(i) => &text[..i],
        None => text,
    };
    code.lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every top-level module named by a `crate::` path, including `use crate::{a, b::c}`.
fn modules_used(code: &str) -> BTreeSet<String> {
    let mut used = BTreeSet::new();
    for (i, _) in code.match_indices("crate::") {
        let rest = &code[i + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 0;
            let mut item = String::new();
            for c in group.chars() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        used.insert(head(&item));
                        item.clear();
                        continue;
                    }
                    _ => {}
                }
                item.push(c);
            }
            used.insert(head(&item));
        } else {
            used.insert(head(rest));
        }
    }
    used.remove("");
    used
}

fn head(path: &str) -> String {
    path.trim()
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect()
}

#[test]
fn imports_point_down_the_layers() {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut problems = Vec::new();
    for src in [manifest.join("src"), manifest.join("../novel-store/src")] {
        check_crate(&src, &mut problems);
    }
    assert!(
        problems.is_empty(),
        "upward imports:\n{}",
        problems.join("\n")
    );
}

fn check_crate(src: &Path, problems: &mut Vec<String>) {
    for (module, files) in product_files(src) {
        let Some(own) = layer_of(&module) else {
            problems.push(format!(
                "module `{module}` has no layer in tests/engine/layers.rs"
            ));
            continue;
        };
        for file in files {
            let code = product_code(&std::fs::read_to_string(&file).unwrap());
            for used in modules_used(&code) {
                if used == module {
                    continue;
                }
                match layer_of(&used) {
                    Some(layer) if layer > own => problems.push(format!(
                        "{} (layer {own}) uses crate::{used} (layer {layer})",
                        file.strip_prefix(src).unwrap().display()
                    )),
                    Some(_) => {}
                    None => problems.push(format!(
                        "{} uses crate::{used}, which has no layer",
                        file.strip_prefix(src).unwrap().display()
                    )),
                }
            }
        }
    }
}

#[test]
fn the_checker_sees_grouped_and_nested_paths() {
    let code = "use crate::{store::{self, Store}, model::Scene};\nlet x = crate::tick::run();";
    let used: Vec<String> = modules_used(code).into_iter().collect();
    assert_eq!(used, ["model", "store", "tick"]);
    assert_eq!(
        product_code("use crate::a;\n// crate::b\n#[cfg(test)]\nmod tests { use crate::c; }"),
        "use crate::a;"
    );
}

/// The engine's modules a front may name: layer 7 and the plain data of layer 0. The rest are
/// private outside the `test-support` feature; as the fronts' own tests turn that feature on for
/// every build of theirs, this test keeps their product code honest under it too.
fn front_may_use(module: &str) -> bool {
    matches!(
        module,
        "clock" | "config" | "diff" | "ids" | "layout" | "model" | "text"
    ) || layer_of(module) == Some(7)
}

#[test]
fn the_fronts_name_only_the_top_layer_and_plain_data() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut problems = Vec::new();
    for front in ["crates/novel-cli/src", "src-tauri/src"] {
        let mut files = Vec::new();
        collect(&root.join(front), &mut files);
        for file in files {
            let code = product_code(&std::fs::read_to_string(&file).unwrap());
            for (i, _) in code.match_indices("novel_core::") {
                let module = head(&code[i + "novel_core::".len()..]);
                // A module's name is lower case; `novel_core::LockError::Held` names an item.
                let is_module = module.starts_with(|c: char| c.is_ascii_lowercase())
                    && code[i + "novel_core::".len() + module.len()..].starts_with("::");
                if is_module && !front_may_use(&module) {
                    problems.push(format!("{} uses novel_core::{module}", file.display()));
                }
            }
        }
    }
    assert!(
        problems.is_empty(),
        "fronts reaching the engine's inner layers:\n{}",
        problems.join("\n")
    );
}
