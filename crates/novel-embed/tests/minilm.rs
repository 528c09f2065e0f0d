//! The real model, loaded the way the engine loads it. Skipped (with a note) when the model
//! files are absent, and a failure instead when NOVEL_REQUIRE_EMBEDDINGS=1 (CI fetches them).

use novel_embed::vector::dot;
use novel_embed::{MINILM_DIMENSION, MINILM_ID, local_or_required};

#[test]
fn minilm_places_a_paraphrase_nearer_than_a_passage_sharing_its_words() {
    let Some(model) = local_or_required() else {
        return;
    };
    assert_eq!(model.model_id(), MINILM_ID);
    assert_eq!(model.dimension(), MINILM_DIMENSION);
    let v = model
        .embed(&[
            "Old Hask buried the signal key beneath the third step of the lighthouse.",
            "Where did the keeper hide the thing that works the beacon?",
            "The third step of the market stairs was buried under snow, old and grey.",
        ])
        .unwrap();
    assert!(v.iter().all(|x| x.len() == MINILM_DIMENSION));
    assert!(v.iter().all(|x| (dot(x, x) - 1.0).abs() < 1e-4));
    let paraphrase = dot(&v[0], &v[1]);
    let lexical = dot(&v[0], &v[2]);
    assert!(
        paraphrase > lexical,
        "paraphrase {paraphrase} should beat word overlap {lexical}"
    );
    // Each text gets its own vector back, in order, the same as when embedded alone.
    for (i, text) in [
        "Old Hask buried the signal key beneath the third step of the lighthouse.",
        "Where did the keeper hide the thing that works the beacon?",
        "The third step of the market stairs was buried under snow, old and grey.",
    ]
    .iter()
    .enumerate()
    {
        let alone = model.embed(&[text]).unwrap();
        assert!(dot(&alone[0], &v[i]) > 0.999, "text {i}");
    }
}
