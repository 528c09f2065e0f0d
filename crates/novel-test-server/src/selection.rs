//! Choosing the answer for one request: first matching rule with a reply left, reply
//! consumption, `repeat_last`, unwrapping `delay`/`with_status`/`reject_*` wrappers and `{{n}}`
//! templating.

use std::time::Duration;

use serde_json::Value;

use crate::reply::{CutStreamReply, EndlessReply, HugeReply, Reply, StatusReply, TextReply};
use crate::request;
use crate::script::Rule;
use crate::wire;

/// The concrete answer for one request, wrappers already unwrapped.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// A normal message; content already templated.
    Text(TextReply),
    /// A scripted HTTP error.
    Status(StatusReply),
    /// A refusal from a `reject_*` wrapper: status and error body.
    Reject {
        /// 400 or 500, depending on the imitated server.
        status: u16,
        /// The error body.
        body: Value,
    },
    /// A cut stream; content already templated.
    Cut(CutStreamReply),
    /// A generated, absurdly long answer.
    Huge(HugeReply),
    /// Content, then keep-alives forever.
    KeepAlive(EndlessReply),
    /// Content repeated forever.
    Trickle(EndlessReply),
}

/// What the server does for one request.
#[derive(Debug, Clone, PartialEq)]
pub struct Decision {
    /// Index of the rule that answered.
    pub rule_index: usize,
    /// Total wait from `delay` wrappers before answering.
    pub delay: Duration,
    /// The status a `with_status` wrapper imposes on the answer.
    pub status: Option<u16>,
    /// The answer.
    pub action: Action,
}

/// Per-rule progress through the script.
#[derive(Debug)]
pub struct Selector {
    rules: Vec<RuleState>,
}

#[derive(Debug)]
struct RuleState {
    rule: Rule,
    /// Requests this rule answered; rejections do not count, so a client's fallback retry
    /// receives the reply the rejected attempt would have had.
    served: usize,
}

impl RuleState {
    fn current(&self) -> Option<&Reply> {
        let replies = &self.rule.replies;
        match replies.get(self.served) {
            Some(reply) => Some(reply),
            None if self.rule.repeat_last => replies.last(),
            None => None,
        }
    }
}

/// A reply with its wrappers resolved against one request, still borrowed from the script.
enum Resolved<'a> {
    Text(&'a TextReply),
    Status(&'a StatusReply),
    Reject { status: u16, body: Value },
    Cut(&'a CutStreamReply),
    Huge(HugeReply),
    KeepAlive(&'a EndlessReply),
    Trickle(&'a EndlessReply),
}

/// What the wrappers around a reply add up to.
#[derive(Default)]
struct Wrapping {
    delay: Duration,
    status: Option<u16>,
}

fn resolve<'a>(reply: &'a Reply, body: &Value, wrapping: &mut Wrapping) -> Resolved<'a> {
    match reply {
        Reply::Text(text) => Resolved::Text(text),
        Reply::Status(status) => Resolved::Status(status),
        Reply::CutStream(cut) => Resolved::Cut(cut),
        Reply::Huge(huge) => Resolved::Huge(*huge),
        Reply::KeepAlive(endless) => Resolved::KeepAlive(endless),
        Reply::Trickle(endless) => Resolved::Trickle(endless),
        Reply::Delay { ms, then } => {
            wrapping.delay += Duration::from_millis(*ms);
            resolve(then, body, wrapping)
        }
        Reply::WithStatus { code, then } => {
            // The outermost status wins.
            wrapping.status.get_or_insert(*code);
            resolve(then, body, wrapping)
        }
        Reply::RejectJsonSchema { then, like } => {
            if request::uses_json_schema(body) {
                let (status, body) = wire::json_schema_refusal(*like);
                Resolved::Reject { status, body }
            } else {
                resolve(then, body, wrapping)
            }
        }
        Reply::RejectResponseFormat { then } => {
            if request::response_format(body).is_some() {
                let body = wire::error(
                    "test server: the response_format parameter (json_object or json_schema) is \
                     not supported by this server",
                    "invalid_request_error",
                    Some("response_format"),
                    None,
                );
                Resolved::Reject { status: 400, body }
            } else {
                resolve(then, body, wrapping)
            }
        }
    }
}

fn template(content: &str, n: usize) -> String {
    content.replace("{{n}}", &n.to_string())
}

impl Selector {
    /// Starts every rule at its first reply.
    pub fn new(rules: Vec<Rule>) -> Self {
        Selector {
            rules: rules
                .into_iter()
                .map(|rule| RuleState { rule, served: 0 })
                .collect(),
        }
    }

    /// Decides the answer and advances the answering rule; `None` when no rule can answer.
    pub fn decide(&mut self, raw_body: &str, body: &Value) -> Option<Decision> {
        for (rule_index, state) in self.rules.iter_mut().enumerate() {
            if !state.rule.matches(raw_body) {
                continue;
            }
            let Some(reply) = state.current() else {
                continue;
            };
            let mut wrapping = Wrapping::default();
            let n = state.served + 1;
            let action = match resolve(reply, body, &mut wrapping) {
                Resolved::Reject { status, body } => Action::Reject { status, body },
                Resolved::Status(status) => Action::Status(status.clone()),
                Resolved::Huge(huge) => Action::Huge(huge),
                Resolved::KeepAlive(endless) => Action::KeepAlive(endless.clone()),
                Resolved::Trickle(endless) => Action::Trickle(endless.clone()),
                Resolved::Text(text) => Action::Text(TextReply {
                    content: template(&text.content, n),
                    ..text.clone()
                }),
                Resolved::Cut(cut) => Action::Cut(CutStreamReply {
                    content: template(&cut.content, n),
                    ..cut.clone()
                }),
            };
            if !matches!(action, Action::Reject { .. }) {
                state.served = n;
            }
            return Some(Decision {
                rule_index,
                delay: wrapping.delay,
                status: wrapping.status,
                action,
            });
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::script::Script;
    use serde_json::json;

    fn content(decision: Option<Decision>) -> String {
        match decision.map(|d| d.action) {
            Some(Action::Text(text)) => text.content,
            other => panic!("expected text, got {other:?}"),
        }
    }

    #[test]
    fn first_matching_rule_with_replies_wins_and_no_repeat_falls_through() {
        let script = Script::new()
            .rule(Rule::when("plan").reply(Reply::text("p1")).no_repeat())
            .rule(Rule::when("plan").reply(Reply::text("p-fallback")))
            .rule(Rule::any().reply(Reply::text("other")));
        let mut selector = Selector::new(script.rules);
        let body = json!({});
        assert_eq!(content(selector.decide("a plan", &body)), "p1");
        assert_eq!(content(selector.decide("scene", &body)), "other");
        assert_eq!(content(selector.decide("a plan", &body)), "p-fallback");
        assert_eq!(content(selector.decide("a plan", &body)), "p-fallback");
    }

    #[test]
    fn exhausted_rules_without_repeat_leave_nothing() {
        let script = Script::new().rule(Rule::any().reply(Reply::text("once")).no_repeat());
        let mut selector = Selector::new(script.rules);
        assert!(selector.decide("", &json!({})).is_some());
        assert_eq!(selector.decide("", &json!({})), None);
        assert_eq!(
            Selector::new(vec![Rule::any()]).decide("", &json!({})),
            None
        );
    }

    #[test]
    fn counter_templating_counts_per_rule_including_repeats() {
        let script = Script::new()
            .rule(Rule::when("a").replies([Reply::text("first {{n}}"), Reply::text("a{{n}}")]))
            .rule(Rule::any().reply(Reply::text("b{{n}}")));
        let mut selector = Selector::new(script.rules);
        let body = json!({});
        assert_eq!(content(selector.decide("a", &body)), "first 1");
        assert_eq!(content(selector.decide("x", &body)), "b1");
        assert_eq!(content(selector.decide("a", &body)), "a2");
        assert_eq!(content(selector.decide("a", &body)), "a3");
    }

    #[test]
    fn rejection_does_not_consume_the_reply() {
        let script = Script::new().rule(
            Rule::any()
                .reply(Reply::reject_json_schema(Reply::text("one {{n}}")))
                .reply(Reply::text("two")),
        );
        let mut selector = Selector::new(script.rules);
        let schema = json!({"response_format": {"type": "json_schema"}});
        let object = json!({"response_format": {"type": "json_object"}});
        let rejected = selector.decide("", &schema).unwrap();
        assert!(
            matches!(rejected.action, Action::Reject { status: 400, ref body } if body.to_string().contains("json_schema"))
        );
        assert_eq!(content(selector.decide("", &object)), "one 1");
        assert_eq!(content(selector.decide("", &schema)), "two");
    }

    #[test]
    fn reject_response_format_rejects_any_format_and_delays_add_up() {
        let script = Script::new().rule(Rule::any().reply(Reply::delay(
            30,
            Reply::delay(
                20,
                Reply::reject_response_format(Reply::status(503).retry_after("4")),
            ),
        )));
        let mut selector = Selector::new(script.rules);
        let object = json!({"response_format": {"type": "json_object"}});
        let rejected = selector.decide("", &object).unwrap();
        assert_eq!(rejected.delay, Duration::from_millis(50));
        assert!(
            matches!(rejected.action, Action::Reject { status: 400, ref body } if body.to_string().contains("response_format"))
        );
        let answered = selector.decide("", &json!({})).unwrap();
        assert_eq!(
            answered.action,
            Action::Status(Reply::status(503).retry_after("4"))
        );
    }
}
