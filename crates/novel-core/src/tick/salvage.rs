//! Making the most of an imperfect extraction. Small local models return a tension of 30 on a
//! 1–10 scale, a title of ",", a summary as one string, or one malformed item among ten good
//! ones. A written scene is worth more than any one extracted field, so nothing here fails:
//! numbers with an obvious range are clamped, strings that should be lists are split, invalid
//! items are dropped, missing essentials get a fallback from the prose — and every repair is
//! written down for the timeline.

use schemars::JsonSchema;
use serde_json::{Map, Value, json};

use super::extraction::{
    ConditionChange, Extraction, LoopProgress, RecordChange, RelationshipChange,
};
use crate::evaluate::{clean_title, title_is_words};
use crate::memory::{NewCharacter, NewLocation, NewLoop, NewLore};
use crate::schema::SchemaValidator;
use crate::text::{clean_line, first_words, strip_controls, strip_controls_in_json};

/// What stands in for a missing or unusable title, summary or tension.
#[derive(Debug, Clone, PartialEq)]
pub struct Fallbacks {
    pub title: String,
    pub summary: Vec<String>,
    pub tension: u8,
}

impl Extraction {
    /// The extraction of a scene whose extractor gave nothing usable: its own first sentences
    /// as title and summary, and no memory changes.
    pub fn fallback(fallbacks: &Fallbacks) -> Extraction {
        Extraction {
            title: fallbacks.title.clone(),
            summary: fallbacks.summary.clone(),
            tension: fallbacks.tension,
            location: None,
            character_updates: Vec::new(),
            new_characters: Vec::new(),
            location_updates: Vec::new(),
            new_locations: Vec::new(),
            relationship_changes: Vec::new(),
            loops_opened: Vec::new(),
            loops_advanced: Vec::new(),
            loops_resolved: Vec::new(),
            lore: Vec::new(),
            conditions: Vec::new(),
            plan_verdict: None,
        }
    }
}

impl Fallbacks {
    /// Fallbacks drawn from the scene itself: its first sentences, and the tension of the
    /// scene before (a scene rarely jumps far from the last one).
    pub fn from_prose(prose: &str, previous_tension: Option<u8>) -> Fallbacks {
        let summary: Vec<String> = prose
            .split("\n\n")
            .filter_map(first_sentence)
            .take(3)
            .collect();
        let title = summary
            .first()
            .map(|s| first_words(s.trim_end_matches(['.', '!', '?']), 4).replace('…', ""))
            .filter(|t| title_is_words(t))
            .unwrap_or_else(|| "Untitled scene".to_string());
        Fallbacks {
            title,
            summary,
            tension: previous_tension.unwrap_or(5).clamp(1, 10),
        }
    }
}

fn first_sentence(paragraph: &str) -> Option<String> {
    let p = clean_line(paragraph);
    if p.is_empty() {
        return None;
    }
    let end = p
        .char_indices()
        .find(|&(i, c)| matches!(c, '.' | '!' | '?') && i > 10)
        .map_or(p.len(), |(i, c)| i + c.len_utf8());
    Some(first_words(&p[..end], 30))
}

/// The extraction made valid, and what was changed to get there.
#[derive(Debug, Clone, PartialEq)]
pub struct Salvaged {
    pub value: Value,
    pub notes: Vec<String>,
}

/// `answer` made into a valid extraction; `None` only when it is not a JSON object at all.
pub fn salvage(answer: &Value, fallbacks: &Fallbacks) -> Option<Salvaged> {
    let mut answer = answer.clone();
    strip_controls_in_json(&mut answer);
    let object = answer.as_object()?;
    let mut notes = Vec::new();
    let mut out = Map::new();
    out.insert(
        "title".into(),
        title(object.get("title"), fallbacks, &mut notes),
    );
    out.insert(
        "summary".into(),
        summary(object.get("summary"), fallbacks, &mut notes),
    );
    out.insert(
        "tension".into(),
        tension(object.get("tension"), fallbacks, &mut notes),
    );
    match object.get("location") {
        None | Some(Value::Null) => {}
        Some(Value::String(id)) => {
            out.insert("location".into(), json!(clean_line(id)));
        }
        Some(other) => notes.push(format!(
            "dropped the scene's place: {} does not name one",
            crate::text::clip(&other.to_string(), 40)
        )),
    }
    if let Some(verdict) = plan_verdict(object.get("plan_verdict"), &mut notes) {
        out.insert("plan_verdict".into(), verdict);
    }
    lists(object, &mut out, &mut notes);
    Some(Salvaged {
        value: Value::Object(out),
        notes,
    })
}

fn title(value: Option<&Value>, fallbacks: &Fallbacks, notes: &mut Vec<String>) -> Value {
    let given = value.and_then(Value::as_str).map(clean_line);
    match given.as_deref().map(|t| (t, clean_title(t))) {
        Some((t, Some(clean))) => {
            if clean != t && crate::ids::raw_ids(t).is_empty() {
                notes.push(format!("the title \"{t}\" was trimmed to \"{clean}\""));
            } else if clean != t {
                // Quoting the given title would show the writer the ids it carried.
                notes.push(format!("the title was trimmed to \"{clean}\""));
            }
            json!(first_words(&clean, 12).replace('…', ""))
        }
        _ => {
            let other = given;
            notes.push(format!(
                "the title {} was not usable; used \"{}\"",
                other.map_or("(missing)".to_string(), |t| format!("\"{t}\"")),
                fallbacks.title
            ));
            json!(fallbacks.title)
        }
    }
}

fn summary(value: Option<&Value>, fallbacks: &Fallbacks, notes: &mut Vec<String>) -> Value {
    let bullets: Vec<String> = match value {
        Some(Value::Array(items)) => items
            .iter()
            .filter_map(Value::as_str)
            .map(clean_line)
            .filter(|b| !b.is_empty())
            .collect(),
        Some(Value::String(text)) => {
            let split: Vec<String> = strip_controls(text)
                .split(['\n', '•'])
                .map(|l| clean_line(l.trim_start_matches(['-', '*', ' '])))
                .filter(|b| !b.is_empty())
                .collect();
            notes.push("the summary came as one text; split into bullets".into());
            split
        }
        _ => Vec::new(),
    };
    if bullets.is_empty() {
        notes.push("the summary was missing; used the scene's first sentences".into());
        return json!(fallbacks.summary);
    }
    if bullets.len() > 5 {
        notes.push(format!("the summary had {} bullets; kept 5", bullets.len()));
    }
    json!(bullets.into_iter().take(5).collect::<Vec<_>>())
}

fn tension(value: Option<&Value>, fallbacks: &Fallbacks, notes: &mut Vec<String>) -> Value {
    let number = match value {
        Some(Value::Number(n)) => n.as_f64(),
        Some(Value::String(s)) => s.trim().parse::<f64>().ok(),
        _ => None,
    };
    match number.filter(|n| n.is_finite()) {
        Some(n) if (1.0..=10.0).contains(&n) && n.fract() == 0.0 => json!(n as u8),
        Some(n) => {
            let clamped = n.round().clamp(1.0, 10.0) as u8;
            notes.push(format!("tension {n} is outside 1–10; clamped to {clamped}"));
            json!(clamped)
        }
        None => {
            notes.push(format!(
                "tension was missing or not a number; kept {}",
                fallbacks.tension
            ));
            json!(fallbacks.tension)
        }
    }
}

/// The plan verdict in the words it is stored in: `{"verdict": "realized"|"partly"|"not",
/// "missed": [..]}`, read from the forms models give it ("realised", a bare string, `missed` as
/// one text); anything else is dropped with a note (the scene is then "not judged").
fn plan_verdict(value: Option<&Value>, notes: &mut Vec<String>) -> Option<Value> {
    use crate::model::Realized;
    let (word, missed) = match value? {
        Value::Null => return None,
        Value::String(s) => (Some(s.as_str()), None),
        Value::Object(o) => (o.get("verdict").and_then(Value::as_str), o.get("missed")),
        other => {
            notes.push(format!(
                "dropped the plan verdict {}: not a verdict",
                crate::text::clip(&other.to_string(), 80)
            ));
            return None;
        }
    };
    let Some(verdict) = word.and_then(Realized::parse) else {
        notes.push(format!(
            "dropped the plan verdict {}: not realized, partly or not",
            word.map_or("(missing)".to_string(), |w| format!(
                "\"{}\"",
                clean_line(w)
            ))
        ));
        return None;
    };
    let missed: Vec<String> = match missed {
        Some(Value::Array(items)) => items
            .iter()
            .filter_map(Value::as_str)
            .map(clean_line)
            .filter(|m| !m.is_empty())
            .take(10)
            .collect(),
        Some(Value::String(s)) if !s.trim().is_empty() => vec![clean_line(s)],
        _ => Vec::new(),
    };
    Some(json!({"verdict": verdict.as_str(), "missed": missed}))
}

/// The most memory records one extraction may bring into a tick, all lists together: a scene
/// implies a few dozen at most, and an answer of thousands (a model looping, or a hostile
/// server) would bury the story memory and the tick's commit. The rest is dropped and noted.
pub const MAX_RECORDS_PER_TICK: usize = 100;

/// Dropped invalid items noted one by one per list; the rest are counted in one note.
const NOTED_DROPS: usize = 5;

/// "1st", "2nd", "3rd", "4th"… for the item a note names.
fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// Every list field, item by item: clamped where a range is obvious, dropped when invalid;
/// in all at most [`MAX_RECORDS_PER_TICK`] records, in the order the fields are listed here.
fn lists(object: &Map<String, Value>, out: &mut Map<String, Value>, notes: &mut Vec<String>) {
    // Each field with the words its notes use: the writer reads them in the timeline.
    let fields: [(&str, &str, SchemaValidator); 10] = [
        (
            "character_updates",
            "changes to characters",
            validator::<RecordChange>(),
        ),
        (
            "new_characters",
            "new characters",
            validator::<NewCharacter>(),
        ),
        (
            "location_updates",
            "changes to places",
            validator::<RecordChange>(),
        ),
        ("new_locations", "new places", validator::<NewLocation>()),
        (
            "relationship_changes",
            "relationship changes",
            validator::<RelationshipChange>(),
        ),
        ("loops_opened", "loops opened", validator::<NewLoop>()),
        (
            "loops_advanced",
            "loops advanced",
            validator::<LoopProgress>(),
        ),
        (
            "loops_resolved",
            "loops resolved",
            validator::<LoopProgress>(),
        ),
        ("lore", "lore", validator::<NewLore>()),
        ("conditions", "conditions", validator::<ConditionChange>()),
    ];
    let mut room = MAX_RECORDS_PER_TICK;
    let mut over: Vec<String> = Vec::new();
    for (field, words, validator) in fields {
        let items = match object.get(field) {
            None | Some(Value::Null) => continue,
            Some(Value::Array(items)) => items,
            Some(other) => {
                notes.push(format!(
                    "dropped the {words}: a list was expected, not {}",
                    crate::text::clip(&other.to_string(), 80)
                ));
                continue;
            }
        };
        let mut kept = Vec::new();
        let mut invalid = 0;
        for (i, item) in items.iter().enumerate() {
            if room == 0 {
                over.push(format!("{} {words}", items.len() - i));
                break;
            }
            let item = clamp_item(item);
            match validator.violations(&item).first() {
                None => {
                    kept.push(item);
                    room -= 1;
                }
                Some(problem) => {
                    invalid += 1;
                    if invalid <= NOTED_DROPS {
                        notes.push(format!(
                            "dropped the {} of the {words}: {problem}",
                            ordinal(i + 1)
                        ));
                    }
                }
            }
        }
        if invalid > NOTED_DROPS {
            notes.push(format!(
                "dropped {} more unusable {words}",
                invalid - NOTED_DROPS
            ));
        }
        out.insert(field.to_string(), Value::Array(kept));
    }
    if !over.is_empty() {
        notes.push(format!(
            "kept the first {MAX_RECORDS_PER_TICK} memory records of this scene and dropped the \
             rest ({}): more than one scene could have",
            over.join(", ")
        ));
    }
}

fn validator<T: JsonSchema>() -> SchemaValidator {
    SchemaValidator::for_type::<T>()
}

/// Ranges every item kind shares: intensity 1–10, tension level 1–5.
fn clamp_item(item: &Value) -> Value {
    let mut item = item.clone();
    if let Some(map) = item.as_object_mut() {
        for (key, range) in [("intensity", (1.0, 10.0)), ("tension_level", (1.0, 5.0))] {
            if let Some(n) = map.get(key).and_then(Value::as_f64) {
                map.insert(key.into(), json!(n.round().clamp(range.0, range.1) as u8));
            }
        }
    }
    item
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::SchemaValidator;
    use crate::tick::Extraction;

    fn fallbacks() -> Fallbacks {
        Fallbacks::from_prose(
            "Tamsin waited under the pier until the watch had gone.\n\nThen she ran.",
            Some(4),
        )
    }

    #[test]
    fn fallbacks_come_from_the_prose() {
        let f = fallbacks();
        assert_eq!(f.title, "Tamsin waited under the");
        assert_eq!(f.summary.len(), 2);
        assert_eq!(f.tension, 4);
    }

    #[test]
    fn a_smollm_extraction_is_salvaged_and_every_repair_noted() {
        let answer = json!({
            "title": ",", "summary": "Tamsin hides.\nBram lies.", "tension": 30,
            "new_characters": [{"name": "Bram", "role": "dockhand"}, {"role": "nameless"}],
            "relationship_changes": [{"character_a": "C0", "character_b": "C1", "kind": "ally", "intensity": 14}],
            "loops_opened": "none"
        });
        let s = salvage(&answer, &fallbacks()).unwrap();
        assert!(
            SchemaValidator::for_type::<Extraction>()
                .violations(&s.value)
                .is_empty(),
            "{:?}",
            s.value
        );
        assert_eq!(s.value["title"], "Tamsin waited under the");
        assert_eq!(s.value["summary"], json!(["Tamsin hides.", "Bram lies."]));
        assert_eq!(s.value["tension"], 10);
        assert_eq!(s.value["new_characters"].as_array().unwrap().len(), 1);
        assert_eq!(s.value["relationship_changes"][0]["intensity"], 10);
        let notes = s.notes.join("\n");
        for expected in [
            "title",
            "tension 30",
            "the 2nd of the new characters",
            "dropped the loops opened",
            "one text",
        ] {
            assert!(
                notes.contains(expected),
                "{expected} missing from:\n{notes}"
            );
        }
    }

    #[test]
    fn an_id_echoed_in_the_title_is_taken_out_and_not_quoted_in_the_note() {
        let answer = json!({
            "title": "Tamsin Vale (C0) The Realm", "summary": ["Tamsin hides."], "tension": 4
        });
        let s = salvage(&answer, &fallbacks()).unwrap();
        assert_eq!(s.value["title"], "Tamsin Vale The Realm");
        let notes = s.notes.join("\n");
        assert!(notes.contains("the title was trimmed"), "{notes}");
        assert!(crate::ids::raw_ids(&notes).is_empty(), "{notes}");
    }

    #[test]
    fn thousands_of_records_are_cut_to_the_cap_and_the_drop_is_noted() {
        let characters: Vec<Value> = (0..3000)
            .map(|i| json!({"name": format!("Extra {i}"), "role": "crowd"}))
            .collect();
        let lore: Vec<Value> = (0..2000)
            .map(|i| json!({"title": format!("Fact {i}"), "text": "x"}))
            .collect();
        let broken: Vec<Value> = (0..50).map(|_| json!({"role": "nameless"})).collect();
        let answer = json!({"title": "Crowds", "summary": ["A."], "tension": 5,
                            "character_updates": broken,
                            "new_characters": characters, "lore": lore});
        let s = salvage(&answer, &fallbacks()).unwrap();
        let kept: usize = s
            .value
            .as_object()
            .unwrap()
            .values()
            .filter_map(Value::as_array)
            .filter(|items| items.iter().all(Value::is_object))
            .map(Vec::len)
            .sum();
        assert_eq!(kept, MAX_RECORDS_PER_TICK);
        assert_eq!(
            s.value["new_characters"].as_array().unwrap().len(),
            MAX_RECORDS_PER_TICK
        );
        let notes = s.notes.join("\n");
        assert!(
            notes.contains("kept the first 100 memory records")
                && notes.contains("2900 new characters")
                && notes.contains("2000 lore"),
            "{notes}"
        );
        assert!(
            notes.contains("45 more unusable changes to characters"),
            "{notes}"
        );
        assert!(s.notes.len() < 10, "{} notes", s.notes.len());
    }

    #[test]
    fn a_plan_verdict_is_read_in_the_words_models_use_and_a_bad_one_dropped() {
        let answer = json!({"title": "Low Tide", "summary": ["A."], "tension": 5,
                            "plan_verdict": {"verdict": "Partial", "missed": "she never reaches the quay"}});
        let s = salvage(&answer, &fallbacks()).unwrap();
        assert_eq!(
            s.value["plan_verdict"],
            json!({"verdict": "partly", "missed": ["she never reaches the quay"]})
        );
        let e: Extraction = serde_json::from_value(s.value).unwrap();
        assert_eq!(
            e.plan_verdict.unwrap().verdict,
            crate::model::Realized::Partly
        );
        let answer = json!({"title": "Low Tide", "summary": ["A."], "tension": 5,
                            "plan_verdict": {"verdict": "maybe"}});
        let s = salvage(&answer, &fallbacks()).unwrap();
        assert!(s.value.get("plan_verdict").is_none());
        assert!(s.notes.join(" ").contains("\"maybe\""), "{:?}", s.notes);
    }

    #[test]
    fn a_good_extraction_passes_untouched() {
        let answer = json!({"title": "Low Tide", "summary": ["A.", "B.", "C."], "tension": 5,
                            "loops_resolved": [{"id": "O1", "note": "found"}]});
        let s = salvage(&answer, &fallbacks()).unwrap();
        assert!(s.notes.is_empty(), "{:?}", s.notes);
        assert_eq!(s.value, answer);
        assert!(salvage(&json!([1]), &fallbacks()).is_none());
    }
}
