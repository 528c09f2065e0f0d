//! Review mode in the app: the tick's [`Reviewer`] waits on the writer's answer from the review
//! panel. The engine itself sends the plan and the proposal to the window (its
//! `AwaitingPlanReview` / `AwaitingReview` events on the run's channel); the desk opens a slot
//! for the answer as that event goes by — before the window can possibly answer — and the
//! `plan_decision` / `review_decision` commands fill it. Releasing the desk (a cancel, the run's
//! end) drops any open slot, and a tick still waiting takes that as a rejection.

use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};

use novel_core::run::Plan;
use novel_core::run::{PlanVerdict, Proposal, Reviewer, TickEvent, Verdict};
use tokio::sync::oneshot;

use crate::error::{AppError, AppResult};

type Answer<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// Where the review panel's answers meet the waiting tick; one per open novel.
#[derive(Default)]
pub struct ReviewDesk {
    slot: Mutex<Slot>,
}

#[derive(Default)]
struct Slot {
    /// What the window may answer now.
    waiting: Option<Waiting>,
    /// The tick's end of an opened plan slot, until the reviewer picks it up.
    plan: Option<oneshot::Receiver<PlanVerdict>>,
    /// The tick's end of an opened proposal slot, until the reviewer picks it up.
    scene: Option<oneshot::Receiver<Verdict>>,
}

enum Waiting {
    Plan(oneshot::Sender<PlanVerdict>),
    Scene(oneshot::Sender<Verdict>),
}

impl ReviewDesk {
    /// Sees every tick event before the window does; an awaiting-review event opens the slot
    /// its answer will go to.
    pub fn observe(&self, event: &TickEvent) {
        let mut slot = self.lock();
        match event {
            TickEvent::AwaitingPlanReview { .. } => {
                let (tx, rx) = oneshot::channel();
                slot.waiting = Some(Waiting::Plan(tx));
                slot.plan = Some(rx);
            }
            TickEvent::AwaitingReview { .. } => {
                let (tx, rx) = oneshot::channel();
                slot.waiting = Some(Waiting::Scene(tx));
                slot.scene = Some(rx);
            }
            _ => {}
        }
    }

    /// The writer's answer to the plan on screen.
    pub fn decide_plan(&self, verdict: PlanVerdict) -> AppResult<()> {
        // Taken in its own statement: the guard must be gone before `mismatch` locks again.
        let waiting = self.lock().waiting.take();
        match waiting {
            Some(Waiting::Plan(tx)) => tx.send(verdict).map_err(|_| gone()),
            other => Err(self.mismatch(other, "a plan")),
        }
    }

    /// The writer's answer to the scene and memory changes on screen.
    pub fn decide(&self, verdict: Verdict) -> AppResult<()> {
        let waiting = self.lock().waiting.take();
        match waiting {
            Some(Waiting::Scene(tx)) => tx.send(verdict).map_err(|_| gone()),
            other => Err(self.mismatch(other, "a scene")),
        }
    }

    /// Drops every open slot: a tick still waiting is rejected and changes nothing.
    pub fn release(&self) {
        *self.lock() = Slot::default();
    }

    /// Whether an answer is awaited (for tests and the shell's own checks).
    pub fn is_waiting(&self) -> bool {
        self.lock().waiting.is_some()
    }

    fn mismatch(&self, put_back: Option<Waiting>, asked: &str) -> AppError {
        let message = match &put_back {
            None => "Nothing is waiting for your review now.".to_string(),
            Some(Waiting::Plan(_)) => {
                format!("The tick is waiting for a decision on its plan, not on {asked}.")
            }
            Some(Waiting::Scene(_)) => {
                format!("The tick is waiting for a decision on its scene, not on {asked}.")
            }
        };
        self.lock().waiting = put_back;
        AppError::invalid(message)
    }

    fn plan_answer(&self) -> oneshot::Receiver<PlanVerdict> {
        let mut slot = self.lock();
        slot.plan.take().unwrap_or_else(|| {
            // The engine always announces a review first; should it not, wait all the same.
            let (tx, rx) = oneshot::channel();
            slot.waiting = Some(Waiting::Plan(tx));
            rx
        })
    }

    fn scene_answer(&self) -> oneshot::Receiver<Verdict> {
        let mut slot = self.lock();
        slot.scene.take().unwrap_or_else(|| {
            let (tx, rx) = oneshot::channel();
            slot.waiting = Some(Waiting::Scene(tx));
            rx
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Slot> {
        self.slot.lock().unwrap_or_else(|p| p.into_inner())
    }
}

fn gone() -> AppError {
    AppError::invalid("The scene under review was cancelled; nothing waits for this answer.")
}

/// The tick's reviewer in the app: waits at the desk.
pub struct DeskReviewer(pub Arc<ReviewDesk>);

impl Reviewer for DeskReviewer {
    fn review_plan<'a>(&'a self, _tick: u32, _plan: &'a Plan) -> Answer<'a, PlanVerdict> {
        let answer = self.0.plan_answer();
        Box::pin(async move { answer.await.unwrap_or(PlanVerdict::Reject) })
    }

    fn review<'a>(&'a self, _proposal: &'a Proposal) -> Answer<'a, Verdict> {
        let answer = self.0.scene_answer();
        Box::pin(async move { answer.await.unwrap_or(Verdict::Reject) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan() -> Plan {
        serde_json::from_value(serde_json::json!({
            "rationale": "r", "scene_intention": "i", "pov_character": "C0",
            "target_location": "L0", "actions": []
        }))
        .unwrap()
    }

    fn proposal() -> Proposal {
        Proposal {
            tick: 1,
            plan: plan(),
            tools: Vec::new(),
            title: "Low Tide".into(),
            summary: Vec::new(),
            tension: 5,
            prose: "Rain.".into(),
            findings: Vec::new(),
            changes: Vec::new(),
            notes: Vec::new(),
        }
    }

    #[tokio::test]
    async fn an_answer_sent_as_soon_as_the_event_is_seen_reaches_the_tick() {
        let desk = Arc::new(ReviewDesk::default());
        let reviewer = DeskReviewer(desk.clone());
        // The window answers before the tick has even started to wait: the slot is already open.
        desk.observe(&TickEvent::AwaitingPlanReview { plan: plan() });
        desk.decide_plan(PlanVerdict::Accept).unwrap();
        assert_eq!(reviewer.review_plan(1, &plan()).await, PlanVerdict::Accept);
        assert!(!desk.is_waiting());

        desk.observe(&TickEvent::AwaitingReview {
            proposal: proposal(),
        });
        let p = proposal();
        let waiting = reviewer.review(&p);
        let verdict = Verdict::Accept {
            prose: Some("Rain, edited.".into()),
            unticked: vec![2],
        };
        desk.decide(verdict.clone()).unwrap();
        assert_eq!(waiting.await, verdict);
    }

    #[tokio::test]
    async fn a_released_desk_rejects_the_waiting_tick() {
        let desk = Arc::new(ReviewDesk::default());
        let reviewer = DeskReviewer(desk.clone());
        desk.observe(&TickEvent::AwaitingReview {
            proposal: proposal(),
        });
        let p = proposal();
        let waiting = reviewer.review(&p);
        desk.release();
        assert_eq!(waiting.await, Verdict::Reject);
        let late = desk.decide(Verdict::Reject).unwrap_err();
        assert!(late.to_string().contains("Nothing is waiting"), "{late}");
    }

    #[test]
    fn an_answer_of_the_wrong_kind_is_refused_and_the_slot_stays_open() {
        let desk = ReviewDesk::default();
        assert!(
            desk.decide_plan(PlanVerdict::Accept).is_err(),
            "nothing to answer"
        );
        desk.observe(&TickEvent::AwaitingPlanReview { plan: plan() });
        let wrong = desk.decide(Verdict::Reject).unwrap_err();
        assert!(wrong.to_string().contains("its plan"), "{wrong}");
        assert!(desk.is_waiting());
        desk.decide_plan(PlanVerdict::Reject).unwrap();
        assert!(!desk.is_waiting());
    }
}
