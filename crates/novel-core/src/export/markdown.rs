//! The book as Markdown: the title (`#`) and author, a `#` heading for each part, `## Chapter
//! N: Title` for each chapter and `### Title` for each scene, the prose as written (the
//! writer's `*italics*` stay Markdown). Titles and prose are model output, so anything that
//! looks like an HTML tag is escaped: a Markdown viewer must show it as text, never render or
//! run it. `import` reads this layout back into the same chapters and scenes.

use super::book::Book;
use crate::text::{escape_markup, one_line, strip_controls};

pub fn render(book: &Book) -> String {
    let mut out = format!("# {}\n", heading(&book.title));
    if !book.author.is_empty() {
        out.push_str(&format!("\nby {}\n", escape_markup(&book.author)));
    }
    for chapter in &book.chapters {
        if let Some(part) = &chapter.part {
            out.push_str(&format!("\n# {}\n", heading(part)));
        }
        out.push_str(&format!(
            "\n## Chapter {}: {}\n",
            chapter.number,
            heading(&chapter.title)
        ));
        for scene in &chapter.scenes {
            out.push_str(&format!("\n### {}\n\n", heading(&scene.title)));
            out.push_str(&escape_markup(&strip_controls(scene.prose.trim())));
            out.push('\n');
        }
    }
    out
}

/// A title as a Markdown heading: one clean line, and no HTML a viewer would render.
pub(super) fn heading(title: &str) -> String {
    escape_markup(&one_line(title))
}
