//! A picture of one symbolic state for a person: the objects with their fields, the inputs of
//! the method, Kiasan's still-open abstract references, `sl`'s folded predicate instances and
//! the path condition, as plain data (the page draws the heap graph from it).
//!
//! Why a separate type and not [`State`] itself: a state is the explorer's working data (frames,
//! a resolution table, variables numbered for the solver). A view is resolved once — every
//! value is followed through the resolution table, every variable is named by where it came
//! from (`x`, `o1.key`, `lo`) — so front ends need no knowledge of the explorer's internals.
//!
//! [`Snapshots`] keeps the states of tree nodes that are gone (a state that forked lives on
//! only in its children), to be made views only when a person looks at one; the explorer
//! fills it only when a front end asks for it
//! ([`Explorer::record_views`](super::Explorer::record_views)).

use super::code::{Compiled, SlotType, Unit, UnitId, UnitKind};
use super::events::ViewAt;
use super::outcome::PathOutcome;
pub use super::show::ValView;
use super::show::{is_range_fact, value, Names};
use super::state::{Origin, PathState, SValue, State, StateId};
use super::term::{Node, Sym};
use super::view_symheap::SymHeapView;
use heaplab_syntax::Span;
use rustc_hash::FxHashMap;
use std::collections::BTreeSet;

/// The name of the unit that calls the method under test (`exec::entry`); not a frame a person
/// wrote, so views leave it out.
pub(crate) const DRIVER: &str = "<driver>";

/// Whether `unit` is the run's driver (named [`DRIVER`], see `exec::entry`); asked of every
/// frame of every named fork, so without writing the unit's name.
pub(crate) fn is_driver(unit: &Unit) -> bool {
    matches!(&unit.kind, UnitKind::Function { class: None, name } if name == DRIVER)
}

/// One object of the heap.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObjView {
    pub id: String,
    pub class: String,
    /// Part of the input heap (discovered by lazy initialization), or allocated by `new`.
    pub input: bool,
    /// Every field in declaration order.
    pub fields: Vec<(String, ValView)>,
}

/// Whether an open abstract reference may still be null.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum SymKind {
    SymRef,
    SymLoc,
}

/// An abstract reference not resolved yet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SymView {
    pub id: String,
    pub kind: SymKind,
    pub class: String,
}

/// An `sl` predicate instance of the input formula, still folded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PredView {
    /// `bst(o1, lo, o1.key)`.
    pub text: String,
    pub name: String,
    /// The reference the instance covers (its first reference argument); `None` when null.
    pub root: Option<String>,
    /// 1 for instances of `requires`, one more per unfolding below.
    pub depth: u32,
}

/// One frame of the call stack (the method under test, its callees, a `requires` or predicate
/// being evaluated), innermost last.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FrameView {
    /// `BST.insertAt`, `pred bst`, `requires of BST.insert`.
    pub unit: String,
    /// The source of the instruction the frame is at (the call, for a caller).
    pub span: Option<Span>,
    /// The frame's named slots that hold a value (parameters, locals, bound existentials), in
    /// slot order; unset locals and the compiler's hidden slots are left out.
    pub locals: Vec<(String, ValView)>,
}

/// How the node's path ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutcomeView {
    /// `returned`, `error`, `bounded`, `discarded` or `internal`.
    pub kind: &'static str,
    pub text: String,
}

/// One state of the exploration tree, for people.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeapView {
    pub node: StateId,
    /// The tree node's label (filled in by the explorer).
    pub label: String,
    /// For a child of a fork into a predicate's cases: the case it took, instantiated
    /// (`ref0 == null & emp`), written from its parent's kept state (filled in by the explorer;
    /// a run's slices leave these formulas out of their events).
    pub case_formula: Option<String>,
    pub at: ViewAt,
    /// In creation order (`o1`, `o2`, ...).
    pub objects: Vec<ObjView>,
    /// `this` (for methods) and the parameters of the method under test, with their input values.
    pub roots: Vec<(String, ValView)>,
    /// The call stack now, outermost first (the run's driver left out): the current values of
    /// every frame's parameters and locals.
    pub frames: Vec<FrameView>,
    /// Open abstract references that some value of the state refers to.
    pub symbolic: Vec<SymView>,
    pub predicates: Vec<PredView>,
    /// The path condition without the explorer's integer-range facts, variables named.
    pub path_condition: Vec<String>,
    pub returned: Option<ValView>,
    pub outcome: Option<OutcomeView>,
    /// `symheap`: references, locations and guarded value sets (the objects, open references
    /// and predicates above are then empty).
    pub symheap: Option<SymHeapView>,
}

impl HeapView {
    /// The view of `st`; `method` is the unit of the method under test (for parameter names).
    pub fn of(st: &State, code: &Compiled, method: UnitId, at: ViewAt) -> HeapView {
        let mut view = HeapView::shape_of(st, code, method, at);
        let names = Names::of(st);
        let val = |v: &SValue| value(st, &names, v);
        view.predicates = super::strategy::sl::deferred(st)
            .iter()
            .map(|d| {
                let args: Vec<ValView> = d.args.iter().map(val).collect();
                let texts: Vec<&str> = args.iter().map(ValView::text).collect();
                let unit_params =
                    code.units.get(d.unit).map(|u| u.params.as_slice()).unwrap_or_default();
                let root = unit_params
                    .iter()
                    .zip(&args)
                    .find(|((_, ty), _)| matches!(ty, SlotType::Class(_)))
                    .and_then(|(_, a)| (*a != ValView::Null).then(|| a.text().to_string()));
                PredView {
                    text: format!("{}({})", d.name, texts.join(", ")),
                    name: d.name.clone(),
                    root,
                    depth: d.depth,
                }
            })
            .collect();
        view.symheap = SymHeapView::of(st, &names, &val);
        (view.symbolic, view.path_condition) = match &view.symheap {
            Some(_) => (Vec::new(), SymHeapView::facts(st, &names)),
            None => (open_references(st), path_condition(&st.pc, &names)),
        };
        view
    }

    /// The objects, roots, frames and returned value of `st` only (no predicates, open
    /// references, path condition or symbolic heap).
    pub fn shape_of(st: &State, code: &Compiled, method: UnitId, at: ViewAt) -> HeapView {
        let names = Names::of(st);
        let val = |v: &SValue| value(st, &names, v);
        let objects =
            st.heap
                .iter()
                .enumerate()
                .map(|(i, o)| ObjView {
                    id: PathState::obj_name(i),
                    class: o.class.clone(),
                    input: matches!(o.origin, Origin::Input { .. }),
                    fields: match &o.array {
                        // An array: its length, then each accessed cell as `[index]` (the others
                        // are unread: an input cell not yet accessed, or the default).
                        Some(a) => std::iter::once((
                            "length".to_string(),
                            ValView::Int(names.show(&a.len)),
                        ))
                        .chain(
                            a.cells.iter().map(|(t, v)| (format!("[{}]", names.show(t)), val(v))),
                        )
                        .collect(),
                        None => o
                            .fields
                            .iter()
                            .map(|(f, v)| (f.clone(), v.as_ref().map_or(ValView::Unread, val)))
                            .collect(),
                    },
                })
                .collect();
        let params = code.units.get(method).map(|u| u.params.as_slice()).unwrap_or_default();
        let roots = params.iter().zip(&st.roots).map(|((n, _), v)| (n.clone(), val(v))).collect();
        let frames = st
            .frames
            .iter()
            .filter_map(|f| {
                let unit = code.units.get(f.unit)?;
                if is_driver(unit) {
                    return None;
                }
                let locals = unit
                    .slot_names
                    .iter()
                    .zip(&f.locals)
                    .filter(|(name, _)| !name.is_empty())
                    .filter_map(|(name, v)| Some((name.clone(), val(v.as_ref()?))))
                    .collect();
                Some(FrameView { unit: unit.display_name(), span: unit.span_at(f.pc), locals })
            })
            .collect();
        let mut view = HeapView::of_shape(st.id, at, objects, roots, frames);
        view.returned = st.returned.as_ref().map(val);
        view
    }

    /// A view of objects, roots and frames alone: no label, predicates, open references, path
    /// condition, returned value, outcome or symbolic heap.
    pub fn of_shape(
        node: StateId,
        at: ViewAt,
        objects: Vec<ObjView>,
        roots: Vec<(String, ValView)>,
        frames: Vec<FrameView>,
    ) -> HeapView {
        HeapView {
            node,
            label: String::new(),
            case_formula: None,
            at,
            objects,
            roots,
            frames,
            symbolic: Vec::new(),
            predicates: Vec::new(),
            path_condition: Vec::new(),
            returned: None,
            outcome: None,
            symheap: None,
        }
    }

    /// The view of a path's final state with its outcome.
    pub fn of_path(st: &State, code: &Compiled, method: UnitId, outcome: &PathOutcome) -> HeapView {
        let mut view = HeapView::of(st, code, method, ViewAt::End);
        let (kind, text) = match outcome {
            PathOutcome::Returned(v) => {
                ("returned", format!("returned {}", value(st, &Names::of(st), v).text()))
            }
            PathOutcome::Error { .. } => ("error", outcome.summary()),
            PathOutcome::Bounded { .. } => ("bounded", outcome.summary()),
            PathOutcome::Discarded { .. } => ("discarded", outcome.summary()),
            PathOutcome::Internal { .. } => ("internal", outcome.summary()),
        };
        view.outcome = Some(OutcomeView { kind, text });
        view
    }
}

/// Every open symbolic reference or location some root, field, local, operand or predicate
/// argument of the state refers to, in id order.
fn open_references(st: &State) -> Vec<SymView> {
    let mut found = BTreeSet::new();
    let fields = st.heap.iter().flat_map(|o| {
        let cells = o.array.iter().flat_map(|a| a.cells.iter().map(|(_, v)| v));
        o.fields.iter().filter_map(|(_, v)| v.as_ref()).chain(cells)
    });
    let frames = st.frames.iter().flat_map(|f| f.locals.iter().flatten().chain(&f.stack));
    let args = super::strategy::sl::deferred(st).iter().flat_map(|d| &d.args);
    for v in st.roots.iter().chain(fields).chain(frames).chain(args).chain(&st.returned) {
        match st.normalize(v) {
            SValue::SymRef(r) => found.insert((SymKind::SymRef, r)),
            SValue::SymLoc(l) => found.insert((SymKind::SymLoc, l)),
            _ => false,
        };
    }
    found
        .into_iter()
        .map(|(kind, i)| {
            let (id, class) = match kind {
                SymKind::SymRef => {
                    (format!("ref{i}"), st.symrefs.get(i as usize).map(|s| &s.class))
                }
                SymKind::SymLoc => {
                    (format!("loc{i}"), st.symlocs.get(i as usize).map(|s| &s.class))
                }
            };
            SymView { id, kind, class: class.map(|c| c.to_string()).unwrap_or_default() }
        })
        .collect()
}

/// The facts of the path condition a person needs: the i64 range of every input (added with
/// each variable) and of every intermediate result (added by the overflow checks) is left out,
/// as is a comparison another fact already implies (`x < k` makes `k != x` and `k > x`, which
/// the postcondition's checks add, say nothing new); a negated comparison is turned around
/// (`x >= o1.key`).
fn path_condition(pc: &[Sym], names: &Names) -> Vec<String> {
    let facts: Vec<&Sym> = pc.iter().filter(|c| !is_range_fact(c)).collect();
    let forms: BTreeSet<Cmp> = facts.iter().filter_map(|c| Cmp::of(c)).collect();
    let mut out: Vec<String> = Vec::new();
    let mut kept: BTreeSet<Cmp> = BTreeSet::new();
    for fact in facts {
        if let Some(form) = Cmp::of(fact) {
            if form.implied_by(&forms) || !kept.insert(form) {
                continue;
            }
        }
        let text = fact_text(fact, names);
        if !out.contains(&text) {
            out.push(text);
        }
    }
    out
}

/// A comparison fact in one canonical form, to see that two facts say the same thing.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Cmp {
    Lt(Sym, Sym),
    Le(Sym, Sym),
    /// Operands sorted.
    Eq(Sym, Sym),
    Ne(Sym, Sym),
}

impl Cmp {
    fn of(c: &Sym) -> Option<Cmp> {
        let sorted =
            |a: &Sym, b: &Sym| if a <= b { (a.clone(), b.clone()) } else { (b.clone(), a.clone()) };
        Some(match c.node() {
            Node::Lt(a, b) => Cmp::Lt(a.clone(), b.clone()),
            Node::Le(a, b) => Cmp::Le(a.clone(), b.clone()),
            Node::Eq(a, b) => {
                let (a, b) = sorted(a, b);
                Cmp::Eq(a, b)
            }
            Node::Not(inner) => match inner.node() {
                Node::Lt(a, b) => Cmp::Le(b.clone(), a.clone()),
                Node::Le(a, b) => Cmp::Lt(b.clone(), a.clone()),
                Node::Eq(a, b) => {
                    let (a, b) = sorted(a, b);
                    Cmp::Ne(a, b)
                }
                _ => return None,
            },
            _ => return None,
        })
    }

    /// Does another fact of `facts` imply this one on its own?
    fn implied_by(&self, facts: &BTreeSet<Cmp>) -> bool {
        match self {
            Cmp::Le(a, b) => {
                let (x, y) = if a <= b { (a, b) } else { (b, a) };
                facts.contains(&Cmp::Lt(a.clone(), b.clone()))
                    || facts.contains(&Cmp::Eq(x.clone(), y.clone()))
            }
            Cmp::Ne(a, b) => {
                facts.contains(&Cmp::Lt(a.clone(), b.clone()))
                    || facts.contains(&Cmp::Lt(b.clone(), a.clone()))
            }
            Cmp::Lt(..) | Cmp::Eq(..) => false,
        }
    }
}

/// `e` of the explorer's overflow check `MIN <= e && e <= MAX`.
fn range_operand(c: &Sym) -> Option<&Sym> {
    let Node::And(lo, hi) = c.node() else { return None };
    match (lo.node(), hi.node()) {
        (Node::Le(min, a), Node::Le(b, max))
            if a == b && min.as_int() == Some(i64::MIN) && max.as_int() == Some(i64::MAX) =>
        {
            Some(a)
        }
        _ => None,
    }
}

fn fact_text(c: &Sym, names: &Names) -> String {
    let operand = |s: &Sym| match s.node() {
        Node::Int(_) | Node::Bool(_) | Node::Var(..) | Node::Neg(_) | Node::Not(_) => names.show(s),
        _ => format!("({})", names.show(s)),
    };
    if let Node::Not(inner) = c.node() {
        if let Some(r) = range_operand(inner) {
            // The overflow path's fact.
            return format!("{} is outside the int range", names.show(r));
        }
        let flipped = match inner.node() {
            Node::Lt(a, b) => Some((a, ">=", b)),
            Node::Le(a, b) => Some((a, ">", b)),
            Node::Eq(a, b) => Some((a, "!=", b)),
            _ => None,
        };
        if let Some((a, op, b)) = flipped {
            return format!("{} {op} {}", operand(a), operand(b));
        }
    }
    names.show(c)
}

/// What is kept of tree nodes (the explorer keeps their states, from which a view is made when
/// a node is looked at: making a view names every variable and formats the path condition,
/// which a run of thousands of nodes paid for at each fork and nobody looked at), for at most
/// `limit` nodes, with a journal so a step the explorer undoes (an asynchronous solver answered
/// "pending") leaves nothing behind.
#[derive(Debug)]
pub(crate) struct Snapshots<T> {
    limit: usize,
    views: FxHashMap<u32, T>,
    /// While a step may still be undone: the value each changed entry had before it.
    journal: Option<Vec<(u32, Option<T>)>>,
    /// A view was not kept because of the limit.
    pub(crate) full: bool,
    /// The largest id ever kept: a newer node has no view (most nodes of a large run, each
    /// asked for when it is made).
    newest: Option<u32>,
}

impl<T> Default for Snapshots<T> {
    fn default() -> Self {
        Snapshots {
            limit: 0,
            views: FxHashMap::default(),
            journal: None,
            full: false,
            newest: None,
        }
    }
}

impl<T> Snapshots<T> {
    pub(crate) fn set_limit(&mut self, limit: usize) {
        self.limit = limit;
    }

    pub(crate) fn limit(&self) -> usize {
        self.limit
    }

    /// Whether views are kept at all (a front end that shows states asked for them).
    pub(crate) fn recording(&self) -> bool {
        self.limit > 0
    }

    /// Whether a view of `id` would be kept (so the caller builds it only then).
    pub(crate) fn wants(&mut self, id: StateId) -> bool {
        let kept = || self.newest.is_some_and(|n| id.0 <= n) && self.views.contains_key(&id.0);
        if self.views.len() < self.limit || kept() {
            return true;
        }
        if self.limit > 0 {
            self.full = true;
        }
        false
    }

    /// Keeps `kept` for node `id` (replacing an older one of the same node), whatever the limit.
    pub(crate) fn put(&mut self, id: StateId, kept: T) {
        let id = id.0;
        self.newest = self.newest.max(Some(id));
        let old = self.views.insert(id, kept);
        if let Some(journal) = &mut self.journal {
            if !journal.iter().any(|(j, _)| *j == id) {
                journal.push((id, old));
            }
        }
    }

    pub(crate) fn get(&self, id: StateId) -> Option<&T> {
        self.views.get(&id.0)
    }

    /// Starts recording changes so that [`rollback`](Self::rollback) can take them back.
    pub(crate) fn begin(&mut self) {
        self.journal = Some(Vec::new());
    }

    pub(crate) fn commit(&mut self) {
        self.journal = None;
    }

    pub(crate) fn rollback(&mut self) {
        for (id, old) in self.journal.take().unwrap_or_default().into_iter().rev() {
            match old {
                Some(v) => self.views.insert(id, v),
                None => self.views.remove(&id),
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::symbolic::show::show_sym;
    use crate::symbolic::state::VarOrigin;
    use crate::symbolic::term::Sort;

    /// `show_sym` names each variable as `Names::of` names it, primes included, for origins
    /// of every kind (parameters, existentials made again, fields, array cells, a parameter
    /// spelled like a field's name).
    #[test]
    fn show_sym_names_like_names_of() {
        let mut st = crate::symbolic::exec::entry::empty_state(StateId(0));
        let origins = [
            VarOrigin::Param("x".into()),
            VarOrigin::Existential("k".into()),
            VarOrigin::Field { obj: 0, field: "key".into() },
            VarOrigin::Existential("k".into()),
            VarOrigin::Field { obj: 10, field: "key".into() },
            VarOrigin::Field { obj: 0, field: "[0]".into() },
            VarOrigin::Field { obj: 1, field: "key".into() },
            VarOrigin::Field { obj: 0, field: "key".into() },
            VarOrigin::Existential("o1.key".into()),
            VarOrigin::Field { obj: 0, field: "[0]".into() },
            VarOrigin::Param("x".into()),
            VarOrigin::Existential("k".into()),
        ];
        for o in origins {
            st.vars.push((Sort::Int, o));
        }
        let all = Names::of(&st);
        for id in 0..14 {
            let s = Sym::lt(&Sym::var(id, Sort::Int), &Sym::var(13 - id, Sort::Int));
            assert_eq!(show_sym(&st, &s), all.show(&s), "{id}");
        }
        assert_eq!(show_sym(&st, &Sym::var(7, Sort::Int)), "o1.key'");
        assert_eq!(show_sym(&st, &Sym::var(8, Sort::Int)), "o1.key''");
    }

    #[test]
    fn range_facts_are_noise_and_negations_turn_around() {
        let x = Sym::var(0, Sort::Int);
        let y = Sym::var(1, Sort::Int);
        let names = Names(vec!["x".into(), "o1.key".into()]);
        let pc = vec![
            Sym::le(&Sym::int(i64::MIN), &x),
            Sym::le(&x, &Sym::int(i64::MAX)),
            Sym::not(&Sym::lt(&x, &y)),
            Sym::and(
                &Sym::le(&Sym::int(i64::MIN), &Sym::add(&x, &Sym::int(1))),
                &Sym::le(&Sym::add(&x, &Sym::int(1)), &Sym::int(i64::MAX)),
            ),
            Sym::not(&Sym::eq(&Sym::add(&x, &Sym::int(1)), &y)),
            Sym::not(&Sym::lt(&x, &y)),
            // An overflow path keeps its fact: it is why the path fails.
            Sym::not(&Sym::le(&Sym::add(&x, &Sym::int(1)), &Sym::int(i64::MAX))),
            Sym::not(&Sym::and(
                &Sym::le(&Sym::int(i64::MIN), &Sym::mul(&x, &y)),
                &Sym::le(&Sym::mul(&x, &y), &Sym::int(i64::MAX)),
            )),
        ];
        assert_eq!(
            path_condition(&pc, &names),
            vec![
                "x >= o1.key",
                "(x + 1) != o1.key",
                "(x + 1) > 9223372036854775807",
                "x * o1.key is outside the int range",
            ]
        );
    }

    #[test]
    fn implied_comparisons_are_left_out() {
        let x = Sym::var(0, Sort::Int);
        let k = Sym::var(1, Sort::Int);
        let names = Names(vec!["x".into(), "k".into()]);
        let pc = vec![
            Sym::lt(&x, &k),
            Sym::not(&Sym::eq(&k, &x)),
            Sym::not(&Sym::le(&k, &x)),
            Sym::le(&x, &k),
            Sym::not(&Sym::lt(&k, &x)),
        ];
        assert_eq!(path_condition(&pc, &names), vec!["x < k"]);
        let pc = vec![Sym::not(&Sym::lt(&x, &k)), Sym::le(&k, &x), Sym::not(&Sym::eq(&x, &k))];
        assert_eq!(path_condition(&pc, &names), vec!["x >= k", "x != k"]);
        let pc = vec![Sym::eq(&x, &k), Sym::le(&k, &x)];
        assert_eq!(path_condition(&pc, &names), vec!["x == k"]);
    }

    #[test]
    fn snapshots_roll_back_a_step_and_respect_the_limit() {
        let mut s = Snapshots::<ViewAt>::default();
        assert!(!s.wants(StateId(0)), "off by default");
        assert!(!s.full);
        s.set_limit(2);
        s.put(StateId(0), ViewAt::Created);
        s.begin();
        s.put(StateId(0), ViewAt::Fork);
        s.put(StateId(1), ViewAt::Created);
        s.rollback();
        assert_eq!(s.get(StateId(0)), Some(&ViewAt::Created));
        assert_eq!(s.get(StateId(1)), None);
        s.put(StateId(1), ViewAt::Created);
        assert!(s.wants(StateId(1)), "a kept node may be replaced");
        assert!(!s.wants(StateId(2)));
        assert!(s.full);
    }
}
