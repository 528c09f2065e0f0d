//! Benchmark of memory at scale, printed as Markdown (BENCHMARKS.md keeps the results):
//!
//! ```sh
//! cargo run --release -p novel-core --example bench_retrieval [-- --real-vectors]
//! ```
//!
//! 1. Prompt size: the planner's and the writer's prompt tokens at ticks 10, 100 and 300 of a
//!    generated novel, with semantic recall when the embedding model is installed.
//! 2. Indexing throughput: passages per second into the keyword index, and embeddings per
//!    second with the real model.
//! 3. Search latency over 20,000 indexed passages: hybrid search (FTS5 BM25 + brute-force cosine
//!    over 384-d vectors + rank fusion + snippets), p50/p95, and the real model's query
//!    embedding. Search cost does not depend on the vectors' values, so by default the 20,000
//!    vectors are the hashing stand-in's (384-d, same work per comparison); `--real-vectors`
//!    embeds all 20,000 with the real model instead (minutes on 2 cores).

use std::sync::Arc;
use std::time::{Duration, Instant};

use novel_core::novel::Novel;
use novel_core::plan::Plan;
use novel_core::retrieval::{Mode, Retrieval};
use novel_core::store::{self, SearchFilter};
use novel_core::synthetic;
use novel_core::tick::{PromptPreview, preview_next, preview_writer};
use novel_embed::{Embedder, HashEmbedder, Semantic};

const TARGET_CHUNKS: usize = 20_000;
const QUERIES: usize = 300;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let real_vectors = std::env::args().any(|a| a == "--real-vectors");
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let model = match novel_embed::local() {
        Semantic::On(m) => Some(m),
        Semantic::Off(why) => {
            eprintln!("{}", why.notice());
            None
        }
    };
    println!("## Results\n");
    println!(
        "Embedding model: {}\n",
        model
            .as_ref()
            .map_or("none (keyword search only)".to_string(), |m| format!(
                "{} ({} dimensions)",
                m.model_id(),
                m.dimension()
            ))
    );

    prompt_sizes(&runtime, model.clone())?;
    let (dir, mut novel) = large_novel()?;
    throughput(&runtime, &mut novel, model.clone())?;
    latency(&runtime, &mut novel, model, real_vectors)?;
    drop(dir);
    Ok(())
}

fn plan() -> Plan {
    serde_json::from_value(serde_json::json!({
        "rationale": "The debts are catching up with her.",
        "scene_intention": "Tamsin confronts Bram Holt at the Weighhouse about the missing shipment and the forged pass.",
        "pov_character": "C0",
        "target_location": "L0",
        "actions": [{"tool": "memory.search", "args": {"query": "missing shipment"}, "reason": "what is known"}],
        "expected_outcomes": ["Bram admits he sold the pass", "Tamsin learns who pays the tolls"]
    }))
    .expect("the benchmark's plan is valid")
}

fn previews(
    runtime: &tokio::runtime::Runtime,
    novel: &Novel,
) -> Result<(PromptPreview, PromptPreview), novel_core::tick::PreviewError> {
    let results = vec![(
        "memory.search".to_string(),
        serde_json::json!({"hits": [{"entity_id": "O3", "kind": "loop", "tick": 8, "title": "What was in the shipment that vanished?", "snippet": "the shipment vanished from the quay at night", "score": 0.03}]}),
    )];
    runtime.block_on(async {
        Ok((
            preview_next(novel, None).await?,
            preview_writer(novel, &plan(), &results, None).await?,
        ))
    })
}

fn sync(
    runtime: &tokio::runtime::Runtime,
    novel: &mut Novel,
) -> Result<usize, Box<dyn std::error::Error>> {
    let retrieval = novel.retrieval();
    let store = novel.store_mut().ok_or("novel not writable")?;
    let tx = store.transaction()?;
    let report = runtime.block_on(retrieval.sync(&tx))?;
    tx.commit()?;
    Ok(report.embedded)
}

fn prompt_sizes(
    runtime: &tokio::runtime::Runtime,
    model: Option<Arc<dyn Embedder>>,
) -> Result<(), Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    let mut novel = synthetic::generate(&dir.path().join("n"), 0, &[])?;
    if let Some(m) = model {
        novel.set_retrieval(Retrieval::with_embedder(m));
    }
    println!("### Prompt tokens of a generated novel (tiktoken count of the rendered request)\n");
    println!("| tick | planner | writer | planner sections (tokens / budget) |");
    println!("|---:|---:|---:|---|");
    let mut first: Option<(u32, u32)> = None;
    for tick in [10u32, 100, 300] {
        synthetic::extend(&mut novel, tick - 1, &[])?;
        sync(runtime, &mut novel)?;
        let (planner, writer) = previews(runtime, &novel)?;
        let sections: Vec<String> = planner
            .sections
            .iter()
            .filter(|s| s.tokens > 0)
            .map(|s| format!("{} {}/{}", s.name, s.tokens, s.budget))
            .collect();
        println!(
            "| {} | {} | {} | {} |",
            planner.tick,
            planner.prompt_tokens,
            writer.prompt_tokens,
            sections.join(", ")
        );
        let (p10, w10) = *first.get_or_insert((planner.prompt_tokens, writer.prompt_tokens));
        if tick == 300 {
            println!(
                "\nTick 300 / tick 10: planner {:.2}×, writer {:.2}× (limit 1.30×).\n",
                f64::from(planner.prompt_tokens) / f64::from(p10),
                f64::from(writer.prompt_tokens) / f64::from(w10)
            );
        }
    }
    Ok(())
}

/// A generated novel with at least [`TARGET_CHUNKS`] passages.
fn large_novel() -> Result<(tempfile::TempDir, Novel), Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    let started = Instant::now();
    let mut novel = synthetic::generate(&dir.path().join("big"), 500, &[])?;
    let mut scenes = 500;
    while store::count_chunks(novel.store().conn())? < TARGET_CHUNKS {
        scenes += 250;
        synthetic::extend(&mut novel, scenes, &[])?;
    }
    let elapsed = started.elapsed();
    let chunks = store::count_chunks(novel.store().conn())?;
    println!("### Indexing throughput\n");
    println!(
        "- Generated and committed {scenes} scenes ({chunks} passages) through the memory functions \
         a tick uses, passages indexed as written: {:.0} scenes/s, {:.0} passages/s.",
        f64::from(scenes) / elapsed.as_secs_f64(),
        chunks as f64 / elapsed.as_secs_f64()
    );
    Ok((dir, novel))
}

fn throughput(
    runtime: &tokio::runtime::Runtime,
    novel: &mut Novel,
    model: Option<Arc<dyn Embedder>>,
) -> Result<(), Box<dyn std::error::Error>> {
    let chunks = {
        let store = novel.store_mut().ok_or("novel not writable")?;
        let tx = store.transaction()?;
        let started = Instant::now();
        let n = store::rebuild_search_index(&tx)?;
        let elapsed = started.elapsed();
        tx.commit()?;
        println!(
            "- Keyword index rebuilt from the source tables (`reindex` without embeddings): {n} passages in {:.1} s, {:.0} passages/s.",
            elapsed.as_secs_f64(),
            n as f64 / elapsed.as_secs_f64()
        );
        n
    };
    if let Some(m) = model {
        // Every 20th passage: records, summaries and prose in their real proportions.
        let sample: Vec<String> = store::pending_chunks(novel.store().conn(), 20_000)?
            .iter()
            .step_by(20)
            .map(store::Chunk::embedding_text)
            .collect();
        let words: usize = sample.iter().map(|t| t.split_whitespace().count()).sum();
        let refs: Vec<&str> = sample.iter().map(String::as_str).collect();
        let started = Instant::now();
        for batch in refs.chunks(128) {
            m.embed(batch)?;
        }
        let elapsed = started.elapsed();
        println!(
            "- Embedding with {} (ONNX Runtime, CPU): {} passages (mean {} words) in {:.1} s, {:.0} passages/s; all {chunks} would take about {:.0} s.",
            m.model_id(),
            sample.len(),
            words / sample.len().max(1),
            elapsed.as_secs_f64(),
            sample.len() as f64 / elapsed.as_secs_f64(),
            chunks as f64 * elapsed.as_secs_f64() / sample.len() as f64
        );
    }
    let _ = runtime;
    println!();
    Ok(())
}

fn percentile(sorted: &[Duration], p: f64) -> f64 {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)].as_secs_f64() * 1000.0
}

fn queries() -> Vec<String> {
    let names = [
        "Bram Holt",
        "Ilse Marrow",
        "Corwin Ashby",
        "Nella Strand",
        "Piet Danner",
        "Yara Quill",
    ];
    let places = [
        "Saltgate Market",
        "the Weighhouse",
        "Gull Stair",
        "the Ropewalk",
        "Fogbell Quay",
        "Kettle Row",
    ];
    let questions = [
        "Who is paying {n} to watch the quay?",
        "What happened to the shipment at {p}?",
        "{n} argued about a debt",
        "where did {n} hide the forged pass",
        "the barge with the painted eye near {p}",
        "a man in a grey hat following someone through {p}",
        "who owes money to {n}",
        "rain and eels at {p}",
    ];
    (0..QUERIES)
        .map(|i| {
            questions[i % questions.len()]
                .replace("{n}", names[(i / 3) % names.len()])
                .replace("{p}", places[(i / 5) % places.len()])
        })
        .collect()
}

fn latency(
    runtime: &tokio::runtime::Runtime,
    novel: &mut Novel,
    model: Option<Arc<dyn Embedder>>,
    real_vectors: bool,
) -> Result<(), Box<dyn std::error::Error>> {
    let vectors: Arc<dyn Embedder> = match (&model, real_vectors) {
        (Some(m), true) => m.clone(),
        _ => Arc::new(HashEmbedder::new("hash-trigram-v1", 384)),
    };
    novel.set_retrieval(Retrieval::with_embedder(vectors.clone()));
    let started = Instant::now();
    let embedded = sync(runtime, novel)?;
    println!("### Search latency\n");
    println!(
        "- Vectors: {embedded} passages embedded with {} ({} dimensions) in {:.1} s.",
        vectors.model_id(),
        vectors.dimension(),
        started.elapsed().as_secs_f64()
    );
    let retrieval = novel.retrieval();
    let conn = novel.store().conn();
    let qs = queries();
    let query_vectors: Vec<Vec<f32>> = qs
        .iter()
        .map(|q| vectors.embed(&[q.as_str()]).map(|mut v| v.remove(0)))
        .collect::<Result<_, _>>()?;
    let all = SearchFilter::default();
    let started = Instant::now();
    retrieval.search(
        conn,
        &qs[0],
        &all,
        10,
        Some(&query_vectors[0]),
        Mode::Hybrid,
    )?;
    println!(
        "- First search, loading {embedded} vectors into memory: {:.0} ms.",
        started.elapsed().as_secs_f64() * 1000.0
    );
    let scenes = SearchFilter {
        kinds: vec![novel_core::ids::EntityKind::Scene],
        from_tick: Some(100),
        to_tick: Some(1_500),
    };
    println!(
        "\n| search ({} queries, top 10) | p50 ms | p95 ms | max ms |",
        qs.len()
    );
    println!("|---|---:|---:|---:|");
    for (label, filter, mode) in [
        ("hybrid, all passages", &all, Mode::Hybrid),
        ("hybrid, scenes of ticks 100–1500", &scenes, Mode::Hybrid),
        ("keyword only (FTS5 BM25)", &all, Mode::KeywordOnly),
        ("vector only (brute-force cosine)", &all, Mode::SemanticOnly),
    ] {
        let mut times = Vec::with_capacity(qs.len());
        for (q, v) in qs.iter().zip(&query_vectors) {
            let t = Instant::now();
            let hits = retrieval.search(conn, q, filter, 10, Some(v), mode)?;
            times.push(t.elapsed());
            std::hint::black_box(hits);
        }
        times.sort();
        println!(
            "| {label} | {:.1} | {:.1} | {:.1} |",
            percentile(&times, 0.5),
            percentile(&times, 0.95),
            percentile(&times, 1.0)
        );
    }
    if let Some(m) = model {
        let mut times = Vec::with_capacity(qs.len());
        for q in &qs {
            let t = Instant::now();
            m.embed(&[q.as_str()])?;
            times.push(t.elapsed());
        }
        times.sort();
        println!(
            "| query embedding with {} (per query, before the search) | {:.1} | {:.1} | {:.1} |",
            m.model_id(),
            percentile(&times, 0.5),
            percentile(&times, 0.95),
            percentile(&times, 1.0)
        );
    }
    println!();
    Ok(())
}
