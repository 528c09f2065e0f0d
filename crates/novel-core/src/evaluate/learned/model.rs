//! A trained logistic model over a sentence's features ([`super::features`]): its weights
//! ship in the binary as a small text file (`weights/<family>.tsv`, written by
//! `scripts/train_sentence_model.py`), one `feature<TAB>weight` per line after three header
//! lines: `bias`, `threshold` (the probability a note needs) and `items` (how many labelled
//! items it was trained on, so a test can tell when the corpus has grown past it). Features
//! the file does not list weigh nothing.

use std::collections::HashMap;

/// A family's trained weights.
pub(super) struct Model {
    pub bias: f32,
    pub threshold: f32,
    pub items: usize,
    weights: HashMap<String, f32>,
}

/// A sentence's score and the features that pushed it up most.
pub(super) struct Score {
    pub probability: f32,
    /// The features that added most to the score (at most eight), heaviest first.
    pub reasons: Vec<String>,
}

impl Model {
    /// Reads a weights file; the files are constants of the build, so a bad one is a
    /// programming error reported with its line.
    pub fn parse(text: &str) -> Result<Model, String> {
        let mut model = Model {
            bias: 0.0,
            threshold: 1.0,
            items: 0,
            weights: HashMap::new(),
        };
        for (n, line) in text.lines().enumerate() {
            if line.starts_with('#') || line.trim().is_empty() {
                continue;
            }
            let (key, value) = line
                .split_once('\t')
                .ok_or_else(|| format!("line {}: expected feature<TAB>value", n + 1))?;
            match key {
                "items" => {
                    model.items = value
                        .parse()
                        .map_err(|e| format!("line {}: {e}", n + 1))?
                }
                _ => {
                    let value: f32 = value.parse().map_err(|e| format!("line {}: {e}", n + 1))?;
                    match key {
                        "bias" => model.bias = value,
                        "threshold" => model.threshold = value,
                        _ => {
                            model.weights.insert(key.to_string(), value);
                        }
                    }
                }
            }
        }
        if !(0.0..=1.0).contains(&model.threshold) {
            return Err(format!("threshold {} is not a probability", model.threshold));
        }
        Ok(model)
    }

    pub fn score(&self, features: &[String]) -> Score {
        let mut parts: Vec<(&str, f32)> = features
            .iter()
            .filter_map(|f| self.weights.get(f).map(|&w| (f.as_str(), w)))
            .collect();
        let logit = self.bias + parts.iter().map(|(_, w)| w).sum::<f32>();
        parts.sort_by(|a, b| b.1.total_cmp(&a.1));
        Score {
            probability: 1.0 / (1.0 + (-logit).exp()),
            reasons: parts
                .iter()
                .filter(|(_, w)| *w > 0.0)
                .take(8)
                .map(|(f, _)| f.to_string())
                .collect(),
        }
    }

    pub fn fires(&self, score: &Score) -> bool {
        score.probability >= self.threshold
    }
}
