//! Items characters are known to have lost: every inventory change in the history log that
//! removed an item, unless a later change gave it back.

use rusqlite::Connection;

use crate::evaluate::LostItem;
use crate::model::Character;
use crate::store::{self, StoreResult};

pub fn lost_items(conn: &Connection, characters: &[Character]) -> StoreResult<Vec<LostItem>> {
    let mut lost = Vec::new();
    for c in characters {
        for h in store::history_of(conn, &c.id)?
            .iter()
            .filter(|h| h.field == "inventory")
        {
            let items = |v: &Option<serde_json::Value>| -> Vec<String> {
                v.as_ref()
                    .and_then(|v| v.as_array())
                    .map(|a| {
                        a.iter()
                            .filter_map(|i| i.as_str().map(str::to_string))
                            .collect()
                    })
                    .unwrap_or_default()
            };
            let (old, new) = (items(&h.old_value), items(&h.new_value));
            for item in old.iter().filter(|i| !new.contains(i)) {
                lost.push(LostItem {
                    character_id: c.id.clone(),
                    character_name: c.name.clone(),
                    item: item.clone(),
                    tick: h.tick,
                });
            }
        }
        // Whatever the character holds now was not lost for good.
        lost.retain(|l| l.character_id != c.id || !c.inventory.contains(&l.item));
    }
    Ok(lost)
}
