//! The formulas of a fork's disjuncts, as the tree and a single step show them.

use super::code::{Compiled, UnitKind};
use super::show::show_value;
use super::state::State;
use heaplab_logic::Term;
use std::collections::HashMap;

/// The disjuncts of the predicate whose body `st`'s top frame is running (at its `Fork`),
/// instantiated with the frame's arguments in source names (`ref0 == null & emp`,
/// `ref0 -> Node { key: k, left: l, right: r } * bst(l, lo, k) * … & lo < k`), in definition
/// order; empty when the frame is not a predicate the logic reads (a `requires` with `|`).
///
/// They are kept by predicate and argument texts: every path through a `requires` forks in the
/// same predicates on the same arguments, and instantiating and writing the definition anew at
/// each fork was a third of a `lazy` run in wasm.
#[derive(Default)]
pub struct DisjunctTexts(HashMap<(String, Vec<String>), Vec<String>>);

impl DisjunctTexts {
    /// Kept instantiations beyond this count are dropped wholesale; a bound on memory.
    const LIMIT: usize = 4096;

    /// The texts of the `count` disjuncts the fork in `st` goes to; none when the predicate's
    /// definition has another number of disjuncts (the compiled predicate merged some, as
    /// avl.hl's that differ only in the balance), so none would name its child. That is known
    /// before the arguments are written, which is most of the work.
    pub fn of(&mut self, st: &State, code: &Compiled, count: usize) -> Vec<String> {
        let Some(frame) = st.frames.last() else { return Vec::new() };
        let Some(unit) = code.units.get(frame.unit) else { return Vec::new() };
        let UnitKind::Predicate { name } = &unit.kind else { return Vec::new() };
        let Some(def) = code.defs.preds.get(name) else { return Vec::new() };
        if def.body.len() != count {
            return Vec::new();
        }
        let args: Vec<String> = def
            .params
            .iter()
            .zip(&frame.locals)
            .map(|((param, _), v)| v.as_ref().map_or_else(|| param.clone(), |v| show_value(st, v)))
            .collect();
        let key = (name.clone(), args);
        if let Some(texts) = self.0.get(&key) {
            return texts.clone();
        }
        let mut subst = heaplab_logic::formula::Subst::new();
        for ((param, _), text) in def.params.iter().zip(&key.1) {
            let term = if text == "null" { Term::Null } else { Term::Var(text.clone()) };
            subst.insert(param.clone(), term);
        }
        let mut fresh = heaplab_logic::Fresh::default();
        let texts: Vec<String> = def
            .body
            .iter()
            .map(|d| {
                let mut inst = d.subst(&subst, &mut fresh);
                // The existentials are named in the body; the quantifier prefix only adds length.
                inst.exists.clear();
                inst.to_string()
            })
            .collect();
        if self.0.len() >= Self::LIMIT {
            self.0.clear();
        }
        self.0.insert(key, texts.clone());
        texts
    }
}
