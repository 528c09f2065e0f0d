//! The book as an EPUB 3 (built with `epub-builder`): a cover image and cover page with the
//! title and author, a title page, a contents page and the navigation document, a page for
//! each part heading, and one XHTML document per chapter with its scenes separated by scene
//! breaks; metadata for title, author, language, a modification date and an identifier
//! derived from the book (so exporting the same book twice gives the same file). Every title
//! and every word of prose is XML-escaped here, and only emphasis becomes markup: nothing a
//! model wrote is ever written into the book as HTML.

use chrono::{DateTime, Utc};
use epub_builder::{EpubBuilder, EpubContent, EpubVersion, ReferenceType, ZipLibrary};

use super::book::{Book, Chapter};
use super::error::ExportError;
use super::inline::{Block, Run, blocks, typographic, xml_escape};

const STYLESHEET: &str = "\
body { margin: 0 5%; font-family: serif; line-height: 1.5; }
p { margin: 0; text-indent: 1.5em; text-align: justify; }
p.first { text-indent: 0; }
h1 { text-align: center; font-weight: normal; margin: 3em 0 2em; }
h1 .number { display: block; font-size: 0.8em; letter-spacing: 0.1em; text-transform: uppercase; }
h1 .title { display: block; font-style: italic; }
hr.scene-break { border: 0; margin: 1.2em 0; text-align: center; }
hr.scene-break::after { content: \"* * *\"; }
section.titlepage, section.part { text-align: center; margin-top: 30%; }
section.titlepage .title { font-size: 2em; }
section.titlepage .author { margin-top: 2em; font-size: 1.2em; text-indent: 0; text-align: center; }
section.cover { text-align: center; }
section.cover img { max-width: 100%; max-height: 100%; }
";

/// The EPUB's bytes; `modified` is its `dcterms:modified` date.
pub fn render(book: &Book, modified: DateTime<Utc>) -> Result<Vec<u8>, ExportError> {
    let zip = ZipLibrary::new().map_err(epub_err)?;
    let mut epub = EpubBuilder::new(zip).map_err(epub_err)?;
    epub.epub_version(EpubVersion::V30);
    epub.set_title(&book.title);
    if !book.author.is_empty() {
        epub.add_author(&book.author);
    }
    epub.add_language(&book.language);
    epub.set_generator("Novel Agent");
    epub.set_toc_name("Contents");
    epub.set_modified_date(modified);
    epub.set_uuid(book_uuid(book));
    epub.stylesheet(STYLESHEET.as_bytes()).map_err(epub_err)?;
    epub.add_cover_image("cover.svg", cover_svg(book).as_bytes(), "image/svg+xml")
        .map_err(epub_err)?;
    let alt = if book.author.is_empty() {
        book.title.clone()
    } else {
        format!("{} by {}", book.title, book.author)
    };
    let cover = page(
        book,
        &book.title,
        &format!(
            "<section class=\"cover\" epub:type=\"cover\"><img src=\"cover.svg\" alt=\"{}\"/></section>",
            xml_escape(&typographic(&alt))
        ),
    );
    epub.add_content(
        EpubContent::new("cover.xhtml", cover.as_bytes())
            .title("Cover")
            .reftype(ReferenceType::Cover),
    )
    .map_err(epub_err)?;
    let title_page = page(book, &book.title, &title_page_body(book));
    epub.add_content(
        EpubContent::new("title.xhtml", title_page.as_bytes())
            .title("Title Page")
            .reftype(ReferenceType::TitlePage),
    )
    .map_err(epub_err)?;
    epub.inline_toc();
    let mut in_part = false;
    for (index, chapter) in book.chapters.iter().enumerate() {
        if let Some(part) = &chapter.part {
            let body = format!(
                "<section class=\"part\" epub:type=\"part\"><h1>{}</h1></section>",
                xml_escape(&typographic(part))
            );
            let file = format!("part_{:03}.xhtml", index + 1);
            let xhtml = page(book, part, &body);
            epub.add_content(EpubContent::new(file, xhtml.as_bytes()).title(part.as_str()))
                .map_err(epub_err)?;
            in_part = true;
        }
        let file = format!("chapter_{:03}.xhtml", chapter.number);
        let label = format!("Chapter {}: {}", chapter.number, chapter.title);
        let xhtml = page(book, &label, &chapter_body(chapter));
        let mut content = EpubContent::new(file, xhtml.as_bytes()).title(label);
        if in_part {
            content = content.level(2);
        }
        if index == 0 {
            content = content.reftype(ReferenceType::Text);
        }
        epub.add_content(content).map_err(epub_err)?;
    }
    let mut out = Vec::new();
    epub.generate(&mut out).map_err(epub_err)?;
    distinct_metadata_ids(&out)
}

/// epub-builder 0.8.3 gives the first language and the first author the same XML id
/// (`epub-creator-0`), which epubcheck rejects: the package document is rewritten with the
/// languages' ids renamed, every other entry copied as it is (the mimetype stays first and
/// stored).
fn distinct_metadata_ids(epub: &[u8]) -> Result<Vec<u8>, ExportError> {
    use std::io::{Read, Write};
    let zip_err =
        |e: zip::result::ZipError| ExportError::Format(format!("the EPUB could not be built: {e}"));
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(epub)).map_err(zip_err)?;
    let mut out = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for i in 0..archive.len() {
        let mut entry = archive.by_index(i).map_err(zip_err)?;
        if entry.name() != "OEBPS/content.opf" {
            out.raw_copy_file(entry).map_err(zip_err)?;
            continue;
        }
        let mut opf = String::new();
        entry
            .read_to_string(&mut opf)
            .map_err(|e| ExportError::Format(format!("the EPUB could not be built: {e}")))?;
        let opf = opf.replace(
            "<dc:language id=\"epub-creator-",
            "<dc:language id=\"epub-language-",
        );
        let options = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated)
            .last_modified_time(zip::DateTime::default());
        out.start_file("OEBPS/content.opf", options)
            .map_err(zip_err)?;
        out.write_all(opf.as_bytes())
            .map_err(|e| ExportError::Format(format!("the EPUB could not be built: {e}")))?;
    }
    Ok(out.finish().map_err(zip_err)?.into_inner())
}

fn epub_err(e: epub_builder::Error) -> ExportError {
    ExportError::Format(format!("the EPUB could not be built: {e}"))
}

/// A whole XHTML document around `body`.
fn page(book: &Book, title: &str, body: &str) -> String {
    let lang = xml_escape(&book.language);
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE html>\n\
         <html xmlns=\"http://www.w3.org/1999/xhtml\" xmlns:epub=\"http://www.idpf.org/2007/ops\" lang=\"{lang}\" xml:lang=\"{lang}\">\n\
         <head>\n<meta charset=\"utf-8\"/>\n<title>{}</title>\n\
         <link rel=\"stylesheet\" type=\"text/css\" href=\"stylesheet.css\"/>\n</head>\n\
         <body>\n{body}\n</body>\n</html>\n",
        xml_escape(&typographic(title))
    )
}

fn title_page_body(book: &Book) -> String {
    let mut body = format!(
        "<section class=\"titlepage\" epub:type=\"titlepage\">\n<h1 class=\"title\">{}</h1>\n",
        xml_escape(&typographic(&book.title))
    );
    if !book.author.is_empty() {
        body.push_str(&format!(
            "<p class=\"author\">{}</p>\n",
            xml_escape(&typographic(&book.author))
        ));
    }
    body.push_str("</section>");
    body
}

fn chapter_body(chapter: &Chapter) -> String {
    let mut body = format!(
        "<section epub:type=\"chapter\" id=\"chapter-{n}\">\n<h1><span class=\"number\">Chapter {n}</span> <span class=\"title\">{}</span></h1>\n",
        xml_escape(&typographic(&chapter.title)),
        n = chapter.number
    );
    let mut first = true;
    for (i, scene) in chapter.scenes.iter().enumerate() {
        if i > 0 {
            body.push_str("<hr class=\"scene-break\"/>\n");
            first = true;
        }
        for block in blocks(&scene.prose) {
            match block {
                Block::SceneBreak => {
                    body.push_str("<hr class=\"scene-break\"/>\n");
                    first = true;
                }
                Block::Paragraph(runs) => {
                    body.push_str(if first { "<p class=\"first\">" } else { "<p>" });
                    for run in &runs {
                        push_run(&mut body, run);
                    }
                    body.push_str("</p>\n");
                    first = false;
                }
            }
        }
    }
    body.push_str("</section>");
    body
}

fn push_run(out: &mut String, run: &Run) {
    let text = xml_escape(&run.text);
    match (run.italic, run.bold) {
        (false, false) => out.push_str(&text),
        (true, false) => out.push_str(&format!("<em>{text}</em>")),
        (false, true) => out.push_str(&format!("<strong>{text}</strong>")),
        (true, true) => out.push_str(&format!("<strong><em>{text}</em></strong>")),
    }
}

/// A plain cover: the title, wrapped, and the author, on a dark ground.
fn cover_svg(book: &Book) -> String {
    let mut lines: Vec<String> = Vec::new();
    for word in typographic(&book.title).split_whitespace() {
        match lines.last_mut() {
            Some(line) if line.chars().count() + 1 + word.chars().count() <= 18 => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    if lines.len() > 6 {
        lines.truncate(6);
        if let Some(last) = lines.last_mut() {
            last.push('…');
        }
    }
    let top = 360 - (lines.len() as i32 * 56) / 2;
    let mut text = String::new();
    for (i, line) in lines.iter().enumerate() {
        text.push_str(&format!(
            "<text x=\"300\" y=\"{}\" text-anchor=\"middle\" font-family=\"serif\" font-size=\"48\" fill=\"#f4efe6\">{}</text>\n",
            top + i as i32 * 56,
            xml_escape(line)
        ));
    }
    if !book.author.is_empty() {
        text.push_str(&format!(
            "<text x=\"300\" y=\"760\" text-anchor=\"middle\" font-family=\"serif\" font-size=\"28\" fill=\"#d8cbb3\">{}</text>\n",
            xml_escape(&typographic(&book.author))
        ));
    }
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"600\" height=\"900\" viewBox=\"0 0 600 900\">\n\
         <rect width=\"600\" height=\"900\" fill=\"#1f2a36\"/>\n\
         <rect x=\"40\" y=\"40\" width=\"520\" height=\"820\" fill=\"none\" stroke=\"#d8cbb3\" stroke-width=\"2\"/>\n\
         {text}</svg>\n"
    )
}

/// An identifier that is the same every time the same book is exported.
fn book_uuid(book: &Book) -> uuid::Uuid {
    let fnv = |seed: u64| {
        let mut h = seed;
        for b in book.title.bytes().chain([0]).chain(book.author.bytes()) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        h
    };
    let (a, b) = (fnv(0xcbf2_9ce4_8422_2325), fnv(0x8422_2325_cbf2_9ce4));
    let mut bytes = [0u8; 16];
    bytes[..8].copy_from_slice(&a.to_be_bytes());
    bytes[8..].copy_from_slice(&b.to_be_bytes());
    uuid::Builder::from_random_bytes(bytes).into_uuid()
}
