//! Manuscript export to Markdown: the title, then every scene under its own heading, in tick
//! order. Titles and prose are model output, so anything that looks like an HTML tag is
//! escaped: a Markdown viewer must show it as text, never render or run it.

use rusqlite::Connection;

use crate::config::NovelConfig;
use crate::store::{self, StoreResult};
use crate::text::{escape_html, one_line, strip_controls};

/// The whole manuscript as Markdown.
pub fn manuscript_markdown(conn: &Connection, config: &NovelConfig) -> StoreResult<String> {
    let scenes = store::list_scenes(conn)?;
    let mut out = format!("# {}\n", heading(&config.novel.title));
    for scene in &scenes {
        out.push_str(&format!("\n## {}\n\n", heading(&scene.title)));
        out.push_str(&escape_html(&strip_controls(scene.prose.trim())));
        out.push('\n');
    }
    Ok(out)
}

/// A title as a Markdown heading: one clean line, and no HTML a viewer would render.
fn heading(title: &str) -> String {
    escape_html(&one_line(title))
}

/// A file-name-safe slug of the title, for the default export path.
pub fn slug(title: &str) -> String {
    let s: String = title
        .to_lowercase()
        .chars()
        .map(|c| if c.is_alphanumeric() { c } else { '-' })
        .collect();
    let s = s
        .split('-')
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join("-");
    if s.is_empty() {
        "manuscript".into()
    } else {
        s.chars().take(60).collect()
    }
}

/// Writes the manuscript to `dest`, or to `exports/<title>.md` inside the novel.
pub fn write_manuscript(
    novel: &crate::novel::Novel,
    dest: Option<&std::path::Path>,
) -> Result<std::path::PathBuf, crate::novel::NovelError> {
    let text = manuscript_markdown(novel.store().conn(), novel.config())?;
    let path = match dest {
        Some(p) => p.to_path_buf(),
        None => novel
            .dir(crate::novel::EXPORTS_DIR)
            .join(format!("{}.md", slug(&novel.config().novel.title))),
    };
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).map_err(|source| crate::novel::NovelError::Io {
            path: parent.to_path_buf(),
            source,
        })?;
    }
    crate::fsutil::write_atomic(&path, text.as_bytes()).map_err(|source| {
        crate::novel::NovelError::Io {
            path: path.clone(),
            source,
        }
    })?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headings_are_one_clean_line_without_html() {
        assert_eq!(heading("## The\nDocks  "), "The Docks");
        assert_eq!(heading("   "), "Untitled");
        assert_eq!(
            heading("<script>alert(1)</script>\u{1b}]0;x\u{7}Tide"),
            "&lt;script>alert(1)&lt;/script>Tide"
        );
    }

    #[test]
    fn slugs_are_safe_file_names() {
        assert_eq!(slug("The Salt & the Sea!"), "the-salt-the-sea");
        assert_eq!(slug("../../"), "manuscript");
    }
}
