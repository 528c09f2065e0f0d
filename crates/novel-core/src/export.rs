//! Manuscript export to Markdown: the title, then every scene under its own heading, in tick
//! order. Prose is model output, so anything that looks like an HTML tag is escaped: a Markdown
//! viewer must show it as text, never render or run it.

use rusqlite::Connection;

use crate::config::NovelConfig;
use crate::store::{self, StoreResult};

/// The whole manuscript as Markdown.
pub fn manuscript_markdown(conn: &Connection, config: &NovelConfig) -> StoreResult<String> {
    let scenes = store::list_scenes(conn)?;
    let mut out = format!("# {}\n", one_line(&config.novel.title));
    for scene in &scenes {
        out.push_str(&format!("\n## {}\n\n", one_line(&scene.title)));
        out.push_str(&escape_html(scene.prose.trim()));
        out.push('\n');
    }
    Ok(out)
}

/// A heading must stay one line and must not open with Markdown syntax of its own.
pub fn one_line(text: &str) -> String {
    let joined = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let trimmed = joined
        .trim_start_matches(['#', '>', '-', '*', ' '])
        .to_string();
    if trimmed.is_empty() {
        "Untitled".to_string()
    } else {
        trimmed
    }
}

/// Escapes `<` wherever it could open an HTML tag, comment or declaration.
pub fn escape_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '<'
            && chars
                .peek()
                .is_some_and(|n| n.is_ascii_alphabetic() || matches!(n, '/' | '!' | '?'))
        {
            out.push_str("&lt;");
        } else {
            out.push(c);
        }
    }
    out
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
    fn html_in_prose_is_escaped_but_comparisons_survive() {
        assert_eq!(
            escape_html("<script>alert(1)</script> a < b <img onerror=x>"),
            "&lt;script>alert(1)&lt;/script> a < b &lt;img onerror=x>"
        );
    }

    #[test]
    fn headings_are_one_clean_line() {
        assert_eq!(one_line("## The\nDocks  "), "The Docks");
        assert_eq!(one_line("   "), "Untitled");
    }

    #[test]
    fn slugs_are_safe_file_names() {
        assert_eq!(slug("The Salt & the Sea!"), "the-salt-the-sea");
        assert_eq!(slug("../../"), "manuscript");
    }
}
