//! `novel tick --review`: review on the terminal. The plan is shown before its tools run
//! (accept, reject, or edit it as JSON in `$EDITOR`); then the scene, the checks' findings and
//! every memory change, numbered, before anything commits (accept, untick changes by number,
//! edit the prose in `$EDITOR`, or reject). Answers are read from standard input line by line,
//! so a script can answer too.

use std::io::BufRead;

use futures::future::BoxFuture;
use indicatif::ProgressBar;
use novel_core::run::Plan;
use novel_core::run::{PlanVerdict, Proposal, Reviewer, Verdict};

use crate::output::say;

pub struct TerminalReviewer {
    pub bar: ProgressBar,
}

fn ask(question: &str) -> String {
    say!("{question}");
    let mut line = String::new();
    // End of input answers like an empty line: the default.
    let _ = std::io::stdin().lock().read_line(&mut line);
    line.trim().to_string()
}

/// Opens `text` in `$EDITOR` (or `$VISUAL`) and returns what was saved.
fn edit_in_editor(text: &str, suffix: &str) -> Option<String> {
    let editor = std::env::var("VISUAL")
        .or_else(|_| std::env::var("EDITOR"))
        .ok()?;
    let file = tempfile::Builder::new().suffix(suffix).tempfile().ok()?;
    std::fs::write(file.path(), text).ok()?;
    let mut parts = editor.split_whitespace();
    let program = parts.next()?;
    let status = std::process::Command::new(program)
        .args(parts)
        .arg(file.path())
        .status()
        .ok()?;
    if !status.success() {
        return None;
    }
    std::fs::read_to_string(file.path()).ok()
}

fn show_plan(tick: u32, plan: &Plan) {
    say!("\n== Plan for scene {tick}\n{}", plan.scene_intention);
    say!("Why: {}", plan.rationale);
    for (i, a) in plan.actions.iter().enumerate() {
        say!(
            "  {}. {} {}",
            i + 1,
            a.tool,
            serde_json::Value::Object(a.args.clone())
        );
    }
}

fn show_proposal(p: &Proposal) {
    say!(
        "\n== Scene {}: \"{}\" (tension {})\n",
        p.tick,
        p.title,
        p.tension
    );
    say!("{}\n", p.prose);
    for f in &p.findings {
        say!("  check {:?}: {}", f.severity, f.message);
    }
    if p.changes.is_empty() {
        say!("No memory changes.");
    }
    for c in &p.changes {
        say!(
            "  [{}] {:?} {}: {}",
            c.index,
            c.category,
            c.subject,
            c.summary
        );
    }
    for n in &p.notes {
        say!("  note: {n}");
    }
}

impl TerminalReviewer {
    fn plan_verdict(&self, tick: u32, plan: &Plan) -> PlanVerdict {
        self.bar.suspend(|| {
            show_plan(tick, plan);
            loop {
                match ask("Plan: [a]ccept, [e]dit, [r]eject? (a)").as_str() {
                    "" | "a" => return PlanVerdict::Accept,
                    "r" => return PlanVerdict::Reject,
                    "e" => {
                        let json = serde_json::to_string_pretty(plan).unwrap_or_default();
                        match edit_in_editor(&json, ".json")
                            .map(|t| serde_json::from_str::<Plan>(&t))
                        {
                            Some(Ok(plan)) => return PlanVerdict::Edit { plan },
                            Some(Err(e)) => say!("That plan does not parse: {e}"),
                            None => say!("Set $EDITOR to edit the plan."),
                        }
                    }
                    other => say!("\"{other}\" is not an answer here."),
                }
            }
        })
    }

    fn verdict(&self, p: &Proposal) -> Verdict {
        self.bar.suspend(|| {
            show_proposal(p);
            let mut unticked: Vec<u32> = Vec::new();
            let mut prose = None;
            loop {
                let answer = ask("Commit: [a]ccept, [u]ntick N…, [e]dit prose, [r]eject? (a)");
                let mut words = answer.split_whitespace();
                match words.next().unwrap_or("a") {
                    "a" => return Verdict::Accept { prose, unticked },
                    "r" => return Verdict::Reject,
                    "u" => {
                        for n in words.filter_map(|w| w.parse::<u32>().ok()) {
                            if p.changes.iter().any(|c| c.index == n) && !unticked.contains(&n) {
                                unticked.push(n);
                            }
                        }
                        say!("Unticked: {unticked:?}");
                    }
                    "e" => match edit_in_editor(prose.as_deref().unwrap_or(&p.prose), ".md") {
                        Some(text) => prose = Some(text),
                        None => say!("Set $EDITOR to edit the prose."),
                    },
                    other => say!("\"{other}\" is not an answer here."),
                }
            }
        })
    }
}

impl Reviewer for TerminalReviewer {
    fn review_plan<'a>(&'a self, tick: u32, plan: &'a Plan) -> BoxFuture<'a, PlanVerdict> {
        let verdict = self.plan_verdict(tick, plan);
        Box::pin(async move { verdict })
    }

    fn review<'a>(&'a self, proposal: &'a Proposal) -> BoxFuture<'a, Verdict> {
        let verdict = self.verdict(proposal);
        Box::pin(async move { verdict })
    }
}
