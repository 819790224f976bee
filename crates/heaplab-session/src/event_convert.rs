//! A stepped run's events in their JS shapes ([`crate::events`]): one arm per event kind.

use heaplab_engine::symbolic::{Event, PathOutcome, StateId};

use crate::events::{fork_name, outcome_name, Details, JsDirection, JsEvent};
use crate::exploration::Run;

impl Run {
    pub fn event_js_unplaced(&self, event: &Event) -> JsEvent {
        let node = |s: &StateId| Some(s.0);
        match event {
            Event::Start { state, method } => JsEvent {
                names: None,
                same_names_as: None,
                kind: "start",
                node: node(state),
                parent: None,
                line: None,
                label: method.clone(),
                details: Details::Start { method: method.clone() },
            },
            Event::LazyInit { state, target, options, children, kind, k_cut } => JsEvent {
                names: None,
                same_names_as: None,
                kind: "lazyInit",
                node: node(state),
                parent: self.parent_of(state.0),
                line: None,
                label: target.clone(),
                details: Details::LazyInit {
                    target: target.clone(),
                    options: options.clone(),
                    children: children.iter().map(|c| c.0).collect(),
                    fork: fork_name(kind),
                    k_cut: *k_cut,
                },
            },
            Event::Branch { state, site, condition, children } => JsEvent {
                names: None,
                same_names_as: None,
                kind: "branch",
                node: node(state),
                parent: self.parent_of(state.0),
                line: None,
                label: condition.clone(),
                details: Details::Branch {
                    condition: condition.clone(),
                    site: site.map(|s| s.0),
                    children: children
                        .iter()
                        .map(|(d, c)| JsDirection { direction: *d, node: c.0 })
                        .collect(),
                },
            },
            Event::Disjuncts { state, children, formulas } => JsEvent {
                names: None,
                same_names_as: None,
                kind: "disjuncts",
                node: node(state),
                parent: self.parent_of(state.0),
                line: None,
                label: format!("{} disjuncts", children.len()),
                details: Details::Disjuncts {
                    children: children.iter().map(|c| c.0).collect(),
                    formulas: formulas.clone(),
                },
            },
            Event::SlModel { state, formula, model } => JsEvent {
                names: None,
                same_names_as: None,
                kind: "slModel",
                node: node(state),
                parent: self.parent_of(state.0),
                line: None,
                label: format!("model of {formula}"),
                details: Details::SlModel { formula: formula.clone(), model: model.clone() },
            },
            Event::SolverQuery { state, query, answer, local } => JsEvent {
                names: None,
                same_names_as: None,
                kind: "solverQuery",
                node: node(state),
                parent: self.parent_of(state.0),
                line: None,
                label: query.clone(),
                details: Details::SolverQuery {
                    query: query.clone(),
                    answer: answer.as_str(),
                    local: *local,
                },
            },
            Event::PathEnd { state, path, outcome } => {
                let text = match path.and_then(|p| self.explorer.paths().get(p)) {
                    Some(p) => p.describe(),
                    None => outcome.summary(),
                };
                let (kind, colour) = outcome_name(outcome);
                JsEvent {
                    names: None,
                    same_names_as: None,
                    kind: "pathEnd",
                    node: node(state),
                    parent: self.parent_of(state.0),
                    line: None,
                    label: text.clone(),
                    details: Details::PathEnd {
                        path: *path,
                        outcome: kind,
                        colour,
                        text,
                        error_kind: match outcome {
                            PathOutcome::Error { kind, .. } => Some(kind.keyword()),
                            _ => None,
                        },
                        bound: match outcome {
                            PathOutcome::Bounded { bound, .. } => Some(bound.name()),
                            _ => None,
                        },
                        span: match outcome {
                            PathOutcome::Error { span, .. }
                            | PathOutcome::Bounded { span: Some(span), .. }
                            | PathOutcome::Discarded { span, .. }
                            | PathOutcome::Internal { span: Some(span), .. } => {
                                Some([span.start, span.end])
                            }
                            _ => None,
                        },
                    },
                }
            }
            Event::Stopped { bound } => JsEvent {
                names: None,
                same_names_as: None,
                kind: "stopped",
                node: None,
                parent: None,
                line: None,
                label: format!("stopped: bound `{bound}` reached"),
                details: Details::Stopped { bound: bound.name() },
            },
            // Never returned by `advance`; kept total for the match.
            Event::SolverPending => JsEvent {
                names: None,
                same_names_as: None,
                kind: "solverPending",
                node: None,
                parent: None,
                line: None,
                label: String::new(),
                details: Details::Stopped { bound: "" },
            },
        }
    }
}
