//! `ensures` clauses that are separation-logic formulas (`ensures bst(this.root, lo, hi)`),
//! checked on return: the final heap and the store (`this`, the parameters, `result`) become a
//! model, and the logic's model checker decides the formula on it. Its pure facts the logic
//! does not read (a call of a `pure` method, an array cell) run as expressions first.

use super::{fail, internal, Machine, Step, Task};
use crate::interp::tables::{Post, ENSURES_FORMULA_NODE};
use crate::interp::value::Value;
use heaplab_logic::{CheckLimits, Verdict};
use heaplab_syntax::ast::ErrorKind;

impl<'a> Machine<'a> {
    /// Schedules the checks of a function's `ensures` formulas (before the frame pops).
    pub(super) fn schedule_post(&mut self, post: &'a [Post]) {
        for p in post.iter().rev() {
            self.tasks.push(Task::CheckPost(p));
            for fact in p.code.iter().rev() {
                self.tasks.push(Task::CheckEnsures(fact));
                self.tasks.push(Task::Eval(fact));
            }
        }
    }

    pub(super) fn check_post(&mut self, post: &'a Post) -> Step {
        let (Some(defs), Some(formula)) = (&self.tables.defs, &post.logic) else { return Ok(()) };
        let frame = self.frame(post.span)?;
        let mut store = Vec::with_capacity(post.roots.len());
        for root in &post.roots {
            let v = match root.as_str() {
                "this" => frame.this.map(|t| Value::Ref(Some(t))),
                "result" => frame.result,
                name => frame.locals.iter().rev().find(|(n, _)| *n == name).map(|(_, v)| *v),
            };
            let Some(v) = v else { return Err(internal(post.span, format!("`{root}` unbound"))) };
            store.push((root.as_str(), v));
        }
        let model = self.heap.logic_model(store);
        match heaplab_logic::satisfies(defs, &model, formula, CheckLimits::default()) {
            Ok(Verdict::Fails) => Err(fail(
                ErrorKind::EnsuresFailed,
                post.span,
                ENSURES_FORMULA_NODE,
                format!("the postcondition `{}` does not hold on return", post.text),
            )),
            // Undecided within the checker's limits: not a failure of the program.
            Ok(_) | Err(_) => Ok(()),
        }
    }
}
