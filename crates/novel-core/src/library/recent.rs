//! Recently opened novels, newest first, kept in `recent.json` in the app's config directory
//! (never inside a novel). A novel that has since moved or been deleted stays listed but is
//! marked missing, so the writer can see what happened and remove it.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::config::NovelConfig;
use crate::fsutil::write_atomic;
use crate::layout::CONFIG_FILE;

/// At most this many novels are remembered.
const KEEP: usize = 12;
const FILE: &str = "recent.json";

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct RecentNovel {
    pub path: String,
    pub title: String,
    pub opened_at: String,
    /// The folder is gone or is no longer a novel.
    #[serde(default)]
    pub missing: bool,
}

/// The list, bound to the file it lives in.
#[derive(Debug, Clone)]
pub struct RecentNovels {
    file: PathBuf,
}

impl RecentNovels {
    pub fn in_dir(config_dir: &Path) -> RecentNovels {
        RecentNovels {
            file: config_dir.join(FILE),
        }
    }

    /// The list with `missing` refreshed; an unreadable file counts as an empty list because
    /// it only ever holds convenience data.
    pub fn list(&self) -> Vec<RecentNovel> {
        let mut items: Vec<RecentNovel> = std::fs::read(&self.file)
            .ok()
            .and_then(|bytes| serde_json::from_slice(&bytes).ok())
            .unwrap_or_default();
        for item in &mut items {
            item.missing = !Path::new(&item.path).join(CONFIG_FILE).is_file();
        }
        items
    }

    /// Puts `dir` at the top of the list, with the title from its `novel.toml`.
    pub fn touch(&self, dir: &Path, config: &NovelConfig, now: &str) -> std::io::Result<()> {
        let path = dir.display().to_string();
        let mut items = self.list();
        items.retain(|i| i.path != path);
        items.insert(
            0,
            RecentNovel {
                path,
                title: config.novel.title.clone(),
                opened_at: now.to_string(),
                missing: false,
            },
        );
        items.truncate(KEEP);
        self.save(&items)
    }

    pub fn remove(&self, path: &str) -> std::io::Result<()> {
        let mut items = self.list();
        items.retain(|i| i.path != path);
        self.save(&items)
    }

    fn save(&self, items: &[RecentNovel]) -> std::io::Result<()> {
        if let Some(parent) = self.file.parent() {
            std::fs::create_dir_all(parent)?;
        }
        let json = serde_json::to_vec_pretty(items).map_err(std::io::Error::other)?;
        write_atomic(&self.file, &json)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::context::fixture;

    #[test]
    fn newest_first_without_duplicates_and_moved_novels_are_marked() {
        let config_dir = tempfile::tempdir().unwrap();
        let a = tempfile::tempdir().unwrap();
        let b = tempfile::tempdir().unwrap();
        let config = fixture::config();
        for dir in [a.path(), b.path()] {
            config.save(&dir.join(CONFIG_FILE)).unwrap();
        }
        let recent = RecentNovels::in_dir(config_dir.path());
        recent.touch(a.path(), &config, "t1").unwrap();
        recent.touch(b.path(), &config, "t2").unwrap();
        recent.touch(a.path(), &config, "t3").unwrap();
        let list = recent.list();
        assert_eq!(list.len(), 2);
        assert_eq!(list[0].path, a.path().display().to_string());
        assert_eq!(list[0].opened_at, "t3");
        std::fs::remove_file(b.path().join(CONFIG_FILE)).unwrap();
        assert!(recent.list()[1].missing);
        recent.remove(&list[1].path).unwrap();
        assert_eq!(recent.list().len(), 1);
    }
}
