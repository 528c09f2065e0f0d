//! The JSON columns: records keep their variable fields as JSON text, and a column that does
//! not parse names the record it belongs to.

use super::error::{StoreError, StoreResult};

/// Serializes a value for a JSON column.
pub(crate) fn to_json<T: serde::Serialize>(value: &T) -> StoreResult<String> {
    serde_json::to_string(value).map_err(|e| StoreError::Corrupt {
        id: "-".into(),
        message: e.to_string(),
    })
}

/// Parses a JSON column, naming the record if it is damaged.
pub(crate) fn from_json<T: serde::de::DeserializeOwned>(id: &str, text: &str) -> StoreResult<T> {
    serde_json::from_str(text).map_err(|e| StoreError::Corrupt {
        id: id.to_string(),
        message: e.to_string(),
    })
}
