//! Plans mended instead of thrown away. A weak model's plan is often right about the scene and
//! wrong about a reference: it names a place instead of giving its id, invents a beat, or
//! calls a tool that does not exist. Names are always resolved to ids (there is no doubt about
//! "the Salt Archive" when the story has one). On the last planning attempt, what still names
//! nothing is dropped instead of failing the tick: an unknown place, POV or beat is cleared
//! (the scene happens where the POV is), an action with an unknown tool is left out with those
//! depending on it, overlong text is cut, and a missing intention is taken from the rationale.
//! Every change is a note for the tick record.

use serde_json::{Map, Value};

/// Longest text kept of the rationale and the intention when the plan is salvaged (the
/// schema's `maxLength`).
pub const MAX_TEXT_CHARS: usize = 600;
/// The schema's bounds on the expected outcomes.
const MAX_OUTCOMES: usize = 6;
const MAX_OUTCOME_CHARS: usize = 300;

/// One named record a plan may refer to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Named {
    pub id: String,
    pub name: String,
    pub aliases: Vec<String>,
}

/// What a plan may name this tick.
#[derive(Clone, Default)]
pub struct Known {
    pub characters: Vec<Named>,
    pub locations: Vec<Named>,
    /// The outline's open beats.
    pub beats: Vec<String>,
    pub tools: Vec<String>,
    /// The registry the tools' arguments are checked against; without it only names are.
    pub registry: Option<crate::tools::ToolRegistry>,
}

/// How far to go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mending {
    /// Only what cannot be wrong: names resolved to ids.
    Names,
    /// Also drop what still names nothing (the last attempt).
    Salvage,
}

/// The plan `value` mended as far as `mending` allows, with a note per change.
pub fn mend_plan(value: &Value, known: &Known, mending: Mending) -> (Value, Vec<String>) {
    let mut value = value.clone();
    let mut notes = Vec::new();
    let Some(plan) = value.as_object_mut() else {
        return (value, notes);
    };
    resolve(plan, "pov_character", &known.characters, &mut notes);
    resolve(plan, "target_location", &known.locations, &mut notes);
    if mending == Mending::Salvage {
        let creates_place = actions(plan)
            .iter()
            .any(|a| a.get("tool").and_then(Value::as_str) == Some("location.generate"));
        clear_unknown(
            plan,
            "pov_character",
            &ids(&known.characters),
            (
                "told it from the point of view of",
                "a character",
                "no one in the story",
            ),
            "left to the writer model",
            &mut notes,
        );
        let place_note = if creates_place {
            "a place this plan creates"
        } else {
            "the POV character's place"
        };
        if let Some(place) = unknown(plan, "target_location", &ids(&known.locations)) {
            plan.insert("target_location".into(), Value::Null);
            notes.push(format!(
                "the plan set the scene at {}, which is no place in the story: it is set at {place_note}",
                quoted(&place, "a place")
            ));
        }
        clear_unknown(
            plan,
            "beat",
            &known.beats,
            (
                "meant the scene for the outline beat",
                "a beat",
                "not in the outline",
            ),
            "the scene is meant for no beat",
            &mut notes,
        );
        drop_unknown_tools(plan, known, &mut notes);
        fill_intention(plan, &mut notes);
        cut_long_text(plan, &mut notes);
    }
    (value, notes)
}

fn ids(named: &[Named]) -> Vec<String> {
    named.iter().map(|n| n.id.clone()).collect()
}

fn actions(plan: &Map<String, Value>) -> Vec<Value> {
    plan.get("actions")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default()
}

/// The field's text when it is set and names none of `ids`.
fn unknown(plan: &Map<String, Value>, field: &str, ids: &[String]) -> Option<String> {
    let text = plan.get(field)?;
    let text = match text {
        Value::Null => return None,
        Value::String(s) if s.trim().is_empty() => return None,
        Value::String(s) => s.trim().to_string(),
        other => other.to_string(),
    };
    (!ids.contains(&text)).then_some(text)
}

/// Clears `field` when it names nothing, with a note in words: `(what the plan did, what a
/// bare id stands for, why it is refused)` and what happens instead.
fn clear_unknown(
    plan: &mut Map<String, Value>,
    field: &str,
    ids: &[String],
    (did, kind, refused): (&str, &str, &str),
    instead: &str,
    notes: &mut Vec<String>,
) {
    if let Some(text) = unknown(plan, field, ids) {
        plan.insert(field.into(), Value::Null);
        notes.push(format!(
            "the plan {did} {}, {refused}: {instead}",
            quoted(&text, kind)
        ));
    }
}

/// A model's reference as a note quotes it: its words in quotes, or, when it is only an id
/// (which means nothing to the writer, and names nothing here), what kind of thing it meant.
fn quoted(text: &str, kind: &str) -> String {
    if crate::ids::looks_like_id(text) {
        kind.to_string()
    } else {
        format!("\"{}\"", short(text))
    }
}

/// A name (or alias) given where an id belongs becomes that id, when exactly one record
/// answers to it.
fn resolve(plan: &mut Map<String, Value>, field: &str, records: &[Named], notes: &mut Vec<String>) {
    let Some(given) = plan.get(field).and_then(Value::as_str).map(str::trim) else {
        return;
    };
    if given.is_empty() || records.iter().any(|r| r.id == given) {
        return;
    }
    let wanted = normalise(given);
    let matches: Vec<&Named> = records
        .iter()
        .filter(|r| {
            std::iter::once(&r.name)
                .chain(r.aliases.iter())
                .any(|n| normalise(n) == wanted)
        })
        .collect();
    if let [only] = matches.as_slice() {
        let role = if field == "pov_character" {
            "its point of view"
        } else {
            "its place"
        };
        notes.push(format!(
            "the plan gave {role} as \"{}\": taken to be {}",
            short(given),
            only.name
        ));
        plan.insert(field.into(), Value::String(only.id.clone()));
    }
}

/// Lowercase words without a leading article or surrounding punctuation.
fn normalise(text: &str) -> String {
    let words: Vec<String> = text
        .split_whitespace()
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase()
        })
        .filter(|w| !w.is_empty())
        .collect();
    let start = usize::from(words.first().is_some_and(|w| w == "the"));
    words[start.min(words.len())..].join(" ")
}

/// Leaves out actions whose tool does not exist or whose arguments it refuses, and those that
/// depend on them.
fn drop_unknown_tools(plan: &mut Map<String, Value>, known: &Known, notes: &mut Vec<String>) {
    let tools = &known.tools;
    let Some(list) = plan.get("actions").and_then(Value::as_array).cloned() else {
        return;
    };
    let id_of = |i: usize, a: &Value| {
        a.get("id")
            .and_then(Value::as_str)
            .map_or_else(|| format!("a{i}"), str::to_string)
    };
    let mut dropped: Vec<String> = Vec::new();
    // Dependencies only point backwards in a valid plan; a second pass catches the rest.
    for _ in 0..2 {
        for (i, action) in list.iter().enumerate() {
            let id = id_of(i, action);
            if dropped.contains(&id) {
                continue;
            }
            let tool = action.get("tool").and_then(Value::as_str).unwrap_or("");
            let depends_on_dropped = action
                .get("dependencies")
                .and_then(Value::as_array)
                .is_some_and(|deps| {
                    deps.iter()
                        .filter_map(Value::as_str)
                        .any(|d| dropped.iter().any(|x| x == d))
                });
            let args = action
                .get("args")
                .cloned()
                .unwrap_or(Value::Object(Map::new()));
            let refused = known
                .registry
                .as_ref()
                .and_then(|r| r.check(tool, &args).err());
            if !tools.iter().any(|t| t == tool) {
                notes.push(format!(
                    "the plan asked for \"{}\", which the agent cannot do: left out",
                    short(tool)
                ));
                dropped.push(id);
            } else if refused.is_some() {
                notes.push(format!(
                    "the plan asked to {} in a way the story cannot take: left out",
                    crate::tools::in_words(tool)
                ));
                dropped.push(id);
            } else if depends_on_dropped {
                notes.push(format!(
                    "the plan asked to {} with what a step left out would have found: left out too",
                    crate::tools::in_words(tool)
                ));
                dropped.push(id);
            }
        }
    }
    let kept: Vec<Value> = list
        .iter()
        .enumerate()
        .filter(|(i, a)| !dropped.contains(&id_of(*i, a)))
        .map(|(_, a)| a.clone())
        .collect();
    plan.insert("actions".into(), Value::Array(kept));
}

/// A plan without an intention but with a rationale or an outcome still says what happens.
fn fill_intention(plan: &mut Map<String, Value>, notes: &mut Vec<String>) {
    let has = plan
        .get("scene_intention")
        .and_then(Value::as_str)
        .is_some_and(|s| !s.trim().is_empty());
    if has {
        return;
    }
    let from_outcome = plan
        .get("expected_outcomes")
        .and_then(Value::as_array)
        .and_then(|o| o.first())
        .and_then(Value::as_str)
        .map(str::to_string);
    let from_rationale = plan
        .get("rationale")
        .and_then(Value::as_str)
        .map(str::to_string);
    let source = from_rationale
        .filter(|s| !s.trim().is_empty())
        .map(|s| ("reason", s))
        .or_else(|| {
            from_outcome
                .filter(|s| !s.trim().is_empty())
                .map(|s| ("first expected outcome", s))
        });
    if let Some((field, text)) = source {
        plan.insert("scene_intention".into(), Value::String(text));
        notes.push(format!(
            "the plan did not say what happens in the scene: its {field} stands in"
        ));
    }
}

/// Free text past the schema's lengths is cut at a word boundary.
fn cut_long_text(plan: &mut Map<String, Value>, notes: &mut Vec<String>) {
    for (field, what) in [
        ("rationale", "reason"),
        ("scene_intention", "account of what happens"),
    ] {
        if let Some(Value::String(text)) = plan.get_mut(field)
            && text.chars().count() > MAX_TEXT_CHARS
        {
            *text = cut(text, MAX_TEXT_CHARS);
            notes.push(format!(
                "the plan's {what} ran past {MAX_TEXT_CHARS} characters: cut there"
            ));
        }
    }
    if let Some(Value::Array(outcomes)) = plan.get_mut("expected_outcomes") {
        outcomes.truncate(MAX_OUTCOMES);
        for outcome in outcomes.iter_mut() {
            if let Value::String(text) = outcome
                && text.chars().count() > MAX_OUTCOME_CHARS
            {
                *text = cut(text, MAX_OUTCOME_CHARS);
            }
        }
    }
}

/// `text` cut to at most `limit` characters, at a word boundary.
fn cut(text: &str, limit: usize) -> String {
    let mut out = String::new();
    for word in text.split_whitespace() {
        let extra = word.chars().count() + usize::from(!out.is_empty());
        if out.chars().count() + extra > limit {
            break;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

/// A model's text as a note quotes it: one line, not too long.
fn short(text: &str) -> String {
    let line: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if line.chars().count() > 60 {
        format!("{}…", line.chars().take(60).collect::<String>())
    } else {
        line
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn known() -> Known {
        Known {
            characters: vec![Named {
                id: "C0".into(),
                name: "Tamsin Vale".into(),
                aliases: vec!["Tam".into()],
            }],
            locations: vec![
                Named {
                    id: "L0".into(),
                    name: "Rainmarket Docks".into(),
                    aliases: Vec::new(),
                },
                Named {
                    id: "L1".into(),
                    name: "The Salt Archive".into(),
                    aliases: Vec::new(),
                },
            ],
            beats: vec!["B0".into()],
            tools: vec!["memory.search".into(), "location.generate".into()],
            registry: Some(crate::tools::ToolRegistry::standard()),
        }
    }

    #[test]
    fn a_name_given_for_an_id_is_resolved_on_every_attempt() {
        let plan = json!({"pov_character": "Tam", "target_location": "salt archive"});
        let (mended, notes) = mend_plan(&plan, &known(), Mending::Names);
        assert_eq!(mended["pov_character"], "C0");
        assert_eq!(mended["target_location"], "L1");
        assert_eq!(
            notes,
            [
                "the plan gave its point of view as \"Tam\": taken to be Tamsin Vale",
                "the plan gave its place as \"salt archive\": taken to be The Salt Archive",
            ]
        );
        // Without salvage, what names nothing stays for the model to repair.
        let plan = json!({"target_location": "A city of the mountains", "beat": "the big fight"});
        let (mended, notes) = mend_plan(&plan, &known(), Mending::Names);
        assert_eq!(mended, plan);
        assert!(notes.is_empty());
    }

    #[test]
    fn the_last_attempt_clears_what_names_nothing_and_notes_it() {
        let plan = json!({
            "rationale": "She must run.", "scene_intention": "",
            "pov_character": "C0", "target_location": "L9", "beat": "the big fight",
            "actions": [
                {"id": "x", "tool": "Sect: 1", "args": {}},
                {"id": "z", "tool": "location.generate", "args": {"description": "no name"}},
                {"id": "y", "tool": "memory.search", "args": {"query": "q"}, "dependencies": ["x"]},
                {"tool": "memory.search", "args": {"query": "bells"}}
            ],
            "expected_outcomes": ["she runs"]
        });
        let (mended, notes) = mend_plan(&plan, &known(), Mending::Salvage);
        assert_eq!(mended["target_location"], Value::Null);
        assert_eq!(mended["beat"], Value::Null);
        assert_eq!(mended["pov_character"], "C0");
        assert_eq!(mended["scene_intention"], "She must run.");
        let tools: Vec<&str> = mended["actions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a["args"]["query"].as_str().unwrap_or(""))
            .collect();
        assert_eq!(
            tools,
            ["bells"],
            "the unknown tool and its dependant are gone"
        );
        let all = notes.join("\n");
        for expected in [
            "set the scene at a place, which is no place in the story",
            "\"the big fight\", not in the outline",
            "\"Sect: 1\", which the agent cannot do",
            "look something up in the story's memory with what a step left out",
            "add a place in a way the story cannot take",
            "did not say what happens",
        ] {
            assert!(all.contains(expected), "{expected} not noted:\n{all}");
        }
        // A writer reads these notes: no id, no field or tool name, whatever the model wrote.
        assert_eq!(crate::ids::raw_ids(&all), Vec::<&str>::new(), "{all}");
        for engine in ["target_location", "pov_character", "memory.search", "`"] {
            assert!(!all.contains(engine), "{engine} in:\n{all}");
        }
    }

    #[test]
    fn overlong_text_is_cut_at_a_word() {
        let looping = "100 times, you're still planning it. ".repeat(60);
        let plan = json!({"rationale": looping, "scene_intention": "x", "actions": [],
                          "pov_character": "C7"});
        let (mended, notes) = mend_plan(&plan, &known(), Mending::Salvage);
        assert_eq!(
            notes[0],
            "the plan told it from the point of view of a character, no one in the story: left to the writer model",
            "an invented id is named by what it stood for"
        );
        let notes = &notes[1..];
        let kept = mended["rationale"].as_str().unwrap();
        assert!(kept.chars().count() <= MAX_TEXT_CHARS, "{}", kept.len());
        assert!(kept.starts_with("100 times"));
        assert_eq!(notes.len(), 1, "{notes:?}");
    }
}
