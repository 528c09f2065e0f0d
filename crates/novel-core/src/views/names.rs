//! A name for an id the views show: the record's name from `store::display_names`, or the id
//! itself when the record is gone.

use std::collections::HashMap;

pub(super) fn name_of(names: &HashMap<String, String>, id: Option<&str>) -> Option<String> {
    id.map(|id| names.get(id).cloned().unwrap_or_else(|| id.to_string()))
}
