//! What a heading line of a plain-text manuscript looks like: a part (`PART ONE--The Old
//! Buccaneer`, `Book II`, `VOLUME THE FIRST`), a chapter (`Chapter 12`, `CHAPTER XII.`,
//! `Chapter the Twelfth`, `CHAPTER I. A SCANDAL IN BOHEMIA`, `12`, `XII.`, `1. The Sea`,
//! `Prologue`, a Markdown `#`/`##` heading), and a chapter's title line under a bare number.
//! Each recogniser reads one line and says what it would be; whether it *is* a heading (alone
//! between blank lines, in sequence with the chapters before it) is the finder's call
//! ([`super::structure`]), since "I." alone can be a speech as well as chapter one.

/// A chapter heading read from one line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChapterLine {
    /// Its number, when it has one (`Prologue` has none).
    pub number: Option<u32>,
    /// Its own title (`A Scandal in Bohemia`), when the line gives one.
    pub title: Option<String>,
    /// What to call the chapter when no title comes: `Chapter 12`, `Chapter XII`, `Prologue`.
    pub label: String,
    /// Only a number (`12`, `XII.`): a heading only when the chapters run in sequence.
    pub bare: bool,
}

/// The longest line read as a heading: a title, not a sentence.
const LONGEST_HEADING: usize = 90;

/// A number written as digits (at most three), a Roman numeral, or in words (`twelve`,
/// `twenty-one`, `the twelfth`, `first`).
pub fn numeral(token: &str) -> Option<u32> {
    let token = token.trim().trim_end_matches(['.', ':', ',']);
    if token.is_empty() {
        return None;
    }
    if token.len() <= 3 && token.chars().all(|c| c.is_ascii_digit()) {
        return token.parse().ok().filter(|&n| n > 0);
    }
    roman(token).or_else(|| in_words(token))
}

/// A Roman numeral, all upper case or all lower case, written the standard way (so `MIX` is
/// 1009 but `IIII` is nothing).
pub fn roman(token: &str) -> Option<u32> {
    let upper = token.to_ascii_uppercase();
    if upper != token && token.to_ascii_lowercase() != token {
        return None;
    }
    let value = |c: char| match c {
        'I' => Some(1),
        'V' => Some(5),
        'X' => Some(10),
        'L' => Some(50),
        'C' => Some(100),
        'D' => Some(500),
        'M' => Some(1000),
        _ => None,
    };
    let digits: Vec<u32> = upper.chars().map(value).collect::<Option<_>>()?;
    let mut total = 0;
    for (i, &d) in digits.iter().enumerate() {
        if digits.get(i + 1).is_some_and(|&next| next > d) {
            total -= d as i64;
        } else {
            total += d as i64;
        }
    }
    let n = u32::try_from(total)
        .ok()
        .filter(|&n| (1..4000).contains(&n))?;
    (to_roman(n) == upper).then_some(n)
}

fn to_roman(mut n: u32) -> String {
    const TABLE: [(u32, &str); 13] = [
        (1000, "M"),
        (900, "CM"),
        (500, "D"),
        (400, "CD"),
        (100, "C"),
        (90, "XC"),
        (50, "L"),
        (40, "XL"),
        (10, "X"),
        (9, "IX"),
        (5, "V"),
        (4, "IV"),
        (1, "I"),
    ];
    let mut out = String::new();
    for (value, letters) in TABLE {
        while n >= value {
            out.push_str(letters);
            n -= value;
        }
    }
    out
}

const UNITS: [&str; 19] = [
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
];
const UNIT_ORDINALS: [&str; 19] = [
    "first",
    "second",
    "third",
    "fourth",
    "fifth",
    "sixth",
    "seventh",
    "eighth",
    "ninth",
    "tenth",
    "eleventh",
    "twelfth",
    "thirteenth",
    "fourteenth",
    "fifteenth",
    "sixteenth",
    "seventeenth",
    "eighteenth",
    "nineteenth",
];
const TENS: [&str; 8] = [
    "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety",
];
const TEN_ORDINALS: [&str; 8] = [
    "twentieth",
    "thirtieth",
    "fortieth",
    "fiftieth",
    "sixtieth",
    "seventieth",
    "eightieth",
    "ninetieth",
];

/// `twelve`, `Twenty-One`, `the twelfth`, `ninety-ninth`.
fn in_words(token: &str) -> Option<u32> {
    let lower = token.to_lowercase();
    let lower = lower.strip_prefix("the ").unwrap_or(&lower);
    let one = |word: &str| -> Option<u32> {
        let at = |list: &[&str]| list.iter().position(|w| *w == word).map(|i| i as u32);
        at(&UNITS)
            .or_else(|| at(&UNIT_ORDINALS))
            .map(|i| i + 1)
            .or_else(|| {
                at(&TENS)
                    .or_else(|| at(&TEN_ORDINALS))
                    .map(|i| (i + 2) * 10)
            })
    };
    match lower.split_once(['-', ' ']) {
        Some((tens, unit)) => {
            let tens = one(tens).filter(|t| t % 10 == 0 && *t >= 20)?;
            one(unit).filter(|u| *u < 10).map(|u| tens + u)
        }
        None => one(lower),
    }
}

/// `THE OLD SEA-DOG` → `The Old Sea-Dog`; a title in mixed case is left as written.
pub fn title_case(text: &str) -> String {
    let letters: Vec<char> = text.chars().filter(|c| c.is_alphabetic()).collect();
    if letters.len() < 2 || letters.iter().any(|c| c.is_lowercase()) {
        return text.to_string();
    }
    const SMALL: [&str; 12] = [
        "a", "an", "and", "at", "by", "for", "in", "of", "on", "or", "the", "to",
    ];
    let lower = text.to_lowercase();
    let words: Vec<&str> = lower.split(' ').collect();
    let mut out = Vec::with_capacity(words.len());
    for (i, word) in words.iter().enumerate() {
        let bare = word.trim_matches(|c: char| !c.is_alphanumeric());
        if i > 0 && SMALL.contains(&bare) {
            out.push(word.to_string());
            continue;
        }
        // Capitalise each hyphenated piece and the first letter after an opening quote.
        let mut capital = true;
        let mut piece = String::with_capacity(word.len());
        for c in word.chars() {
            if capital && c.is_alphabetic() {
                piece.extend(c.to_uppercase());
                capital = false;
            } else {
                piece.push(c);
            }
            if c == '-' {
                capital = true;
            }
        }
        out.push(piece);
    }
    out.join(" ")
}

/// Gutenberg's `--` (and `---`) as the em dash it stands for.
pub fn dashes(text: &str) -> String {
    text.replace("---", "—").replace("--", "—")
}

/// A heading's number as the book should show it: digits and Roman numerals as written,
/// words in title case (`TWELVE` → `Twelve`).
fn number_label(token: &str) -> String {
    if roman(token).is_some() || token.chars().all(|c| c.is_ascii_digit()) {
        token.to_string()
    } else {
        title_case(token)
    }
}

/// Whether a line is a scene break: the export's forms (`* * *`, `***`, `#`, `---`, `~~~`,
/// `§`) and the single ornaments some books use (`*`, `~`, `•`, `◆`).
pub fn scene_break(line: &str) -> bool {
    let squeezed: String = line.chars().filter(|c| !c.is_whitespace()).collect();
    crate::export::inline::is_break_line(line)
        || (!squeezed.is_empty()
            && squeezed.chars().count() <= 9
            && squeezed
                .chars()
                .all(|c| matches!(c, '*' | '~' | '•' | '·' | '◆' | '◇' | '❧' | '⁂')))
}

/// The title after a heading's number: separators and spaces trimmed.
fn rest_title(rest: &str) -> Option<String> {
    let title = rest
        .trim()
        .trim_start_matches(['.', ':', '—', '–', '-', ' '])
        .trim();
    (!title.is_empty()).then(|| title_case(&dashes(title)))
}

/// A line that could be a heading at all: short, one line, not a sentence running on.
fn heading_sized(line: &str) -> bool {
    let n = line.chars().count();
    n > 0 && n <= LONGEST_HEADING && !line.ends_with([',', ';'])
}

/// `PART ONE--The Old Buccaneer`, `Book II: Westward`, `VOLUME THE FIRST`: the part's heading
/// as the book should show it.
pub fn part_line(line: &str) -> Option<String> {
    let line = line.trim();
    if !heading_sized(line) {
        return None;
    }
    let lower = line.to_lowercase();
    let kind = ["part ", "book ", "volume "]
        .into_iter()
        .find(|k| lower.starts_with(k))?;
    let rest = &line[kind.len()..];
    let (number, after) = number_then_rest(rest)?;
    let label = format!(
        "{} {}",
        title_case(line[..kind.len() - 1].trim()),
        number_label(number)
    );
    Some(match rest_title(after) {
        Some(title) => format!("{label} — {title}"),
        None => label,
    })
}

/// The number token at the start of `rest` (two words for `the twelfth`, `twenty one`) and
/// what follows it, when it is a number.
fn number_then_rest(rest: &str) -> Option<(&str, &str)> {
    let rest = rest.trim_start();
    let end_of = |s: &str| {
        s.find(|c: char| c.is_whitespace() || matches!(c, ':' | '—' | '–' | ',' | '('))
            .map(|i| {
                // `ONE--The …`: the number ends at the dash.
                s[..i].find("--").unwrap_or(i)
            })
            .unwrap_or_else(|| s.find("--").unwrap_or(s.len()))
    };
    let first = end_of(rest);
    let one = &rest[..first];
    let lower = one.to_lowercase();
    // Two words: `the twelfth`, `twenty one`.
    if lower == "the" || TENS.contains(&lower.trim_end_matches('.')) {
        let after = rest[first..].trim_start();
        let second = end_of(after);
        let offset = rest.len() - after.len();
        let two = &rest[..offset + second];
        if numeral(two).is_some() {
            return Some((two.trim_end_matches(['.', ':']), &rest[offset + second..]));
        }
    }
    numeral(one).map(|_| (one.trim_end_matches(['.', ':']), &rest[first..]))
}

/// A chapter heading, as far as one line can tell.
pub fn chapter_line(line: &str) -> Option<ChapterLine> {
    let line = line.trim();
    if !heading_sized(line) {
        return None;
    }
    let lower = line.to_lowercase();
    if let Some(rest) = lower
        .strip_prefix("chapter ")
        .map(|_| &line["chapter ".len()..])
    {
        let (number, after) = number_then_rest(rest)?;
        return Some(ChapterLine {
            number: numeral(number),
            title: rest_title(after),
            label: format!("Chapter {}", number_label(number)),
            bare: false,
        });
    }
    for word in [
        "prologue",
        "epilogue",
        "interlude",
        "afterword",
        "introduction",
    ] {
        if let Some(after) = lower.strip_prefix(word)
            && (after.is_empty() || after.starts_with([':', '.', ' ']))
            && after.len() <= LONGEST_HEADING / 2
        {
            let after = &line[word.len()..];
            return Some(ChapterLine {
                number: None,
                title: rest_title(after),
                label: title_case(&line[..word.len()]),
                bare: false,
            });
        }
    }
    // `12`, `XII.`: a number alone.
    let token = line.trim_end_matches('.');
    if !token.contains(' ')
        && (token.chars().all(|c| c.is_ascii_digit()) || roman(token).is_some())
        && token == token.to_uppercase()
        && let Some(n) = numeral(token)
    {
        return Some(ChapterLine {
            number: Some(n),
            title: None,
            label: format!("Chapter {token}"),
            bare: true,
        });
    }
    // `XII. THE RED-HEADED LEAGUE`, `1. The Sea`: a number, a full stop, then a title.
    let (token, title) = line.split_once(". ")?;
    let n = (token.len() <= 3 && token.chars().all(|c| c.is_ascii_digit()))
        .then(|| numeral(token))
        .flatten()
        .or_else(|| {
            (token == token.to_uppercase())
                .then(|| roman(token))
                .flatten()
        })?;
    let title = title.trim();
    if !title_like(title) {
        return None;
    }
    Some(ChapterLine {
        number: Some(n),
        title: Some(title_case(&dashes(title))),
        label: format!("Chapter {token}"),
        bare: true,
    })
}

/// A Markdown heading in a text file (`# The Docks`, `## Chapter 3`): its level and text.
pub fn markdown_line(line: &str) -> Option<(usize, &str)> {
    let line = line.trim();
    let level = line.chars().take_while(|&c| c == '#').count();
    let text = line[level..]
        .strip_prefix(' ')?
        .trim()
        .trim_end_matches('#')
        .trim();
    ((1..=3).contains(&level) && !text.is_empty()).then_some((level, text))
}

/// Reads as a title rather than a sentence: short, starting with a capital (or a quote), not
/// ending as a sentence does (a title in capitals may end with a full stop), and most of its
/// longer words capitalised or the whole of it in capitals.
pub fn title_like(text: &str) -> bool {
    let text = text.trim();
    if !heading_sized(text) || text.chars().count() < 2 {
        return false;
    }
    let first = text
        .chars()
        .find(|c| !matches!(c, '"' | '“' | '‘' | '\'' | '_' | '*'));
    if !first.is_some_and(|c| c.is_uppercase() || c.is_ascii_digit()) {
        return false;
    }
    let letters: Vec<char> = text.chars().filter(|c| c.is_alphabetic()).collect();
    let shouting = !letters.is_empty() && letters.iter().all(|c| c.is_uppercase());
    let end = text.trim_end_matches(['"', '”', '’', '\'', '_', '*']);
    if end.ends_with(['!', '?']) || (end.ends_with('.') && !shouting) {
        return false;
    }
    if shouting {
        return true;
    }
    let long: Vec<&str> = text
        .split_whitespace()
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()))
        .filter(|w| w.chars().count() > 3)
        .collect();
    let capitalised = long
        .iter()
        .filter(|w| w.chars().next().is_some_and(char::is_uppercase))
        .count();
    long.is_empty() || capitalised * 2 >= long.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_in_digits_roman_numerals_and_words() {
        for (token, n) in [
            ("12", 12),
            ("XII.", 12),
            ("xiv", 14),
            ("MCMXL", 1940),
            ("Twelve", 12),
            ("twenty-one", 21),
            ("the Twelfth", 12),
            ("First", 1),
            ("ninety-ninth", 99),
        ] {
            assert_eq!(numeral(token), Some(n), "{token}");
        }
        for token in ["IIII", "Xi", "1234", "twelveish", "the", "", "0", "VX"] {
            assert_eq!(numeral(token), None, "{token}");
        }
    }

    #[test]
    fn chapter_lines_in_their_usual_forms() {
        let read = |line: &str| chapter_line(line).map(|c| (c.number, c.title, c.label, c.bare));
        assert_eq!(
            read("Chapter 12"),
            Some((Some(12), None, "Chapter 12".into(), false))
        );
        assert_eq!(
            read("CHAPTER XII."),
            Some((Some(12), None, "Chapter XII".into(), false))
        );
        assert_eq!(
            read("Chapter the Twelfth"),
            Some((Some(12), None, "Chapter the Twelfth".into(), false))
        );
        assert_eq!(
            read("CHAPTER I. A SCANDAL IN BOHEMIA"),
            Some((
                Some(1),
                Some("A Scandal in Bohemia".into()),
                "Chapter I".into(),
                false
            ))
        );
        assert_eq!(
            read("Chapter 3: The Docks").unwrap().1.as_deref(),
            Some("The Docks")
        );
        assert_eq!(
            read("CHAPTER TWO--The Gate").unwrap().1.as_deref(),
            Some("The Gate")
        );
        assert_eq!(read("XII.").unwrap().0, Some(12));
        assert!(read("12").unwrap().3, "a bare number");
        assert_eq!(
            read("1. The Old Sea-dog at the Admiral Benbow")
                .unwrap()
                .1
                .as_deref(),
            Some("The Old Sea-dog at the Admiral Benbow")
        );
        assert_eq!(read("PROLOGUE").unwrap().2, "Prologue");
        // Sentences are not headings.
        for line in [
            "Chapter and verse, he said.",
            "I. Am. Done.",
            "1. Go to the market and buy bread.",
            "She read chapter 3 aloud.",
            "HELP! HELP!",
            "xii",
            "In 1885 the fog came.",
        ] {
            assert_eq!(chapter_line(line), None, "{line}");
        }
    }

    #[test]
    fn part_lines_and_titles() {
        assert_eq!(
            part_line("PART ONE--The Old Buccaneer").as_deref(),
            Some("Part One — The Old Buccaneer")
        );
        assert_eq!(
            part_line("Book II: Westward").as_deref(),
            Some("Book II — Westward")
        );
        assert_eq!(
            part_line("VOLUME THE FIRST").as_deref(),
            Some("Volume The First")
        );
        assert_eq!(part_line("Part Two").as_deref(), Some("Part Two"));
        assert_eq!(part_line("Part of the crew stayed behind."), None);
        assert_eq!(part_line("Book keeping was his trade"), None);
        assert!(title_like("The Old Sea-dog at the Admiral Benbow"));
        assert!(title_like("THE BLACK SPOT."));
        assert!(!title_like("\"Who goes there?\""));
        assert!(!title_like("He ran for the door and did not look back."));
        assert_eq!(title_case("I GO TO BRISTOL"), "I Go to Bristol");
        assert_eq!(title_case("Mixed Case stays"), "Mixed Case stays");
        assert_eq!(markdown_line("## The Docks"), Some((2, "The Docks")));
        assert_eq!(markdown_line("#hashtag"), None);
    }
}
