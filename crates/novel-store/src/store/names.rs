//! Display names of the story's characters and places by id: how every reader that shows a
//! record's references (the views, the review's change lines) turns an id into a name.

use std::collections::HashMap;

use rusqlite::Connection;

use super::error::StoreError;
use super::{list_characters, list_locations};

/// Display names of every character and location by id.
pub fn display_names(conn: &Connection) -> Result<HashMap<String, String>, StoreError> {
    let mut map: HashMap<String, String> = list_characters(conn)?
        .into_iter()
        .map(|c| (c.id, c.name))
        .collect();
    map.extend(list_locations(conn)?.into_iter().map(|l| (l.id, l.name)));
    Ok(map)
}
