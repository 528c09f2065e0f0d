//! The story's history as the reader shows it: every branch with the scene it ends on, and the
//! word-level difference between two versions of a scene (computed here, so a front end only
//! paints the runs).

use rusqlite::Connection;
use serde::Serialize;

use crate::branches::{self, BranchError};
use crate::diff::{DiffRun, word_diff};
use crate::store;

/// A branch in the branches panel.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct BranchRow {
    pub name: String,
    pub current: bool,
    /// The scene its latest state ends with (0: before the first scene).
    pub tick: u32,
    /// That scene's title on this branch, when it has one.
    pub last_title: Option<String>,
    pub created_at: String,
}

/// Every branch, oldest first, with the title of the scene each one ends on.
pub fn branches(conn: &Connection) -> Result<Vec<BranchRow>, BranchError> {
    branches::list_branches(conn)?
        .into_iter()
        .map(|b| {
            let last_title = if b.tick > 0 {
                branches::scene_on_branch(conn, &b.name, b.tick)?.map(|v| v.title)
            } else {
                None
            };
            Ok(BranchRow {
                name: b.name,
                current: b.current,
                tick: b.tick,
                last_title,
                created_at: b.created_at,
            })
        })
        .collect()
}

/// The difference from version `old` to version `new` of a scene, word by word.
pub fn version_diff(
    conn: &Connection,
    old: i64,
    new: i64,
) -> Result<Vec<DiffRun>, store::StoreError> {
    let old = store::get_version(conn, old)?;
    let new = store::get_version(conn, new)?;
    Ok(word_diff(&old.prose, &new.prose))
}
