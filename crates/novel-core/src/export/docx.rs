//! The book as a DOCX in standard manuscript format (built with `docx-rs`): US Letter with 1"
//! margins, 12 pt Times New Roman (or Courier New), double spaced, first lines indented half
//! an inch; a title page without header carrying the author's name, the word count (rounded
//! as agents expect) and the title; every chapter on a new page a third of the way down,
//! "Chapter N" and its title centred above the prose; `#` centred between scenes; and from
//! the first page of text on, a header with the author's surname, the title and the page
//! number (the title page is page 0, so the text starts on page 1). Text goes into the
//! document only as text runs (the crate escapes them); emphasis becomes italic or bold runs.

use docx_rs::{
    AlignmentType, Docx, Header, LineSpacing, LineSpacingType, PageMargin, PageNum, PageNumType,
    Paragraph, Run, RunFonts, SpecialIndentType, Style, StyleType, Tab, TabValueType,
};

use super::book::Book;
use super::error::ExportError;
use super::inline::{Block, blocks, typographic};
use crate::text::strip_controls;

/// The typeface of a manuscript.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ManuscriptFont {
    #[default]
    TimesNewRoman,
    Courier,
}

impl ManuscriptFont {
    fn name(self) -> &'static str {
        match self {
            ManuscriptFont::TimesNewRoman => "Times New Roman",
            ManuscriptFont::Courier => "Courier New",
        }
    }
}

/// Twentieths of a point: an inch is 1440.
const INCH: i32 = 1440;
/// Half-points: 12 pt.
const SIZE: usize = 24;
/// Double spacing (in 240ths of a line).
const DOUBLE: i32 = 480;

/// The DOCX's bytes.
pub fn render(book: &Book, font: ManuscriptFont) -> Result<Vec<u8>, ExportError> {
    let fonts = RunFonts::new()
        .ascii(font.name())
        .hi_ansi(font.name())
        .cs(font.name())
        .east_asia(font.name());
    let mut docx = Docx::new()
        .page_size(12240, 15840)
        .page_margin(
            PageMargin::new()
                .top(INCH)
                .bottom(INCH)
                .left(INCH)
                .right(INCH)
                .header(INCH / 2)
                .footer(INCH / 2),
        )
        .default_fonts(fonts)
        .default_size(SIZE)
        .default_line_spacing(spacing(DOUBLE))
        .add_style(
            Style::new("Title", StyleType::Paragraph)
                .name("Title")
                .align(AlignmentType::Center)
                .outline_lvl(0),
        )
        .add_style(
            Style::new("Heading1", StyleType::Paragraph)
                .name("heading 1")
                .align(AlignmentType::Center)
                .outline_lvl(0),
        )
        .page_num_type(PageNumType::new().start(0))
        .header(running_header(book))
        .first_header(Header::new());
    for p in title_page(book) {
        docx = docx.add_paragraph(p);
    }
    for chapter in &book.chapters {
        if let Some(part) = &chapter.part {
            docx = docx.add_paragraph(
                centred(spacing(DOUBLE).before((INCH * 3) as u32))
                    .style("Heading1")
                    .page_break_before(true)
                    .add_run(Run::new().add_text(text(part))),
            );
        }
        let heading = centred(spacing(DOUBLE).before((INCH * 5 / 2) as u32))
            .style("Heading1")
            .page_break_before(true)
            .keep_next(true)
            .add_run(
                Run::new()
                    .add_text(format!("Chapter {}", chapter.number))
                    .add_break(docx_rs::BreakType::TextWrapping)
                    .add_text(text(&chapter.title)),
            );
        docx = docx.add_paragraph(heading);
        for (i, scene) in chapter.scenes.iter().enumerate() {
            if i > 0 {
                docx = docx.add_paragraph(scene_break());
            }
            for block in blocks(&scene.prose) {
                docx = docx.add_paragraph(match block {
                    Block::SceneBreak => scene_break(),
                    Block::Paragraph(runs) => runs.iter().fold(body(), |p, r| {
                        let mut run = Run::new().add_text(text(&r.text));
                        if r.italic {
                            run = run.italic();
                        }
                        if r.bold {
                            run = run.bold();
                        }
                        p.add_run(run)
                    }),
                });
            }
        }
    }
    docx = docx.add_paragraph(centred(spacing(DOUBLE)).add_run(Run::new().add_text("# # #")));
    let mut out = std::io::Cursor::new(Vec::new());
    docx.build()
        .pack(&mut out)
        .map_err(|e| ExportError::Format(format!("the DOCX could not be built: {e}")))?;
    Ok(out.into_inner())
}

fn spacing(line: i32) -> LineSpacing {
    LineSpacing::new()
        .line(line)
        .line_rule(LineSpacingType::Auto)
        .before(0)
        .after(0)
}

fn centred(spacing: LineSpacing) -> Paragraph {
    Paragraph::new()
        .align(AlignmentType::Center)
        .line_spacing(spacing)
}

/// A prose paragraph: double spaced, first line indented half an inch.
fn body() -> Paragraph {
    Paragraph::new()
        .line_spacing(spacing(DOUBLE))
        .indent(
            None,
            Some(SpecialIndentType::FirstLine(INCH / 2)),
            None,
            None,
        )
        .widow_control(true)
}

fn scene_break() -> Paragraph {
    centred(spacing(DOUBLE)).add_run(Run::new().add_text("#"))
}

/// Text for a run: clean of control characters (XML cannot hold them) and typographic.
fn text(s: &str) -> String {
    strip_controls(&typographic(s))
        .chars()
        .filter(|c| !matches!(c, '\u{fffe}' | '\u{ffff}'))
        .collect()
}

/// "Surname / Title / page", right aligned.
fn running_header(book: &Book) -> Header {
    let label = match book.surname() {
        Some(surname) => format!("{} / {} / ", text(surname), text(&book.title)),
        None => format!("{} / ", text(&book.title)),
    };
    Header::new().add_paragraph(
        Paragraph::new()
            .align(AlignmentType::Right)
            .line_spacing(spacing(240))
            .add_run(Run::new().add_text(label))
            .add_page_num(PageNum::new()),
    )
}

/// The author and word count at the top, the title and byline halfway down.
fn title_page(book: &Book) -> Vec<Paragraph> {
    let single = spacing(240);
    let words = format!("about {} words", rounded_words(book.words));
    let head = Paragraph::new()
        .line_spacing(single.clone())
        .add_tab(Tab::new().val(TabValueType::Right).pos(9360))
        .add_run(
            Run::new()
                .add_text(text(&book.author))
                .add_tab()
                .add_text(words),
        );
    let mut out = vec![
        head,
        centred(spacing(DOUBLE).before((INCH * 3) as u32))
            .style("Title")
            .add_run(Run::new().add_text(text(&book.title))),
    ];
    if !book.author.is_empty() {
        out.push(
            centred(spacing(DOUBLE))
                .add_run(Run::new().add_text(format!("by {}", text(&book.author)))),
        );
    }
    out
}

/// A manuscript's word count as agents expect it: exact below 1,000, to the nearest 100
/// below 10,000, else to the nearest 1,000.
pub fn rounded_words(words: u32) -> String {
    let n = match words {
        0..1_000 => words,
        1_000..10_000 => (words + 50) / 100 * 100,
        _ => (words + 500) / 1_000 * 1_000,
    };
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::rounded_words;

    #[test]
    fn word_counts_are_rounded_like_a_manuscript_s() {
        assert_eq!(rounded_words(640), "640");
        assert_eq!(rounded_words(4_349), "4,300");
        assert_eq!(rounded_words(81_512), "82,000");
        assert_eq!(rounded_words(1_234_567), "1,235,000");
    }
}
