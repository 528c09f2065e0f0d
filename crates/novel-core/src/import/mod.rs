//! Import: a novel continued from an existing manuscript (Markdown, plain text or DOCX). [`start`]
//! splits the manuscript into chapters and scenes (see [`parse`]) and stores that split as
//! bookkeeping; [`resume`] then adopts the scenes one by one, in order, as ticks (one
//! extraction call each: characters, places, relationships, loops, summary), each scene's
//! progress mark and its chapter written in the transaction that commits it. Stopped at any
//! point (a cancel, a failed call, a crash), `resume` carries on from the first scene not in
//! the story, so no scene is ever imported twice or lost.

pub mod bounds;
mod docx;
mod error;
mod headings;
pub mod parse;
pub mod preview;
pub mod proposals;
pub mod structure;
mod unwrap;

use std::path::Path;

use rusqlite::Transaction;

use crate::clock::{Clock, timestamp};
use crate::novel::Novel;
use crate::store::{self, ChapterRow, ImportJob, ImportScene, StoreError, TitledBy};
use crate::tick::{CancelToken, Models, TickObserver, WrittenScene, adopt_scene};
pub use error::ImportError;
pub use parse::{Manuscript, ManuscriptChapter, ManuscriptScene, parse_markdown};
pub use preview::{ImportPreview, ImportShape, ShapedChapter, apply_shape, preview};
pub use proposals::Proposals;
pub use structure::find_structure as parse_text;

/// How far an import is.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ImportProgress {
    pub source: String,
    pub done: u32,
    pub total: u32,
    pub finished: bool,
}

/// Reads a manuscript file: `.md`/`.markdown` as Markdown, `.txt`/`.text` as plain text,
/// `.docx` by its paragraph styles.
pub fn read_manuscript(path: &Path) -> Result<(Manuscript, &'static str), ImportError> {
    let ext = path
        .extension()
        .map(|e| e.to_string_lossy().to_lowercase())
        .unwrap_or_default();
    let format = match ext.as_str() {
        "md" | "markdown" => "markdown",
        "txt" | "text" => "text",
        "docx" => "docx",
        other => {
            return Err(ImportError::Unsupported(format!(
                "{} is not a manuscript this version can import (.{other}); save it as Markdown (.md), plain text (.txt) or Word (.docx)",
                path.display()
            )));
        }
    };
    let bytes = read_bounded(path)?;
    let manuscript = if format == "docx" {
        docx::parse_docx(&bytes).map_err(|e| {
            ImportError::Unsupported(format!(
                "{} is {e}; open it in a word processor and save it again as .docx, .md or .txt",
                path.display()
            ))
        })?
    } else {
        let text = String::from_utf8(bytes).map_err(|_| {
            ImportError::Unsupported(format!(
                "{} is not UTF-8 text; save it as UTF-8 and import again",
                path.display()
            ))
        })?;
        if format == "markdown" {
            parse_markdown(&text)
        } else {
            parse_text(&text)
        }
    };
    if manuscript.scene_count() == 0 {
        return Err(ImportError::Refused(format!(
            "{} holds no prose to import",
            path.display()
        )));
    }
    Ok((manuscript, format))
}

/// The bytes of `path`, refused when it is larger than any manuscript
/// ([`bounds::MAX_FILE_BYTES`]); the size is checked as it is read, not only beforehand.
fn read_bounded(path: &Path) -> Result<Vec<u8>, ImportError> {
    use std::io::Read;
    let read_err = |source| ImportError::Read {
        path: path.to_path_buf(),
        source,
    };
    let file = std::fs::File::open(path).map_err(read_err)?;
    let declared = file.metadata().map_err(read_err)?.len();
    let mut bytes = Vec::new();
    if declared <= bounds::MAX_FILE_BYTES {
        file.take(bounds::MAX_FILE_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(read_err)?;
    }
    if declared > bounds::MAX_FILE_BYTES || bytes.len() as u64 > bounds::MAX_FILE_BYTES {
        return Err(ImportError::Refused(format!(
            "{} is larger than {} MiB, more than a manuscript's text; import the text alone \
             (save it as .md or .txt, or as a .docx without large images)",
            path.display(),
            bounds::MAX_FILE_BYTES >> 20
        )));
    }
    Ok(bytes)
}

/// Stores the split of `manuscript` as the import to run, in a novel with no scenes yet.
pub fn start(
    novel: &mut Novel,
    source: &str,
    format: &str,
    manuscript: &Manuscript,
    clock: &dyn Clock,
) -> Result<ImportProgress, ImportError> {
    if store::import_job(novel.store().conn())?.is_some() {
        return Err(ImportError::Refused(
            "this novel already has an import; resume it instead of starting another".into(),
        ));
    }
    if novel.state()?.current_tick > 0 {
        return Err(ImportError::Refused(
            "a manuscript can only be imported into a novel with no scenes yet; create a new novel for it".into(),
        ));
    }
    let mut scenes = Vec::new();
    for (c, chapter) in manuscript.chapters.iter().enumerate() {
        for (i, scene) in chapter.scenes.iter().enumerate() {
            scenes.push(ImportScene {
                ordinal: scenes.len() as u32 + 1,
                chapter: c as u32 + 1,
                // Empty: the manuscript has no chapter headings; proposals group the scenes.
                chapter_title: chapter.title.clone().unwrap_or_default(),
                part_title: if i == 0 { chapter.part.clone() } else { None },
                heading: scene.heading.clone(),
                text: scene.text.clone(),
                tick: None,
            });
        }
    }
    let job = ImportJob {
        source: source.to_string(),
        format: format.to_string(),
        scenes: scenes.len() as u32,
        started_at: timestamp(clock.now()),
        finished_at: None,
    };
    let store = writable(novel)?;
    let tx = store.transaction()?;
    store::start_import(&tx, &job, &scenes)?;
    tx.commit().map_err(StoreError::from)?;
    progress(novel)?.ok_or_else(|| ImportError::Refused("the import was not stored".into()))
}

/// How far the novel's import is; `None` when it has none.
pub fn progress(novel: &Novel) -> Result<Option<ImportProgress>, ImportError> {
    let conn = novel.store().conn();
    let Some(job) = store::import_job(conn)? else {
        return Ok(None);
    };
    let current = novel.state()?.current_tick;
    let done = store::import_scenes(conn)?
        .iter()
        .filter(|s| is_done(s, current))
        .count() as u32;
    Ok(Some(ImportProgress {
        source: job.source,
        done,
        total: job.scenes,
        finished: job.finished_at.is_some(),
    }))
}

/// A scene is in the story when its mark points at a tick the story still has (a rewind past
/// it puts it back in the queue).
fn is_done(scene: &ImportScene, current_tick: u32) -> bool {
    scene.tick.is_some_and(|t| t <= current_tick)
}

/// Adopts every scene not yet in the story, in order; `on_scene(done, total)` after each.
pub async fn resume(
    novel: &mut Novel,
    models: &Models,
    observer: &dyn TickObserver,
    cancel: &CancelToken,
    clock: &dyn Clock,
    on_scene: &(dyn Fn(u32, u32) + Sync),
) -> Result<ImportProgress, ImportError> {
    let Some(job) = store::import_job(novel.store().conn())? else {
        return Err(ImportError::Refused(
            "this novel has no import to resume; start one with a manuscript file".into(),
        ));
    };
    let scenes = store::import_scenes(novel.store().conn())?;
    let total = scenes.len() as u32;
    let start_tick = novel.state()?.current_tick;
    // Marks read before the loop: what this run adopts is counted as it goes.
    let mut done = scenes.iter().filter(|s| is_done(s, start_tick)).count() as u32;
    for scene in &scenes {
        if is_done(scene, start_tick) {
            continue;
        }
        let written = WrittenScene {
            prose: scene.text.clone(),
            title: scene.heading.clone(),
        };
        let at = timestamp(clock.now());
        let mark = |tx: &Transaction<'_>, tick: u32| -> Result<(), StoreError> {
            store::mark_imported(tx, scene.ordinal, tick, &at)?;
            shape_chapter(tx, scene, tick)
        };
        adopt_scene(novel, models, &written, &mark, observer, cancel, clock)
            .await
            .map_err(|cause| ImportError::Stopped { done, total, cause })?;
        done += 1;
        on_scene(done, total);
    }
    if job.finished_at.is_none() {
        let store = writable(novel)?;
        let tx = store.transaction()?;
        store::finish_import(&tx, &timestamp(clock.now()))?;
        tx.commit().map_err(StoreError::from)?;
    }
    progress(novel)?.ok_or_else(|| ImportError::Refused("the import disappeared".into()))
}

/// Grows the manuscript chapter `scene` belongs to so that it holds `tick` (a recorded story
/// write, in the scene's own transaction). Without chapter headings nothing is stored.
fn shape_chapter(tx: &Transaction<'_>, scene: &ImportScene, tick: u32) -> Result<(), StoreError> {
    if scene.chapter_title.is_empty() {
        return Ok(());
    }
    let first_tick = store::import_scenes(tx)?
        .iter()
        .filter(|s| s.chapter == scene.chapter && s.ordinal < scene.ordinal)
        .filter_map(|s| s.tick)
        .min()
        .unwrap_or(tick);
    let part_title = store::list_chapters(tx)?
        .into_iter()
        .find(|r| r.first_tick == first_tick)
        .and_then(|r| r.part_title)
        .or_else(|| scene.part_title.clone());
    store::put_chapter(
        tx,
        &ChapterRow {
            first_tick,
            last_tick: tick,
            title: scene.chapter_title.clone(),
            part_title,
            titled_by: TitledBy::Manuscript,
        },
    )
}

fn writable(novel: &mut Novel) -> Result<&mut store::Store, ImportError> {
    novel.store_mut().ok_or_else(|| {
        ImportError::Refused("the novel is open read-only; an import needs to write".into())
    })
}

#[cfg(test)]
mod tests;
