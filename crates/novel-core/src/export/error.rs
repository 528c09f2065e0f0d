//! Why an export failed: the story could not be read, a format could not be rendered, or the
//! novel could not be opened. Every format's renderer returns it.

use crate::novel::NovelError;
use crate::store::StoreError;

#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("{0}")]
    Format(String),
    #[error(transparent)]
    Novel(#[from] NovelError),
}
