//! Why an import failed or stopped: a file that cannot be read or is not a manuscript, a
//! refused split, or a stop partway that a second run carries on from.

use crate::novel::NovelError;
use crate::store::StoreError;
use crate::tick::TickError;

#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    #[error("cannot read {path}: {source}")]
    Read {
        path: std::path::PathBuf,
        source: std::io::Error,
    },
    #[error("{0}")]
    Unsupported(String),
    #[error("{0}")]
    Refused(String),
    #[error(
        "the import stopped after {done} of {total} scenes; run it again to carry on from scene {}",
        done + 1
    )]
    Stopped {
        done: u32,
        total: u32,
        #[source]
        cause: TickError,
    },
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Novel(#[from] NovelError),
}
