//! Exports checked by the tools a reader's software is built on: the EPUB by `epubcheck` (the
//! reference validator; Debian package `epubcheck`), the DOCX by LibreOffice
//! (`soffice --headless --convert-to pdf`, Debian `libreoffice-writer-nogui`), whose PDF's
//! text and page count are checked with `pdftotext`/`pdfinfo` (`poppler-utils`). The tools are
//! required: a missing tool fails the test with the package to install, so a green run always
//! means the files were really validated.

use std::process::Command;

use super::tests::fixed_book;
use super::*;
use crate::tick::tests::clock;

fn tool(name: &str, package: &str) -> Command {
    let found = std::env::var_os("PATH")
        .and_then(|paths| {
            std::env::split_paths(&paths)
                .map(|dir| dir.join(name))
                .find(|p| p.is_file())
        })
        .unwrap_or_else(|| {
            panic!("`{name}` is needed to validate exports: install it with `apt-get install -y {package}`")
        });
    // Debian's epubcheck is an executable jar, which runs only where binfmt_misc knows jars.
    match std::fs::canonicalize(&found) {
        Ok(real) if real.extension().is_some_and(|e| e == "jar") => {
            let mut java = Command::new("java");
            java.arg("-jar").arg(real);
            java
        }
        _ => Command::new(found),
    }
}

fn options() -> ExportOptions {
    ExportOptions {
        author: Some("Mara Quill".into()),
        font: ManuscriptFont::TimesNewRoman,
    }
}

fn run(command: &mut Command) -> String {
    let out = command.output().expect("the tool runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{command:?} failed:\n{text}");
    text
}

#[test]
fn epubcheck_finds_no_error_or_warning() {
    let (tmp, novel) = fixed_book();
    let path = tmp.path().join("book.epub");
    write_export(
        &novel,
        ExportFormat::Epub,
        Some(&path),
        &options(),
        &clock(),
    )
    .unwrap();
    let report = run(tool("epubcheck", "epubcheck").arg(&path));
    assert!(
        report.contains("No errors or warnings detected"),
        "epubcheck:\n{report}"
    );
}

#[test]
fn libreoffice_opens_the_docx_with_its_text_and_a_page_per_chapter() {
    let (tmp, novel) = fixed_book();
    let docx = tmp.path().join("book.docx");
    write_export(
        &novel,
        ExportFormat::Docx,
        Some(&docx),
        &options(),
        &clock(),
    )
    .unwrap();
    // Its own profile, so parallel runs and a desktop LibreOffice do not collide.
    let profile = format!(
        "-env:UserInstallation=file://{}",
        tmp.path().join("lo").display()
    );
    run(tool("soffice", "libreoffice-writer-nogui")
        .arg(profile)
        .args(["--headless", "--convert-to", "pdf", "--outdir"])
        .arg(tmp.path())
        .arg(&docx));
    let pdf = tmp.path().join("book.pdf");
    assert!(pdf.is_file(), "LibreOffice wrote no PDF");
    let info = run(tool("pdfinfo", "poppler-utils").arg(&pdf));
    let pages: u32 = info
        .lines()
        .find_map(|l| l.strip_prefix("Pages:"))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("no page count in:\n{info}"));
    // Title page, chapter 1 (two short scenes, double spaced, starting a third down), the
    // part page, chapter 2.
    assert_eq!(pages, 4, "{info}");
    let text = run(tool("pdftotext", "poppler-utils")
        .args(["-layout"])
        .arg(&pdf)
        .arg("-"));
    let squeezed = text.split_whitespace().collect::<Vec<_>>().join(" ");
    for expected in [
        "Salt & Ash",
        "Chapter 1",
        "“It’s late,” Tamsin said — and she meant it.",
        "<script>alert(1)</script> & so did the watch.",
        "Part Two: <i>Iron</i>",
        "She read the names aloud.",
        "Quill / Salt / 1",
    ] {
        assert!(
            squeezed.contains(expected),
            "{expected:?} missing from:\n{text}"
        );
    }
    assert!(!squeezed.contains("*meant*"));
}
