//! A sound static proof that a branch direction is unreachable: an interprocedural nullness
//! analysis (abstract interpretation over the AST) of the code an explored method runs.
//!
//! A state maps access paths (a local, a parameter or `this`, and up to [`state::MAX_FIELDS`]
//! fields off it) to null / not null; a path it does not hold is unknown. The explored method
//! starts from the facts its `requires` states in every model (`this.root != null`, `p -> C{…}`);
//! each function it reaches starts from the join over its call sites (its receiver and
//! parameters take the facts under the paths passed), recursion and loops iterate to a
//! fixpoint. Branches on a null test (`==`, `!=`, `!`, `&&`, `||`, `?:`, and a call of a
//! boolean function whose every `return` is one null test off its receiver or a parameter)
//! refine the state; an assignment forgets its local's facts, a store to a field `f` through any
//! alias forgets every fact that reads `f`, and a call forgets the facts reading a field its
//! callees may store (transitively; an unknown callee: every field). A handler starts knowing
//! nothing. So each state over-approximates every execution that gets there, and a direction
//! whose state is bottom (its condition is constant, or its site never reached) is one no
//! execution takes. If a loop or the whole run does not settle within its cap, nothing is
//! proved.

mod interp;
mod prep;
mod state;

use crate::feasible::Direction;
use heaplab_syntax::ast::{FunctionDecl, Program};

/// The directions the analysis found reachable, for one explored method.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Nullness {
    reached: interp::Reached,
}

impl Nullness {
    /// Whether the analysis proves that no execution of the method takes `d`.
    pub fn proves(&self, d: Direction) -> bool {
        !self.reached.get(&d.0).is_some_and(|r| r[usize::from(d.1)])
    }
}

/// The analysis of `method`, a function or method of `program`; `None` when it proves nothing
/// (it gave up, or `method` is not one of the program's).
pub fn analyze(program: &Program, method: &FunctionDecl) -> Option<Nullness> {
    let mut interp = interp::Interp::new(prep::functions(program));
    let start = interp.funcs().iter().position(|f| std::ptr::eq(f.decl, method))?;
    let entry = prep::requires_facts(&interp.funcs()[start]);
    interp.run(start, entry);
    (!interp.gave_up).then_some(Nullness { reached: interp.reached })
}

#[cfg(test)]
mod tests;
