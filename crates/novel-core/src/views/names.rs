//! Display names of the story's characters and places by id: the one lookup the views share to
//! show a name wherever a record holds an id.

use std::collections::HashMap;

use rusqlite::Connection;

use crate::store::{self, StoreError};

/// Display names of every character and location by id, for resolving references.
pub(super) fn names(conn: &Connection) -> Result<HashMap<String, String>, StoreError> {
    store::display_names(conn)
}

pub(super) fn name_of(names: &HashMap<String, String>, id: Option<&str>) -> Option<String> {
    id.map(|id| names.get(id).cloned().unwrap_or_else(|| id.to_string()))
}
