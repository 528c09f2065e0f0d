//! The new-novel form: what a writer fills in to start a book, checked field by field so a
//! user interface can put each message beside its field, then turned into a [`NovelSeed`].

use serde::{Deserialize, Serialize};

use crate::config::{Foundation, GenerationSettings, NovelConfig, PointOfView, Tense};
use crate::memory::{NewCharacter, NewLocation};
use crate::novel::NovelSeed;

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct NewNovelForm {
    pub title: String,
    /// The author's name as exports print it; may be left empty.
    pub author: String,
    pub genre: String,
    pub premise: String,
    pub setting: String,
    pub tone: String,
    pub style: String,
    pub pov: PointOfView,
    pub tense: Tense,
    pub language: String,
    pub protagonist_name: String,
    pub protagonist_role: String,
    pub protagonist_description: String,
    pub location_name: String,
    pub location_description: String,
    pub goal: String,
}

/// One problem with one field of the form, keyed by the field's name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct FieldError {
    pub field: String,
    pub message: String,
}

const LIMITS: &[(&str, usize)] = &[
    ("title", 200),
    ("author", 200),
    ("genre", 200),
    ("premise", 4000),
    ("setting", 4000),
    ("tone", 500),
    ("style", 500),
    ("language", 60),
    ("protagonist_name", 120),
    ("protagonist_role", 200),
    ("protagonist_description", 2000),
    ("location_name", 120),
    ("location_description", 2000),
    ("goal", 1000),
];

impl NewNovelForm {
    /// A filled-in form ("Salt and Iron": Tamsin Vale at the Rainmarket Docks), for tests.
    #[cfg(any(test, feature = "test-support"))]
    pub fn example() -> NewNovelForm {
        NewNovelForm {
            title: "Salt and Iron".into(),
            premise: "A smuggler hunts the men who framed her brother.".into(),
            language: "English".into(),
            protagonist_name: "Tamsin Vale".into(),
            location_name: "Rainmarket Docks".into(),
            goal: "Clear her brother's name".into(),
            ..NewNovelForm::default()
        }
    }

    fn field(&self, name: &str) -> &str {
        match name {
            "title" => &self.title,
            "author" => &self.author,
            "genre" => &self.genre,
            "premise" => &self.premise,
            "setting" => &self.setting,
            "tone" => &self.tone,
            "style" => &self.style,
            "language" => &self.language,
            "protagonist_name" => &self.protagonist_name,
            "protagonist_role" => &self.protagonist_role,
            "protagonist_description" => &self.protagonist_description,
            "location_name" => &self.location_name,
            "location_description" => &self.location_description,
            "goal" => &self.goal,
            _ => "",
        }
    }

    /// Every problem with the form; empty when it can become a novel.
    pub fn validate(&self) -> Vec<FieldError> {
        let mut errors = Vec::new();
        let mut push = |field: &str, message: &str| {
            errors.push(FieldError {
                field: field.into(),
                message: message.into(),
            })
        };
        for (field, message) in [
            ("title", "Give the novel a title."),
            (
                "premise",
                "Say in a sentence or two what the story is about.",
            ),
            ("language", "Name the language to write in, e.g. English."),
            ("protagonist_name", "Name the protagonist."),
            ("location_name", "Name the place where the story starts."),
            ("goal", "Say what the protagonist wants to achieve."),
        ] {
            if self.field(field).trim().is_empty() {
                push(field, message);
            }
        }
        for &(field, max) in LIMITS {
            if self.field(field).chars().count() > max {
                push(field, &format!("Keep this under {max} characters."));
            }
        }
        errors
    }

    /// The seed for [`crate::novel::Novel::create`], or the form's problems.
    pub fn to_seed(&self) -> Result<NovelSeed, Vec<FieldError>> {
        let errors = self.validate();
        if !errors.is_empty() {
            return Err(errors);
        }
        let t = |s: &str| s.trim().to_string();
        let foundation = Foundation {
            title: t(&self.title),
            author: t(&self.author),
            genre: t(&self.genre),
            premise: t(&self.premise),
            setting: t(&self.setting),
            tone: t(&self.tone),
            style: t(&self.style),
            pov: self.pov,
            tense: self.tense,
            language: t(&self.language),
            themes: Vec::new(),
            author_note: String::new(),
        };
        let config = NovelConfig {
            models: Default::default(),
            budget: Default::default(),
            novel: foundation,
            generation: GenerationSettings::default(),
        };
        config.validate().map_err(|e| {
            // The form's fields are the `[novel]` table's keys; anything else is the title's.
            let field = e.key.strip_prefix("novel.").unwrap_or("title").to_string();
            vec![FieldError {
                field,
                message: e.to_string(),
            }]
        })?;
        Ok(NovelSeed {
            foundation: config.novel,
            generation: config.generation,
            protagonist: NewCharacter {
                name: t(&self.protagonist_name),
                role: t(&self.protagonist_role),
                description: t(&self.protagonist_description),
                goals: vec![t(&self.goal)],
                ..NewCharacter::default()
            },
            location: NewLocation {
                name: t(&self.location_name),
                description: t(&self.location_description),
                ..NewLocation::default()
            },
            goal: t(&self.goal),
            lore: Vec::new(),
        })
    }

    /// A folder name for the novel: its title, lower-case, with dashes.
    pub fn folder_name(&self) -> String {
        let slug = crate::export::slug(&self.title);
        if slug.is_empty() {
            "novel".into()
        } else {
            slug
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn filled() -> NewNovelForm {
        NewNovelForm::example()
    }

    #[test]
    fn each_missing_field_gets_its_own_message() {
        let errors = NewNovelForm::default().validate();
        let fields: Vec<&str> = errors.iter().map(|e| e.field.as_str()).collect();
        assert_eq!(
            fields,
            [
                "title",
                "premise",
                "language",
                "protagonist_name",
                "location_name",
                "goal"
            ]
        );
        assert!(filled().validate().is_empty());
        let long = NewNovelForm {
            title: "x".repeat(201),
            ..filled()
        };
        assert_eq!(long.validate()[0].field, "title");
    }

    #[test]
    fn a_valid_form_becomes_a_seed_with_trimmed_text() {
        let seed = NewNovelForm {
            title: "  Salt and Iron ".into(),
            ..filled()
        }
        .to_seed()
        .unwrap();
        assert_eq!(seed.foundation.title, "Salt and Iron");
        assert_eq!(seed.foundation.author, "", "the author may be left empty");
        let named = NewNovelForm {
            author: " Mara Quill ".into(),
            ..filled()
        };
        assert_eq!(named.to_seed().unwrap().foundation.author, "Mara Quill");
        let long = NewNovelForm {
            author: "x".repeat(201),
            ..filled()
        };
        assert_eq!(long.validate()[0].field, "author");
        assert_eq!(seed.protagonist.goals, ["Clear her brother's name"]);
        assert_eq!(filled().folder_name(), "salt-and-iron");
    }
}
