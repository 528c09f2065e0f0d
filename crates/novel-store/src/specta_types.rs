//! TypeScript-facing stand-ins for types specta cannot export as they are. `serde_json::Value`
//! contains 64-bit integers, which specta refuses (they would lose precision in JavaScript); the
//! JSON our front ends receive (tool arguments, record snapshots) holds small numbers, so it is
//! described as plain JSON with `number`. Only compiled for the `specta` feature.

use std::collections::HashMap;

/// Any JSON value, as TypeScript sees it.
#[derive(serde::Serialize, specta::Type)]
#[serde(untagged)]
#[allow(dead_code)] // Never constructed: it only describes a shape to the exporter.
pub enum JsonValue {
    Null(()),
    Bool(bool),
    Number(f32),
    String(String),
    Array(Vec<JsonValue>),
    Object(HashMap<String, JsonValue>),
}
