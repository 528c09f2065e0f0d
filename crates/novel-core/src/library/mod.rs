//! The writer's library outside any one novel: the list of recently opened novels and the
//! "new novel" form, validated field by field before a novel directory is created.

mod form;
mod recent;

pub use form::{FieldError, NewNovelForm};
pub use recent::{RecentNovel, RecentNovels};
