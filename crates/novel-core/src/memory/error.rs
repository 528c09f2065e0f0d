//! What can go wrong when the memory is asked to change.

use crate::ids::{EntityKind, InvalidId};
use crate::store::StoreError;

#[derive(Debug, thiserror::Error)]
pub enum MemoryError {
    #[error(transparent)]
    InvalidId(#[from] InvalidId),
    #[error("{kind} {id} does not exist")]
    NotFound { kind: EntityKind, id: String },
    #[error("invalid change to {id}: field `{field}`: {message}")]
    InvalidField {
        id: String,
        field: String,
        message: String,
    },
    #[error("{0}")]
    Invalid(String),
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl From<rusqlite::Error> for MemoryError {
    fn from(e: rusqlite::Error) -> Self {
        MemoryError::Store(StoreError::Sqlite(e))
    }
}
