//! Where the model files are. Two things are needed: the ONNX Runtime library
//! (`libonnxruntime.so.1.31.1`) and the model folder (`model.onnx` plus the tokenizer's JSON
//! files). `scripts/fetch-embedding-model.sh` puts both under one `models/` folder:
//!
//! ```text
//! models/onnxruntime/libonnxruntime.so.1.31.1
//! models/all-MiniLM-L6-v2/{model.onnx, tokenizer.json, config.json, special_tokens_map.json, tokenizer_config.json}
//! ```
//!
//! Lookup order: `ORT_DYLIB_PATH` (the library file) and `NOVEL_EMBEDDING_MODEL_DIR` (the model
//! folder) when set; otherwise the first `models/` folder that has them among `NOVEL_MODELS_DIR`,
//! the installed app's own (its package ships one: see [`use_bundled_models`]), and the user's
//! data folder (`$XDG_DATA_HOME/novel-agent/models`, default `~/.local/share/novel-agent/models`).
//! A development build also looks in `models/` next to the executable or in one of its parent
//! folders (`target/debug/…` inside a checkout) and in the checkout it was built from; a
//! release build does not (run it with `NOVEL_MODELS_DIR=$PWD/models` inside a checkout).

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

pub const RUNTIME_ENV: &str = "ORT_DYLIB_PATH";
pub const MODEL_DIR_ENV: &str = "NOVEL_EMBEDDING_MODEL_DIR";
pub const MODELS_DIR_ENV: &str = "NOVEL_MODELS_DIR";

/// The runtime library's file name as the fetch script installs it.
pub const RUNTIME_FILE: &str = "libonnxruntime.so.1.31.1";
pub const RUNTIME_SUBDIR: &str = "onnxruntime";
pub const MODEL_SUBDIR: &str = "all-MiniLM-L6-v2";

/// The files a model folder must hold.
pub const MODEL_FILES: [&str; 5] = [
    "model.onnx",
    "tokenizer.json",
    "config.json",
    "special_tokens_map.json",
    "tokenizer_config.json",
];

static BUNDLED: OnceLock<PathBuf> = OnceLock::new();

/// The `models/` folder an installed app ships with it (the desktop app's resource folder),
/// looked in right after `NOVEL_MODELS_DIR`. Set once, before the model is first loaded; a
/// later call changes nothing.
pub fn use_bundled_models(dir: PathBuf) {
    let _ = BUNDLED.set(dir);
}

/// The two paths the real embedder loads from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelFiles {
    pub runtime: PathBuf,
    pub model_dir: PathBuf,
}

/// What was looked for and not found, in words a person can act on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Missing {
    Runtime { looked_in: Vec<PathBuf> },
    Model { looked_in: Vec<PathBuf> },
}

impl std::fmt::Display for Missing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let list = |paths: &[PathBuf]| {
            paths
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        };
        match self {
            Missing::Runtime { looked_in } => write!(
                f,
                "ONNX Runtime ({RUNTIME_FILE}) was not found (looked at {})",
                list(looked_in)
            ),
            Missing::Model { looked_in } => write!(
                f,
                "the all-MiniLM-L6-v2 model files were not found (looked in {})",
                list(looked_in)
            ),
        }
    }
}

/// Where to look, gathered from the process (environment, executable path, home folder).
#[derive(Debug, Clone, Default)]
pub struct SearchPaths {
    pub runtime_override: Option<PathBuf>,
    pub model_dir_override: Option<PathBuf>,
    /// `models/` folders, in order of preference.
    pub model_roots: Vec<PathBuf>,
}

impl SearchPaths {
    /// The places this process would look, in order.
    pub fn from_process() -> SearchPaths {
        let env_path = |name: &str| {
            std::env::var_os(name)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        };
        let exe_dir = std::env::current_exe()
            .ok()
            .and_then(|e| e.parent().map(Path::to_path_buf));
        let data =
            env_path("XDG_DATA_HOME").or_else(|| env_path("HOME").map(|h| h.join(".local/share")));
        SearchPaths {
            runtime_override: env_path(RUNTIME_ENV),
            model_dir_override: env_path(MODEL_DIR_ENV),
            model_roots: model_roots(
                env_path(MODELS_DIR_ENV),
                BUNDLED.get().cloned(),
                exe_dir.as_deref(),
                data.as_deref(),
                cfg!(debug_assertions),
            ),
        }
    }

    /// The first runtime library and model folder that exist.
    pub fn find(&self) -> Result<ModelFiles, Missing> {
        let runtimes: Vec<PathBuf> = match &self.runtime_override {
            Some(p) => vec![p.clone()],
            None => self
                .model_roots
                .iter()
                .map(|r| r.join(RUNTIME_SUBDIR).join(RUNTIME_FILE))
                .collect(),
        };
        let runtime = runtimes
            .iter()
            .find(|p| p.is_file())
            .cloned()
            .ok_or_else(|| Missing::Runtime {
                looked_in: runtimes.clone(),
            })?;
        let model_dirs: Vec<PathBuf> = match &self.model_dir_override {
            Some(p) => vec![p.clone()],
            None => self
                .model_roots
                .iter()
                .map(|r| r.join(MODEL_SUBDIR))
                .collect(),
        };
        let model_dir =
            model_dirs
                .iter()
                .find(|d| is_model_dir(d))
                .cloned()
                .ok_or(Missing::Model {
                    looked_in: model_dirs,
                })?;
        Ok(ModelFiles {
            runtime: clean(runtime),
            model_dir: clean(model_dir),
        })
    }
}

/// The `models/` folders to look in, in order: `NOVEL_MODELS_DIR`, the app's bundled folder,
/// and the user's data folder. A development build (`debug_assertions`) also looks next to the
/// executable and in its parent folders and in the checkout it was built from; a release build
/// never does, since a library found there (a folder anyone could put beside the executable,
/// or a path of the build machine baked in at compile time) would be loaded into the process.
fn model_roots(
    models_env: Option<PathBuf>,
    bundled: Option<PathBuf>,
    exe_dir: Option<&Path>,
    data_dir: Option<&Path>,
    development: bool,
) -> Vec<PathBuf> {
    let mut roots: Vec<PathBuf> = models_env.into_iter().chain(bundled).collect();
    if development {
        if let Some(exe_dir) = exe_dir {
            // target/debug/deps/x → the checkout's models/ is four levels up at most.
            roots.extend(exe_dir.ancestors().take(5).map(|d| d.join("models")));
        }
        // The checkout this binary was built from, for `cargo run` and tests elsewhere.
        roots.push(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models"));
    }
    if let Some(data) = data_dir {
        roots.push(data.join("novel-agent/models"));
    }
    let mut unique: Vec<PathBuf> = Vec::new();
    for root in roots {
        if !unique.contains(&root) {
            unique.push(root);
        }
    }
    unique
}

fn is_model_dir(dir: &Path) -> bool {
    MODEL_FILES.iter().all(|f| dir.join(f).is_file())
}

/// `a/b/../c` → `a/c` where the file system agrees, for messages people read.
fn clean(path: PathBuf) -> PathBuf {
    path.canonicalize().unwrap_or(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write_model(dir: &Path) {
        std::fs::create_dir_all(dir).unwrap();
        for f in MODEL_FILES {
            std::fs::write(dir.join(f), b"{}").unwrap();
        }
    }

    #[test]
    fn finds_the_first_root_that_holds_both_files_and_says_what_is_missing() {
        let tmp = tempfile::tempdir().unwrap();
        let empty = tmp.path().join("empty");
        let full = tmp.path().join("full");
        std::fs::create_dir_all(full.join(RUNTIME_SUBDIR)).unwrap();
        std::fs::write(full.join(RUNTIME_SUBDIR).join(RUNTIME_FILE), b"").unwrap();
        write_model(&full.join(MODEL_SUBDIR));

        let paths = SearchPaths {
            model_roots: vec![empty.clone(), full.clone()],
            ..SearchPaths::default()
        };
        let found = paths.find().unwrap();
        assert_eq!(
            found.runtime,
            full.join(RUNTIME_SUBDIR)
                .join(RUNTIME_FILE)
                .canonicalize()
                .unwrap()
        );
        assert_eq!(
            found.model_dir,
            full.join(MODEL_SUBDIR).canonicalize().unwrap()
        );

        let only_empty = SearchPaths {
            model_roots: vec![empty.clone()],
            ..SearchPaths::default()
        };
        let missing = only_empty.find().unwrap_err();
        assert!(missing.to_string().contains("ONNX Runtime"), "{missing}");
        assert!(missing.to_string().contains(&empty.display().to_string()));
    }

    #[test]
    fn a_release_build_looks_only_in_the_named_bundled_and_data_folders() {
        let exe = Path::new("/opt/untrusted/bin");
        let data = Path::new("/home/u/.local/share");
        let release = model_roots(
            Some(PathBuf::from("/env/models")),
            Some(PathBuf::from("/usr/lib/novel-agent/models")),
            Some(exe),
            Some(data),
            false,
        );
        assert_eq!(
            release,
            [
                PathBuf::from("/env/models"),
                PathBuf::from("/usr/lib/novel-agent/models"),
                data.join("novel-agent/models"),
            ]
        );
        let checkout = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models");
        assert!(!release.contains(&checkout));
        assert!(!release.iter().any(|r| r.starts_with("/opt")));

        let development = model_roots(None, None, Some(exe), Some(data), true);
        assert!(development.contains(&PathBuf::from("/opt/untrusted/models")));
        assert!(development.contains(&checkout));
        assert_eq!(development.last(), Some(&data.join("novel-agent/models")));
    }

    #[test]
    fn overrides_win_and_an_incomplete_model_folder_does_not_count() {
        let tmp = tempfile::tempdir().unwrap();
        let lib = tmp.path().join("libort.so");
        std::fs::write(&lib, b"").unwrap();
        let partial = tmp.path().join("partial");
        std::fs::create_dir_all(&partial).unwrap();
        std::fs::write(partial.join("model.onnx"), b"").unwrap();
        let paths = SearchPaths {
            runtime_override: Some(lib.clone()),
            model_dir_override: Some(partial.clone()),
            model_roots: vec![],
        };
        let missing = paths.find().unwrap_err();
        assert_eq!(
            missing,
            Missing::Model {
                looked_in: vec![partial.clone()]
            }
        );
        write_model(&partial);
        assert_eq!(
            paths.find().unwrap().model_dir,
            partial.canonicalize().unwrap()
        );
    }
}
