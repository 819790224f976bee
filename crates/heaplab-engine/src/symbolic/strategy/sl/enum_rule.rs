//! JSF's `enum` rule for the `sl` strategy (digest seed-000 §4.3–4.4): before an instance
//! `P(args)` is unfolded, each disjunct of `P` is held against what the path already knows, and
//! disjuncts that cannot hold are pruned without being run.
//!
//! What a disjunct may look like comes from the least fixed point of `P`'s base unfoldings
//! (`heaplab_logic::lfp`, computed once per exploration): its contexts, each a symbolic heap over
//! `P`'s parameters, together equivalent to `P`, and each remembering which body disjunct it
//! unfolds. A disjunct is pruned when every one of its contexts is ruled out by the path:
//! - pointer facts, decided here without a solver: a parameter the context makes `null` whose
//!   argument is an object; one it allocates whose argument is `null`, an object of another
//!   class, or an object a points-to of the input formula already claimed (separation); two
//!   parameters it equates whose arguments are different objects (or an object and `null`); two
//!   it tells apart (a disequality, or two different cells) whose arguments are the same value;
//! - the context's integer facts (LFP keeps them although its abstraction ignores them), with
//!   the arguments' values substituted, against the path condition, by the explorer's difference
//!   logic only ([`crate::symbolic::dbm`]): the rule never sends a query, and only a proof prunes.
//!
//! Why contexts and not the body disjuncts themselves: a context looks deeper (with a sentinel,
//! `aaLevel(t, …, lv, nn)`'s recursive disjuncts unfold to `t`'s children being `nn` with level 0,
//! or to further nodes), so facts about the arguments that no single body disjunct contradicts
//! can still contradict all of a disjunct's contexts.
//!
//! Every check only removes disjuncts that running them would end as discarded (or would reach
//! only through states no valid input has), so paths that become tests do not change; fewer
//! states and discarded paths do. What is not done: JSF substitutes the surviving contexts
//! themselves for the instance; here the surviving body disjuncts still run, so equalities they
//! state are still settled by resolving references (digest §4.3, docs/symbolic.md).

use crate::symbolic::code::{Compiled, UnitId};
use crate::symbolic::dbm;
use crate::symbolic::state::{PathState, SValue, State};
use crate::symbolic::term::{Sort, Sym};
use heaplab_logic::formula::{CmpOp, PredDef, Pure, Sort as LSort, SymHeap, Term};
use heaplab_logic::normalize::equality_classes;
use heaplab_logic::unfold::{lfp, LfpLimits};
use std::collections::{BTreeMap, HashMap};

/// The engine's caps on the analysis. A capped predicate keeps an earlier round, which is still
/// an exact unfolding (so pruning stays sound), just a shallower one. The AA tree's predicates
/// (a sentinel in every instance) reach their fixed point only after ~400 contexts and seconds of
/// work; 64 keeps every run's set-up in milliseconds.
pub const LIMITS: LfpLimits = LfpLimits { max_rounds: 8, max_contexts: 64 };

/// The contexts of every predicate, by body disjunct.
#[derive(Clone, Debug, Default)]
pub struct EnumTable {
    preds: HashMap<UnitId, Vec<Vec<Context>>>,
}

/// A variable of a context's integer facts.
#[derive(Clone, Copy, Debug)]
enum VarRef {
    /// The predicate's parameter (by index): the argument's value.
    Param(usize),
    /// An existential of the context (local number).
    Exists(u32, Sort),
}

/// One context of a predicate, in the form the checks need (parameters by index).
#[derive(Clone, Debug)]
struct Context {
    null: Vec<usize>,
    nonnull: Vec<usize>,
    /// Parameters the context allocates, with the class of the cell.
    alloc: Vec<(usize, String)>,
    same: Vec<(usize, usize)>,
    differ: Vec<(usize, usize)>,
    arith: Vec<Pure>,
    vars: BTreeMap<String, VarRef>,
}

/// The verdict on one disjunct: `Err` with why it cannot hold.
pub type Verdict = Result<(), String>;

impl EnumTable {
    /// Runs the least fixed point over the program's predicates and keeps, for each predicate
    /// whose every context knows its disjunct, its contexts by disjunct.
    pub fn build(code: &Compiled) -> EnumTable {
        let res = lfp(&code.defs, LIMITS);
        let mut preds = HashMap::new();
        for (name, entry) in &res.preds {
            let (Some(&unit), Some(def)) = (code.predicates.get(name), code.defs.preds.get(name))
            else {
                continue;
            };
            if entry.origins.iter().any(Option::is_none) {
                // Not even one round fit the cap: nothing to prune with.
                continue;
            }
            let mut per: Vec<Vec<Context>> = vec![Vec::new(); def.body.len()];
            for (ctx, origin) in entry.contexts.iter().zip(&entry.origins) {
                let (Some(o), Some(c)) = (origin, Context::of(def, ctx)) else { continue };
                if let Some(slot) = per.get_mut(*o) {
                    slot.push(c);
                }
            }
            preds.insert(unit, per);
        }
        EnumTable { preds }
    }

    /// The verdict on each disjunct of predicate `unit` applied to `args` in state `st`, and the
    /// number of arithmetic questions decided on the way; `None` when the predicate has no table
    /// (every disjunct runs).
    pub fn verdicts(
        &self,
        st: &State,
        unit: UnitId,
        params: &[String],
        args: &[SValue],
    ) -> Option<(Vec<Verdict>, u64)> {
        let per = self.preds.get(&unit)?;
        let args: Vec<SValue> = args.iter().map(|a| st.normalize(a)).collect();
        let mut asked = 0;
        let verdicts = per
            .iter()
            .map(|contexts| {
                let mut why = String::from("no base unfolding");
                for c in contexts {
                    match c.check(st, params, &args, &mut asked) {
                        Ok(()) => return Ok(()),
                        Err(e) => why = e,
                    }
                }
                Err(why)
            })
            .collect();
        Some((verdicts, asked))
    }
}

/// A parameter's equality class in a context: `null`, or the first parameter in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Key {
    Null,
    Param(usize),
}

impl Context {
    /// `None` when the context contradicts itself (it can never hold).
    fn of(def: &PredDef, ctx: &SymHeap) -> Option<Context> {
        let mut uf = equality_classes(ctx)?;
        let refs: Vec<usize> = def
            .params
            .iter()
            .enumerate()
            .filter(|(_, (_, s))| matches!(s, LSort::Ref(_)))
            .map(|(i, _)| i)
            .collect();
        let reps: Vec<(usize, Term)> =
            refs.iter().map(|&i| (i, uf.find(&Term::Var(def.params[i].0.clone())))).collect();
        let mut key = |t: &Term| -> Option<Key> {
            let r = uf.find(t);
            if r == Term::Null {
                return Some(Key::Null);
            }
            reps.iter().find(|(_, rep)| *rep == r).map(|(i, _)| Key::Param(*i))
        };
        let keys: Vec<(usize, Option<Key>)> =
            refs.iter().map(|&i| (i, key(&Term::Var(def.params[i].0.clone())))).collect();
        let mut c = Context {
            null: Vec::new(),
            nonnull: Vec::new(),
            alloc: Vec::new(),
            same: Vec::new(),
            differ: Vec::new(),
            arith: Vec::new(),
            vars: BTreeMap::new(),
        };
        for (i, k) in &keys {
            match k {
                Some(Key::Null) => c.null.push(*i),
                Some(Key::Param(r)) if r != i => c.same.push((*r, *i)),
                _ => {}
            }
        }
        let mut cells = Vec::new();
        for pt in &ctx.points_to {
            if let Some(Key::Param(r)) = key(&pt.ptr) {
                for (i, k) in &keys {
                    if *k == Some(Key::Param(r)) {
                        c.alloc.push((*i, pt.class.clone()));
                    }
                }
                cells.push(r);
            }
        }
        for (n, a) in cells.iter().enumerate() {
            for b in &cells[n + 1..] {
                c.differ.push((*a, *b));
            }
        }
        let sorts: BTreeMap<&str, &LSort> =
            def.params.iter().chain(&ctx.exists).map(|(v, s)| (v.as_str(), s)).collect();
        for p in &ctx.pure {
            if let Pure::Cmp(CmpOp::Ne, a, b) = p {
                match (key(a), key(b)) {
                    (Some(Key::Param(x)), Some(Key::Param(y))) => c.differ.push((x, y)),
                    (Some(Key::Param(x)), Some(Key::Null))
                    | (Some(Key::Null), Some(Key::Param(x))) => c.nonnull.push(x),
                    _ => {}
                }
            }
            if is_arith(p, &sorts) {
                c.arith.push(p.clone());
            }
        }
        let mut next = 0;
        for (i, (v, s)) in def.params.iter().enumerate() {
            if matches!(s, LSort::Int | LSort::Bool) {
                c.vars.insert(v.clone(), VarRef::Param(i));
            }
        }
        for (v, s) in &ctx.exists {
            let sort = match s {
                LSort::Int => Sort::Int,
                LSort::Bool => Sort::Bool,
                LSort::Ref(_) => continue,
            };
            c.vars.insert(v.clone(), VarRef::Exists(next, sort));
            next += 1;
        }
        Some(c)
    }

    /// `Err` with the first fact of the context the state contradicts.
    fn check(&self, st: &State, params: &[String], args: &[SValue], asked: &mut u64) -> Verdict {
        let name = |i: usize| params.get(i).cloned().unwrap_or_else(|| format!("#{i}"));
        let arg = |i: usize| args.get(i).cloned().unwrap_or(SValue::Void);
        for &i in &self.null {
            if matches!(arg(i), SValue::Obj(_) | SValue::SymLoc(_)) {
                return Err(format!("{} == null, but it is {}", name(i), st.show(&arg(i))));
            }
        }
        for &i in &self.nonnull {
            if arg(i) == SValue::Null {
                return Err(format!("{} != null, but it is null", name(i)));
            }
        }
        for (i, class) in &self.alloc {
            let p = name(*i);
            match arg(*i) {
                SValue::Null => return Err(format!("{p} is allocated, but it is null")),
                SValue::Obj(o) if st.footprint.contains(&o) => {
                    let o = PathState::obj_name(o);
                    return Err(format!("{p} is a cell of its own, but {o} is described already"));
                }
                SValue::Obj(o) => match st.heap.get(o) {
                    Some(ob) if &ob.class != class => {
                        let o = PathState::obj_name(o);
                        return Err(format!(
                            "{p} is allocated as {class}, but {o} is of class {}",
                            ob.class
                        ));
                    }
                    _ => {}
                },
                _ => {}
            }
        }
        for (i, j) in &self.same {
            if differ(&arg(*i), &arg(*j)) {
                return Err(format!(
                    "{} == {}, but they are {} and {}",
                    name(*i),
                    name(*j),
                    st.show(&arg(*i)),
                    st.show(&arg(*j))
                ));
            }
        }
        for (i, j) in &self.differ {
            if arg(*i) == arg(*j) {
                return Err(format!(
                    "{} != {}, but both are {}",
                    name(*i),
                    name(*j),
                    st.show(&arg(*i))
                ));
            }
        }
        if self.arith.is_empty() {
            return Ok(());
        }
        let base = st.vars.len() as u32;
        let mut c = Sym::bool(true);
        for p in &self.arith {
            if let Some(s) = self.pure(p, args, base) {
                c = Sym::and(&c, &s);
            }
        }
        if c.as_bool() == Some(true) {
            return Ok(());
        }
        *asked += 1;
        let unsat =
            c.as_bool() == Some(false) || dbm::decide(&dbm::slice(&st.pc, &c), &c) == Some(false);
        if unsat {
            return Err(format!("the path condition contradicts {}", show_facts(&self.arith)));
        }
        Ok(())
    }

    /// An integer fact with the arguments' values for the parameters and variables numbered
    /// from `base` (above every variable of the state) for the existentials.
    fn pure(&self, p: &Pure, args: &[SValue], base: u32) -> Option<Sym> {
        let var = |v: &str| match self.vars.get(v)? {
            VarRef::Param(i) => match args.get(*i)? {
                SValue::Int(s) | SValue::Bool(s) => Some(s.clone()),
                _ => None,
            },
            VarRef::Exists(n, sort) => Some(Sym::var(base + n, *sort)),
        };
        super::logic_sym::pure(p, &var)
    }
}

/// Two values that are certainly different references.
fn differ(a: &SValue, b: &SValue) -> bool {
    match (a, b) {
        (SValue::Null, SValue::Obj(_) | SValue::SymLoc(_))
        | (SValue::Obj(_) | SValue::SymLoc(_), SValue::Null) => true,
        (SValue::Obj(x), SValue::Obj(y)) => x != y,
        _ => false,
    }
}

/// A fact about integers and booleans only (references are the pointer checks' business).
fn is_arith(p: &Pure, sorts: &BTreeMap<&str, &LSort>) -> bool {
    fn term_ok(t: &Term, sorts: &BTreeMap<&str, &LSort>) -> bool {
        match t {
            Term::Var(v) => matches!(sorts.get(v.as_str()), Some(LSort::Int | LSort::Bool)),
            Term::Null => false,
            Term::Int(_) | Term::Bool(_) => true,
            Term::Add(a, b) | Term::Sub(a, b) | Term::Mul(a, b) => {
                term_ok(a, sorts) && term_ok(b, sorts)
            }
            Term::Neg(a) => term_ok(a, sorts),
        }
    }
    match p {
        Pure::Const(_) => false,
        Pure::Cmp(_, a, b) => term_ok(a, sorts) && term_ok(b, sorts),
        Pure::Not(q) => is_arith(q, sorts),
        Pure::And(qs) | Pure::Or(qs) => qs.iter().all(|q| is_arith(q, sorts)),
    }
}

fn show_facts(facts: &[Pure]) -> String {
    facts.iter().map(|p| p.to_string()).collect::<Vec<_>>().join(" & ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::symbolic::code::compile;
    use heaplab_syntax::{analyze, SourceFile};

    const SRC: &str = "class Node { int val; Node next; }
pred lst(Node x, int n) := x == null & n == 0
  | exists int v, Node m, int k. x -> Node { val: v, next: m } * lst(m, k) & n == k + 1;
pred seg(Node x, Node y) := x == y | exists Node m. x -> Node { val: 1, next: m } * seg(m, y);
";

    fn table() -> (Compiled, EnumTable) {
        let a = analyze(&SourceFile::new("t.hl", SRC));
        assert!(!a.has_errors(), "{:?}", a.diagnostics);
        let code = compile(&a.program, &a.info);
        let t = EnumTable::build(&code);
        (code, t)
    }

    /// `lst`: the empty disjunct is one context (`x == null`, `n == 0`); every context of the
    /// recursive one allocates `x`. `seg`: the base case equates the parameters; the recursive
    /// contexts allocate `x` and tell it apart from nothing else.
    #[test]
    fn contexts_by_disjunct() {
        let (code, t) = table();
        let lst = &t.preds[&code.predicates["lst"]];
        assert_eq!(lst.len(), 2);
        assert_eq!(lst[0].len(), 1);
        assert_eq!(lst[0][0].null, vec![0]);
        assert_eq!(show_facts(&lst[0][0].arith), "n == 0");
        assert!(!lst[1].is_empty());
        for c in &lst[1] {
            assert_eq!(c.alloc, vec![(0, "Node".to_string())]);
            assert!(c.null.is_empty());
        }
        let seg = &t.preds[&code.predicates["seg"]];
        assert_eq!(seg[0].len(), 1);
        assert_eq!(seg[0][0].same, vec![(0, 1)]);
        assert!(seg[1].iter().all(|c| c.alloc.iter().any(|(i, _)| *i == 0)));
    }
}
