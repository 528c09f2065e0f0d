//! The story as a graph: characters and locations as nodes; relationships (typed, with
//! intensity), map connections and each character's whereabouts as edges.

use rusqlite::Connection;
use serde::Serialize;

use crate::model::LifeStatus;
use crate::store::{self, StoreError};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "snake_case")]
pub enum NodeKind {
    Character,
    Location,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "snake_case")]
pub enum EdgeKind {
    Relationship,
    Connection,
    /// A character's last known location.
    Presence,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct GraphNode {
    pub id: String,
    pub kind: NodeKind,
    pub label: String,
    /// Role of a character, first words of a location's description.
    pub subtitle: String,
    pub first_tick: u32,
    pub last_update_tick: u32,
    /// False for a character known to be dead.
    pub alive: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct GraphEdge {
    pub id: String,
    pub kind: EdgeKind,
    pub source: String,
    pub target: String,
    pub label: String,
    /// 1–10 for relationships.
    pub intensity: Option<u8>,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct StoryGraph {
    pub nodes: Vec<GraphNode>,
    pub edges: Vec<GraphEdge>,
}

pub fn story_graph(conn: &Connection) -> Result<StoryGraph, StoreError> {
    let mut graph = StoryGraph::default();
    let locations = store::list_locations(conn)?;
    for l in &locations {
        graph.nodes.push(GraphNode {
            id: l.id.clone(),
            kind: NodeKind::Location,
            label: l.name.clone(),
            subtitle: first_words(&l.description, 8),
            first_tick: l.first_tick,
            last_update_tick: l.last_update_tick,
            alive: true,
        });
    }
    for c in store::list_characters(conn)? {
        if let Some(place) = c.last_location.as_ref()
            && locations.iter().any(|l| &l.id == place)
        {
            graph.edges.push(GraphEdge {
                id: format!("{}@{place}", c.id),
                kind: EdgeKind::Presence,
                source: c.id.clone(),
                target: place.clone(),
                label: "is at".into(),
                intensity: None,
            });
        }
        graph.nodes.push(GraphNode {
            subtitle: c.role.clone(),
            alive: c.status != LifeStatus::Dead,
            id: c.id,
            kind: NodeKind::Character,
            label: c.name,
            first_tick: c.first_tick,
            last_update_tick: c.last_update_tick,
        });
    }
    for r in store::list_relationships(conn, None)? {
        graph.edges.push(GraphEdge {
            id: r.id,
            kind: EdgeKind::Relationship,
            source: r.character_a,
            target: r.character_b,
            label: if r.status.is_empty() {
                r.kind
            } else {
                format!("{} ({})", r.kind, r.status)
            },
            intensity: Some(r.intensity),
        });
    }
    for (a, b, description) in store::list_connections(conn)? {
        graph.edges.push(GraphEdge {
            id: format!("{a}~{b}"),
            kind: EdgeKind::Connection,
            source: a,
            target: b,
            label: if description.is_empty() {
                "leads to".into()
            } else {
                description
            },
            intensity: None,
        });
    }
    Ok(graph)
}

fn first_words(text: &str, n: usize) -> String {
    let words: Vec<&str> = text.split_whitespace().collect();
    if words.len() <= n {
        words.join(" ")
    } else {
        format!("{}…", words[..n].join(" "))
    }
}
