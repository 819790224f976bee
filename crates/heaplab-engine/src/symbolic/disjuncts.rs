//! The formulas of a fork's disjuncts, as the tree and a single step show them.

use super::code::{Compiled, UnitKind};
use super::show::show_value;
use super::state::State;
use heaplab_logic::formula::{PredDef, Subst};
use heaplab_logic::{Fresh, Term};
use rustc_hash::FxHashMap;
use std::rc::Rc;

/// The disjuncts of the predicate whose body `st`'s top frame is running (at its `Fork`),
/// instantiated with the frame's arguments in source names (`ref0 == null & emp`,
/// `ref0 -> Node { key: k, left: l, right: r } * bst(l, lo, k) * … & lo < k`), in definition
/// order; empty when the frame is not a predicate the logic reads (a `requires` with `|`).
///
/// Each predicate's disjuncts are written once, with a hole per parameter, and a fork fills
/// the holes with its argument texts: the arguments differ from fork to fork (`ref3`, `o2`),
/// and instantiating and writing the definition anew at each fork was a third of a `lazy` run
/// in wasm, and still a tenth of the page's Run of TreeMap `put` under `lazier#` at k = 3 when
/// kept by argument texts.
#[derive(Default)]
pub struct DisjunctTexts(FxHashMap<String, Rc<[Template]>>);

/// A disjunct written with holes for the parameters, and the names of its existentials: an
/// argument spelled like one of them would be captured, so the substitution renames the
/// existential, and such a fork writes that disjunct the long way.
struct Template {
    pieces: Vec<Piece>,
    bound: Vec<String>,
}

enum Piece {
    Text(String),
    Param(usize),
}

/// Where parameter `i` goes in a template's text: no variable's name holds a NUL.
fn hole(i: usize) -> String {
    format!("\0{i}\0")
}

impl Template {
    fn of(def: &PredDef, d: &heaplab_logic::SymHeap) -> Template {
        let subst: Subst = def
            .params
            .iter()
            .enumerate()
            .map(|(i, (p, _))| (p.clone(), Term::Var(hole(i))))
            .collect();
        let mut inst = d.subst(&subst, &mut Fresh::default());
        // The existentials are named in the body; the quantifier prefix only adds length.
        inst.exists.clear();
        let text = inst.to_string();
        // Split at the NULs: text, parameter, text, … .
        let pieces = text
            .split('\0')
            .enumerate()
            .map(|(i, part)| match (i % 2, part.parse()) {
                (1, Ok(p)) => Piece::Param(p),
                _ => Piece::Text(part.to_string()),
            })
            .collect();
        Template { pieces, bound: d.exists.iter().map(|(v, _)| v.clone()).collect() }
    }

    fn fill(&self, args: &[String]) -> String {
        let mut out = String::new();
        for piece in &self.pieces {
            match piece {
                Piece::Text(t) => out.push_str(t),
                Piece::Param(i) => out.push_str(args.get(*i).map_or("", String::as_str)),
            }
        }
        out
    }
}

/// `d` instantiated with `args` for `def`'s parameters by substitution (`null` as null), as
/// [`DisjunctTexts`] writes it.
fn instantiate(
    def: &PredDef,
    d: &heaplab_logic::SymHeap,
    args: &[String],
    fresh: &mut Fresh,
) -> String {
    let mut subst = Subst::new();
    for ((param, _), text) in def.params.iter().zip(args) {
        let term = if text == "null" { Term::Null } else { Term::Var(text.clone()) };
        subst.insert(param.clone(), term);
    }
    let mut inst = d.subst(&subst, fresh);
    inst.exists.clear();
    inst.to_string()
}

/// The texts of `def`'s disjuncts for `args`, from its `templates`.
fn texts(def: &PredDef, templates: &[Template], args: &[String]) -> Vec<String> {
    let mut fresh = Fresh::default();
    let long_way = |t: &Template| t.bound.iter().any(|b| args.contains(b));
    templates
        .iter()
        .zip(&def.body)
        .map(|(t, d)| match long_way(t) {
            true => instantiate(def, d, args, &mut fresh),
            false => t.fill(args),
        })
        .collect()
}

impl DisjunctTexts {
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
        // One per parameter: a parameter without a value is written as itself.
        let args: Vec<String> = def
            .params
            .iter()
            .enumerate()
            .map(|(i, (param, _))| match frame.locals.get(i) {
                Some(Some(v)) => show_value(st, v),
                _ => param.clone(),
            })
            .collect();
        let templates = match self.0.get(name) {
            Some(t) => Rc::clone(t),
            None => {
                let t: Rc<[Template]> = def.body.iter().map(|d| Template::of(def, d)).collect();
                self.0.insert(name.clone(), Rc::clone(&t));
                t
            }
        };
        texts(def, &templates, &args)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Filling a predicate's templates writes what substituting the arguments writes, for
    /// references, `null`, symbolic values, a parameter's own name, and arguments spelled like
    /// an existential (which the substitution renames).
    #[test]
    fn templates_write_what_substitution_writes() {
        let source = "class Node { int key; Node left; Node right; }\n\
            pred bst(Node t, int lo, int hi) :=\n\
              t == null\n\
              | exists int k, Node l, Node r.\n\
                t -> Node { key: k, left: l, right: r } * bst(l, lo, k) * bst(r, k, hi)\n\
                & lo < k & k < hi;\n\
            pred tree(Node t) :=\n\
              t == null\n\
              | exists int k, Node l, Node r. t -> Node { key: k, left: l, right: r } * tree(l) * tree(r);\n";
        let file = heaplab_syntax::SourceFile::new("t.hl", source);
        let analysis = heaplab_syntax::analyze(&file);
        assert!(!analysis.has_errors(), "{:?}", analysis.diagnostics);
        let defs = heaplab_logic::Defs::from_program(&analysis.program).0;
        let args_of = [
            vec!["ref0", "lo", "hi"],
            vec!["null", "3", "x + 1"],
            vec!["o2", "k", "l"],
            vec!["r", "k", "k"],
            vec!["t", "l", "r"],
        ];
        let mut checked = 0;
        for def in defs.preds.values() {
            let templates: Vec<Template> = def.body.iter().map(|d| Template::of(def, d)).collect();
            for args in &args_of {
                let args: Vec<String> =
                    args.iter().take(def.params.len()).map(|a| a.to_string()).collect();
                let mut fresh = Fresh::default();
                let slow: Vec<String> =
                    def.body.iter().map(|d| instantiate(def, d, &args, &mut fresh)).collect();
                assert_eq!(texts(def, &templates, &args), slow, "{} {args:?}", def.name);
                checked += 1;
            }
        }
        assert_eq!(checked, 10);
    }
}
