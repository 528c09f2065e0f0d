//! How long the book audit takes on 300 scenes: the generated novel (`synthetic`, 500–700
//! words a scene, a growing cast, loops and history) grown to 300 scenes, then
//! `audit::audit` over the whole book — loading from `novel.db` and every criterion — timed
//! as the median of five runs after one warm-up, and split into loading and measuring. Prints
//! the report's numbers, so the audit of the generated benchmark novel is read off the same run.
//!
//! `cargo run --release -p novel-core --example bench_audit`

use std::time::{Duration, Instant};

use novel_core::audit::{self, Book};
use novel_core::synthetic;

fn median(mut runs: Vec<Duration>) -> Duration {
    runs.sort();
    runs[runs.len() / 2]
}

fn main() {
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let started = Instant::now();
    let novel = synthetic::generate(&tmp.path().join("bench"), 300, &[]).expect("a novel");
    println!(
        "generated 300 scenes in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    let conn = novel.store().conn();
    let report = audit::audit(conn, None, None).expect("the audit");
    let (mut whole, mut load, mut measure) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..5 {
        let t = Instant::now();
        let r = audit::audit(conn, None, None).expect("the audit");
        whole.push(t.elapsed());
        assert_eq!(r.scenes, 300);
        let t = Instant::now();
        let book = Book::load(conn, None, None).expect("the book");
        load.push(t.elapsed());
        let t = Instant::now();
        let _ = audit::assemble(&book);
        measure.push(t.elapsed());
    }
    println!(
        "audit of {} scenes ({} words): {:.0} ms (load {:.0} ms, criteria {:.0} ms), median of 5",
        report.scenes,
        report.words,
        median(whole).as_secs_f64() * 1000.0,
        median(load).as_secs_f64() * 1000.0,
        median(measure).as_secs_f64() * 1000.0
    );
    println!(
        "overall {:.0}/100, compared {}",
        report.overall, report.similarity
    );
    for c in &report.criteria {
        println!(
            "{:>5.0}  {:?}: {} ({} failures)",
            c.score,
            c.key,
            c.measure,
            c.failures.len()
        );
    }
}
