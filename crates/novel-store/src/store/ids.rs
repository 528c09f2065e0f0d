//! Minting of entity ids from the per-prefix counters.

use rusqlite::{Transaction, params};

use super::error::StoreResult;
use crate::ids::{EntityId, EntityKind};

/// The next unused id of `kind` (`C0`, `C1`, …). Ids are never reused, even after a rollback
/// the counter moves back with the transaction, so a failed tick leaves no gap either.
pub fn mint_id(tx: &Transaction<'_>, kind: EntityKind) -> StoreResult<EntityId> {
    let prefix = kind.prefix().to_string();
    let next: u32 = tx.query_row(
        "INSERT INTO id_counters (prefix, next) VALUES (?1, 1)
         ON CONFLICT (prefix) DO UPDATE SET next = next + 1
         RETURNING next - 1",
        params![prefix],
        |row| row.get(0),
    )?;
    Ok(EntityId::new(kind, next))
}
