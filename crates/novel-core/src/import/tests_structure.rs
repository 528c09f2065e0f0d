//! The structure finder on a committed Project Gutenberg text (Treasure Island, hard-wrapped,
//! CRLF, with parts, numbered chapters under their titles, verse, the contents list and the
//! licence) and on small manuscripts for each heading form and each false heading.

use super::*;

const TREASURE_ISLAND: &str = include_str!("../../tests/import/treasure-island-excerpt.txt");

fn titles(m: &Manuscript) -> Vec<String> {
    m.chapters
        .iter()
        .map(|c| c.title.clone().unwrap())
        .collect()
}

fn all_text(m: &Manuscript) -> String {
    m.chapters
        .iter()
        .flat_map(|c| &c.scenes)
        .map(|s| s.text.as_str())
        .collect::<Vec<_>>()
        .join("\n\n")
}

#[test]
fn a_gutenberg_novel_is_found_with_its_parts_chapters_and_paragraphs() {
    let m = find_structure(TREASURE_ISLAND);
    assert_eq!(m.title.as_deref(), Some("Treasure Island"));
    assert_eq!(m.author.as_deref(), Some("Robert Louis Stevenson"));
    assert_eq!(
        titles(&m),
        [
            "The Old Sea-dog at the Admiral Benbow",
            "Black Dog Appears and Disappears",
            "The Black Spot",
            "I Go to Bristol",
            "At the Sign of the Spy-glass",
        ]
    );
    let parts: Vec<Option<&str>> = m.chapters.iter().map(|c| c.part.as_deref()).collect();
    assert_eq!(
        parts,
        [
            Some("Part One — The Old Buccaneer"),
            None,
            None,
            Some("Part Two — The Sea-cook"),
            None
        ]
    );
    let text = all_text(&m);
    // The header, the front matter and the licence are not the story.
    for outside in [
        "Project Gutenberg",
        "START OF",
        "CONTENTS",
        "HESITATING PURCHASER",
        "gutenberg.org",
    ] {
        assert!(!text.contains(outside), "{outside} is in the story");
    }
    let front = m.front_matter.as_deref().unwrap();
    assert!(front.contains("HESITATING PURCHASER") && front.contains("CONTENTS"));
    // Paragraphs are whole: the first is one line, from its first word to its last.
    let first = &m.chapters[0].scenes[0].text;
    let opening = first.split("\n\n").next().unwrap();
    assert!(opening.starts_with(
        "SQUIRE TRELAWNEY, Dr. Livesey, and the rest of these gentlemen having asked me"
    ));
    assert!(opening.ends_with("first took up his lodging under our roof."));
    // No paragraph breaks mid-sentence: every line but verse ends a sentence or a speech.
    let mut paragraphs = 0;
    for paragraph in text.split("\n\n") {
        paragraphs += 1;
        if paragraph.contains('\n') {
            // Verse keeps its lines, and says so by being short lines.
            assert!(
                paragraph.lines().all(|l| l.chars().count() < 60),
                "a wrapped paragraph kept its breaks: {paragraph}"
            );
        }
        assert!(!paragraph.contains('\r'));
    }
    assert!(paragraphs > 150, "{paragraphs} paragraphs");
    assert!(
        text.contains("“Fifteen men on the dead man’s chest—\nYo-ho-ho, and a bottle of rum!”")
    );
    // Gutenberg's `--` is a dash.
    assert!(text.contains("hand-barrow—a tall, strong, heavy, nut-brown man"));
    assert!(!text.contains("--"));
    // The seeds proposed from the text: the narrator as others call him, where he goes.
    let p = crate::import::preview(&m, "treasure-island.txt").proposals;
    assert_eq!(
        (p.protagonist.as_str(), p.place.as_str()),
        ("Jim", "Bristol")
    );
    assert!(
        p.premise
            .starts_with("SQUIRE TRELAWNEY, Dr. Livesey, and the rest")
    );
}

#[test]
fn chapter_headings_in_every_usual_form() {
    let cases: [(&str, &[&str]); 6] = [
        (
            "Chapter 1\n\nShe ran.\n\nChapter 2\n\nHe waited.",
            &["Chapter 1", "Chapter 2"],
        ),
        (
            "CHAPTER I.\n\nShe ran.\n\nCHAPTER II.\n\nHe waited.",
            &["Chapter I", "Chapter II"],
        ),
        (
            "I.\n\nShe ran.\n\nII.\n\nHe waited.\n\nIII.\n\nThey left.",
            &["Chapter I", "Chapter II", "Chapter III"],
        ),
        (
            "Chapter the First\n\nShe ran.\n\nChapter the Second\n\nHe waited.",
            &["Chapter the First", "Chapter the Second"],
        ),
        (
            "# The Docks\n\nShe ran.\n\n## The Gate\n\nHe waited.",
            &["The Docks", "The Gate"],
        ),
        (
            "CHAPTER I. A SCANDAL IN BOHEMIA\n\nShe ran.\n\nCHAPTER II.\nTHE RED-HEADED LEAGUE\n\nHe waited.",
            &["A Scandal in Bohemia", "The Red-Headed League"],
        ),
    ];
    for (text, expected) in cases {
        let m = find_structure(text);
        assert_eq!(titles(&m), expected, "{text}");
        assert_eq!(m.front_matter, None);
    }
}

#[test]
fn parts_and_scene_breaks() {
    let text = "BOOK ONE\n\nThe Sea\n\n\n1\n\nShe ran.\n\n* * *\n\nShe hid.\n\n***\n\nShe slept.\n\n\
                2\n\nHe waited.\n\n#\n\nHe ate.\n\n~\n\nHe left.\n\n\
                BOOK TWO: The Land\n\n3\n\nThey walked.";
    let m = find_structure(text);
    assert_eq!(titles(&m), ["Chapter 1", "Chapter 2", "Chapter 3"]);
    assert_eq!(m.chapters[0].part.as_deref(), Some("Book One — The Sea"));
    assert_eq!(m.chapters[2].part.as_deref(), Some("Book Two — The Land"));
    assert_eq!(m.chapters[0].scenes.len(), 3);
    // `~` alone is a break too.
    assert_eq!(m.chapters[1].scenes.len(), 3, "{:?}", m.chapters[1].scenes);
}

#[test]
fn a_numeral_said_in_dialogue_and_a_shout_in_capitals_are_not_headings() {
    let text = "Chapter 4\n\nThe watchman stopped them at the gate.\n\n\"Who is first?\" he asked.\n\n\
                I.\n\n\"You?\"\n\nHELP! HELP!\n\nTHE KING IS DEAD!\n\nShe ran.\n\n5\n\nThe gate fell.";
    let m = find_structure(text);
    assert_eq!(titles(&m), ["Chapter 4", "Chapter 5"]);
    let chapter = &m.chapters[0].scenes[0].text;
    assert!(chapter.contains("\n\nI.\n\n"), "{chapter}");
    assert!(chapter.contains("HELP! HELP!") && chapter.contains("THE KING IS DEAD!"));
    // A number in a line of prose is prose; a numbered list is not a run of chapters.
    let m = find_structure("She counted.\n\n1. Go to the market and buy bread.\n\n2. Come home.");
    assert_eq!(m.chapters.len(), 1);
    assert_eq!(m.chapters[0].title, None);
}

#[test]
fn a_book_without_headings_is_all_story() {
    let m = find_structure("It was\nlate.\n\nThe harbour\nslept.");
    assert_eq!(m.front_matter, None);
    assert_eq!(
        m.chapters[0].scenes[0].text,
        "It was late.\n\nThe harbour slept."
    );
}
