//! Every connection to a `novel.db` is hardened before its first statement, because the file
//! may come from someone else (a shared novel folder, a backup from elsewhere): defensive mode
//! (`SQLITE_DBCONFIG_DEFENSIVE`: no `writable_schema`, no `journal_mode=OFF`, no writes to
//! shadow tables — ordinary SQL cannot corrupt the file) and `trusted_schema=OFF` (triggers,
//! views and defaults in the file's schema may only call functions and virtual tables marked
//! harmless, so a hostile schema cannot make our own statements run something else).

use rusqlite::Connection;
use rusqlite::config::DbConfig;

/// Turns on defensive mode and stops trusting the schema, on `conn` just opened.
pub fn harden(conn: &Connection) -> rusqlite::Result<()> {
    conn.set_db_config(DbConfig::SQLITE_DBCONFIG_DEFENSIVE, true)?;
    conn.set_db_config(DbConfig::SQLITE_DBCONFIG_TRUSTED_SCHEMA, false)?;
    conn.pragma_update(None, "trusted_schema", "OFF")?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn is_hardened(conn: &Connection) -> bool {
        let trusted: i64 = conn
            .query_row("PRAGMA trusted_schema", [], |r| r.get(0))
            .unwrap();
        let defensive = conn.db_config(DbConfig::SQLITE_DBCONFIG_DEFENSIVE).unwrap();
        trusted == 0 && defensive
    }

    #[test]
    fn every_connection_the_store_opens_is_hardened() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("novel.db");
        let store = crate::store::Store::open(&path, true).unwrap();
        assert!(is_hardened(store.conn()), "for writing");
        drop(store);
        let reader = crate::store::Store::open_read_only(&path).unwrap();
        assert!(is_hardened(reader.conn()), "for reading");
        drop(reader);
        let store = crate::store::Store::open(&path, false).unwrap();
        assert!(is_hardened(store.conn()), "an existing file");
        // What defensive mode stops: a statement rewriting the schema the file holds.
        store
            .conn()
            .execute_batch("PRAGMA writable_schema = ON;")
            .unwrap();
        assert!(
            store
                .conn()
                .execute(
                    "UPDATE sqlite_master SET sql = sql WHERE type = 'table'",
                    []
                )
                .is_err()
        );
    }

    #[test]
    fn a_hardened_connection_refuses_schema_writes() {
        let dir = tempfile::tempdir().unwrap();
        let conn = Connection::open(dir.path().join("x.db")).unwrap();
        harden(&conn).unwrap();
        let trusted: i64 = conn
            .query_row("PRAGMA trusted_schema", [], |r| r.get(0))
            .unwrap();
        assert_eq!(trusted, 0);
        assert!(
            conn.set_db_config(DbConfig::SQLITE_DBCONFIG_DEFENSIVE, true)
                .unwrap()
        );
        // Defensive mode: writable_schema has no effect, so sqlite_master stays read-only.
        conn.execute_batch("CREATE TABLE t(a); PRAGMA writable_schema = ON;")
            .unwrap();
        assert!(
            conn.execute("UPDATE sqlite_master SET sql = 'x' WHERE name = 't'", [])
                .is_err()
        );
    }
}
