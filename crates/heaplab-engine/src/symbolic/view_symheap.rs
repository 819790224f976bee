//! The `symheap` part of a state's view (issue 15): the paper's picture of a fully symbolic
//! heap. References are circles, locations are boxes, and a reference holding the guarded value
//! set {(g1, l1), (g2, null), ...} gets one edge per pair, labelled with its guard written over
//! the inputs' source names (`this.head == null`, `o1.next == this.head`).
//!
//! A view also answers "show one concrete world" ([`SymHeapView::worlds`]): models of the path
//! condition, each picking the one true entry of every drawn reference, distinct worlds found
//! with blocking clauses. The queries go to the Rust procedure of `heaplab-smt` (`lia`), which
//! decides equality logic over references and linear integer arithmetic, synchronously, so a
//! front end gets worlds without a solver round trip; a query outside its fragment is reported,
//! never guessed.

use super::heap::symheap::{class_ranks, SymHeapData};
use super::show::{Names, ValView};
use super::state::{PathState, SValue, State, VarOrigin};
use super::term::{Env, Memo, Node, Sort, Sym};
use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};
use std::rc::Rc;

/// How many worlds a view lists at most.
pub const MAX_WORLDS: usize = 8;

/// A guard longer than this (as text) is cut for the label; the full text stays in `full`.
const GUARD_TEXT_CAP: usize = 600;

/// One (guard, location) pair of a reference.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntryView {
    /// The guard over input references in source names; `always` when it holds in every world.
    pub guard: String,
    /// The location's id (`o2`), `None` for null.
    pub loc: Option<String>,
    cond: Sym,
}

impl EntryView {
    /// The guard as the solver reads it.
    pub fn cond(&self) -> &Sym {
        &self.cond
    }
}

/// One reference (a circle).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefView {
    /// `ref3`, the id values of the state use for it.
    pub id: String,
    /// The input it stands for (`this`, `o1.next`), when it is an input reference.
    pub input: Option<String>,
    /// Not an input reference, but a copy of one (the same guarded set; a parameter passed
    /// on): that input's name.
    pub copy_of: Option<String>,
    pub class: String,
    pub entries: Vec<EntryView>,
}

/// One location (a box).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LocView {
    /// `o1`: the name guards use for its fields (`o1.next`).
    pub id: String,
    pub class: String,
    /// An input location (an object of the input heap), or allocated by `new`.
    pub input: bool,
    /// The current value of every field (a reference field holds a reference id; `Unread`: an
    /// input field not summarized yet).
    pub fields: Vec<(String, ValView)>,
}

/// A concrete world: for each reference of [`SymHeapView::refs`], the index of its one entry
/// whose guard holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct World {
    pub choice: Vec<usize>,
}

/// What the world search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Worlds {
    /// Distinct worlds, at most [`MAX_WORLDS`].
    pub worlds: Vec<World>,
    /// There may be more worlds than listed.
    pub more: bool,
    /// Why the search stopped early (a query outside the Rust procedure), if it did.
    pub note: Option<String>,
}

/// The references and locations of a `symheap` state reachable from its roots, locals and
/// result, with what is needed to find its worlds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SymHeapView {
    pub refs: Vec<RefView>,
    pub locs: Vec<LocView>,
    /// The path condition, as the solver reads it.
    pc: Vec<Sym>,
    /// Every variable of the state (for the model).
    vars: Vec<(u32, Sort)>,
    /// The variables of the input references the drawn guards speak of.
    inputs: Vec<u32>,
    /// Those first, then the other input references' variables.
    all_inputs: Vec<u32>,
    /// Each input reference variable's rank, its largest value (`heap/symheap.rs`'s
    /// `class_ranks`).
    ranks: BTreeMap<u32, i64>,
    /// The named guards (variables with a definition `b = g` in the path condition).
    named: BTreeSet<u32>,
}

impl SymHeapView {
    /// The view of `st`'s symbolic heap, or `None` when `st` does not run `symheap`.
    pub(crate) fn of(
        st: &State,
        names: &Names,
        val: &dyn Fn(&SValue) -> ValView,
    ) -> Option<SymHeapView> {
        let d = st.ext.get::<SymHeapData>()?;
        let printer = GuardPrinter::new(st, d, names);
        // References and locations reachable from the roots, locals and result.
        let mut seen_refs = BTreeSet::new();
        let mut seen_locs = BTreeSet::new();
        let mut queue: VecDeque<u32> = VecDeque::new();
        let locals = st.frames.iter().flat_map(|f| f.locals.iter().flatten());
        for v in st.roots.iter().chain(locals).chain(&st.returned) {
            if let SValue::SymRef(r) = v {
                queue.push_back(*r);
            }
        }
        while let Some(r) = queue.pop_front() {
            if !seen_refs.insert(r) {
                continue;
            }
            let Some(info) = d.refs.get(r as usize) else { continue };
            for (_, l) in &info.set {
                let Some(l) = *l else { continue };
                if !seen_locs.insert(l) {
                    continue;
                }
                for (_, v) in d.locs.get(l).map(|o| o.fields.as_slice()).unwrap_or_default() {
                    if let Some(SValue::SymRef(r2)) = v {
                        queue.push_back(*r2);
                    }
                }
                // An array's cells hold references too.
                for c in d.arrays.get(&l).map(|a| a.cells.as_slice()).unwrap_or_default() {
                    if let SValue::SymRef(r2) = &c.value {
                        queue.push_back(*r2);
                    }
                }
            }
        }
        let refs = seen_refs
            .iter()
            .filter_map(|&r| {
                let info = d.refs.get(r as usize)?;
                let entries = info
                    .set
                    .iter()
                    .map(|(g, l)| EntryView {
                        guard: printer.text(g),
                        loc: l.map(PathState::obj_name),
                        cond: g.clone(),
                    })
                    .collect();
                let twin = || {
                    let mut inputs = d.inputs.iter().filter_map(|&i| d.refs.get(i as usize));
                    inputs.find(|i| i.set == info.set).and_then(|i| i.var)
                };
                let copy_of = match info.var {
                    Some(_) => None,
                    None => twin().map(|v| names.var(v, Sort::Int)),
                };
                Some(RefView {
                    id: format!("ref{r}"),
                    input: info.var.map(|v| names.var(v, Sort::Int)),
                    copy_of,
                    class: info.class.clone(),
                    entries,
                })
            })
            .collect();
        // The input references the drawn guards speak of (named guards looked through).
        let mut used = BTreeSet::new();
        for r in &seen_refs {
            for (g, _) in d.refs.get(*r as usize).map(|i| i.set.as_slice()).unwrap_or_default() {
                printer.vars(g, &mut used, &mut BTreeSet::new());
            }
        }
        let locs = seen_locs
            .iter()
            .filter_map(|&l| {
                let loc = d.locs.get(l)?;
                let mut fields: Vec<(String, ValView)> = loc
                    .fields
                    .iter()
                    .map(|(f, v)| (f.clone(), v.as_ref().map_or(ValView::Unread, val)))
                    .collect();
                // An array: its length, then one row per cell accessed (`[i]`; `[j] if new`
                // where it is a cell of its own only in the worlds where `j` differs from the
                // indexes before it).
                if let Some(a) = d.arrays.get(&l) {
                    fields.push(("length".into(), val(&SValue::Int(a.len.clone()))));
                    for c in &a.cells {
                        let index = printer.text(&c.index);
                        let name = match c.live.as_bool() {
                            Some(true) => format!("[{index}]"),
                            _ => format!("[{index}] if new"),
                        };
                        fields.push((name, val(&c.value)));
                    }
                } else if super::code::SlotType::array_elem(&loc.class).is_some() {
                    // An input array no access has reached yet.
                    fields.push(("length".into(), ValView::Unread));
                }
                Some(LocView {
                    id: PathState::obj_name(l),
                    class: loc.class.clone(),
                    input: loc.input,
                    fields,
                })
            })
            .collect();
        Some(SymHeapView {
            refs,
            locs,
            pc: st.pc.to_vec(),
            vars: st.vars.iter().enumerate().map(|(i, (sort, _))| (i as u32, *sort)).collect(),
            inputs: d
                .inputs
                .iter()
                .filter_map(|&r| d.refs.get(r as usize)?.var)
                .filter(|v| used.contains(v))
                .collect(),
            all_inputs: {
                let vars = d.inputs.iter().filter_map(|&r| d.refs.get(r as usize)?.var);
                let (mut first, rest): (Vec<u32>, Vec<u32>) = vars.partition(|v| used.contains(v));
                first.extend(rest);
                first
            },
            ranks: printer
                .ranks
                .iter()
                .filter_map(|(v, class)| {
                    let at = class.iter().position(|x| x == v)?;
                    Some((*v, at as i64 + 1))
                })
                .collect(),
            named: printer.defs.keys().copied().collect(),
        })
    }

    /// The path condition the worlds are models of.
    pub fn path_condition(&self) -> &[Sym] {
        &self.pc
    }

    /// Up to [`MAX_WORLDS`] distinct worlds of the path condition, each read from a model as
    /// the one true entry of every reference.
    ///
    /// Guards speak only of which input references are null and which are equal, so a world
    /// is fixed by that partition of the input references. The search assigns them one by one
    /// (null, the same object as an earlier one, or a new object; the ones the drawn guards
    /// speak of first, each partition of those giving one world), evaluates the path condition
    /// under the assignment (the named guards' definitions then fix their values), prunes
    /// where a fact is false, and asks the Rust procedure `lia` only for what is left at a
    /// complete assignment: the integer facts, a conjunction it decides at once. (Handing it
    /// the whole path condition with blocking clauses ran out of its split budget: every named
    /// guard is an equivalence with a disjunction.)
    pub fn worlds(&self) -> Worlds {
        let mut search = WorldSearch {
            view: self,
            values: HashMap::new(),
            worlds: Vec::new(),
            steps: 0,
            note: None,
        };
        let more = matches!(search.assign(0, 0), Flow::Stop);
        Worlds { worlds: search.worlds, more, note: search.note }
    }

    /// The path condition for people: the facts over input references in the guards' words,
    /// without the definitions of named guards and the integer-range facts.
    pub(crate) fn facts(st: &State, names: &Names) -> Vec<String> {
        let Some(d) = st.ext.get::<SymHeapData>() else { return Vec::new() };
        let printer = GuardPrinter::new(st, d, names);
        let mut out: Vec<String> = Vec::new();
        for c in &st.pc {
            if super::show::is_range_fact(c) || printer.is_definition(c) {
                continue;
            }
            let text = printer.text(c);
            if text != "always" && !out.contains(&text) {
                out.push(text);
            }
        }
        out
    }
}

/// Assignments the world search may visit per view (each evaluates the path condition).
const WORLD_STEPS: usize = 4_000;

/// The depth-first search of [`SymHeapView::worlds`].
struct WorldSearch<'a> {
    view: &'a SymHeapView,
    /// The value of each input reference assigned so far (0: null, else a rank).
    values: HashMap<u32, i64>,
    worlds: Vec<World>,
    steps: usize,
    note: Option<String>,
}

/// How a branch of the world search ended.
enum Flow {
    /// Nothing found below; go on with the next value.
    Go,
    /// A world was completed below.
    Found,
    /// Stop the search (enough worlds, its budget, or a query it cannot decide).
    Stop,
}

/// What the path condition says under a partial assignment.
enum Verdict {
    False,
    /// The facts left (over integer variables, and references not assigned yet).
    Open(Vec<Sym>, HashMap<u32, i64>),
}

impl WorldSearch<'_> {
    /// Assigns input reference `i` onwards (`objects`: the objects used so far).
    fn assign(&mut self, i: usize, objects: i64) -> Flow {
        self.steps += 1;
        if self.steps > WORLD_STEPS {
            self.note.get_or_insert_with(|| "no further world: search budget spent".into());
            return Flow::Stop;
        }
        let Verdict::Open(rest, guards) = self.evaluate() else { return Flow::Go };
        let Some(&x) = self.view.all_inputs.get(i) else { return self.leaf(rest, guards) };
        let drawn = i < self.view.inputs.len();
        // A reference's values run up to its rank (new), whatever the earlier ones took: the
        // drawn ones come first, so an earlier reference may be null where a later one is new.
        let top = self.view.ranks.get(&x).copied().unwrap_or(objects + 1);
        for v in 0..=top {
            self.values.insert(x, v);
            let flow = self.assign(i + 1, objects.max(v));
            self.values.remove(&x);
            match flow {
                Flow::Stop => return Flow::Stop,
                // Below the references the picture depends on, one completion is enough.
                Flow::Found if !drawn => return Flow::Found,
                _ => {}
            }
        }
        Flow::Go
    }

    /// The path condition under the assignment: named guards get the value their definition
    /// evaluates to (in order: a definition speaks only of earlier variables).
    fn evaluate(&self) -> Verdict {
        let mut guards: HashMap<u32, i64> = HashMap::new();
        let mut rest = Vec::new();
        for c in &self.view.pc {
            let env = |id: u32, sort: Sort| match sort {
                Sort::Int => self.values.get(&id).copied(),
                Sort::Bool => guards.get(&id).copied(),
            };
            let mut memo = Memo::default();
            if let Node::Eq(a, b) = c.node() {
                if let Node::Var(id, Sort::Bool) = a.node() {
                    if self.view.named.contains(id) {
                        match b.substitute(&Env::any(&env), &mut memo).as_bool() {
                            Some(v) => {
                                guards.insert(*id, i64::from(v));
                            }
                            None => rest.push(c.substitute(&Env::any(&env), &mut memo)),
                        }
                        continue;
                    }
                }
            }
            let f = c.substitute(&Env::any(&env), &mut memo);
            match f.as_bool() {
                Some(true) => {}
                Some(false) => return Verdict::False,
                None => rest.push(f),
            }
        }
        Verdict::Open(rest, guards)
    }

    /// A complete assignment: the integer facts left go to `lia`; a model gives the world.
    fn leaf(&mut self, rest: Vec<Sym>, guards: HashMap<u32, i64>) -> Flow {
        let mut terms = Vec::with_capacity(rest.len());
        let mut want_vars = Vec::new();
        for f in &rest {
            match super::smt::to_term(f) {
                Some(t) => terms.push(t),
                None => {
                    self.note = Some("no further world: a fact is not linear".into());
                    return Flow::Stop;
                }
            }
            want_vars.extend(f.vars());
        }
        want_vars.sort();
        want_vars.dedup();
        let model = if terms.is_empty() {
            super::solve::Model::default()
        } else {
            match heaplab_smt::lia::decide(&terms, &super::smt::wanted(&want_vars)) {
                heaplab_smt::lia::Decision::Sat(m) => super::smt::read_model(&m, &want_vars),
                heaplab_smt::lia::Decision::Unsat => return Flow::Go,
                heaplab_smt::lia::Decision::Outside(why) => {
                    self.note = Some(format!("no further world: {why}"));
                    return Flow::Stop;
                }
            }
        };
        let env = |id: u32, sort: Sort| {
            let v = match sort {
                Sort::Int => self.values.get(&id).copied(),
                Sort::Bool => guards.get(&id).copied(),
            };
            Some(v.or_else(|| model.get(id, sort)).unwrap_or(0))
        };
        let mut choice = Vec::with_capacity(self.view.refs.len());
        for r in &self.view.refs {
            let Some(i) = r.entries.iter().position(|e| e.cond.eval(&env) == Some(1)) else {
                self.note = Some(format!("no further world: {} has no true entry", r.id));
                return Flow::Stop;
            };
            choice.push(i);
        }
        if !self.worlds.iter().any(|w| w.choice == choice) {
            self.worlds.push(World { choice });
        }
        if self.worlds.len() < MAX_WORLDS {
            Flow::Found
        } else {
            Flow::Stop
        }
    }
}

/// Writes guards for people: input references by their source names, `r == 0` as
/// `r == null`, `r == j` (a rank, see `heap/symheap.rs`'s `class_ranks`) as `r == s` where `s`
/// is the j-th reference of the class (`r is new` for its own rank), `!(a == b)` as `a != b`,
/// and the explorer's named guards (`b = g` facts of the path condition, kept to keep queries
/// small) expanded again.
struct GuardPrinter<'a> {
    names: &'a Names,
    /// Variables of input references (compared with 0 means null).
    refs: BTreeSet<u32>,
    /// Each input reference's variable → the variables of its class by rank (from 1).
    ranks: HashMap<u32, Rc<[u32]>>,
    /// The definitions of named guards.
    defs: HashMap<u32, Sym>,
}

impl<'a> GuardPrinter<'a> {
    fn new(st: &State, d: &SymHeapData, names: &'a Names) -> GuardPrinter<'a> {
        let named: BTreeSet<u32> = st
            .vars
            .iter()
            .enumerate()
            .filter(|(_, (sort, o))| {
                *sort == Sort::Bool && matches!(o, VarOrigin::Existential(n) if n == "guard")
            })
            .map(|(i, _)| i as u32)
            .collect();
        let mut defs = HashMap::new();
        for c in &st.pc {
            if let Node::Eq(a, b) = c.node() {
                if let Node::Var(id, Sort::Bool) = a.node() {
                    if named.contains(id) {
                        defs.entry(*id).or_insert_with(|| b.clone());
                    }
                }
            }
        }
        let refs = d.refs.iter().filter_map(|r| r.var).collect();
        let mut ranks = HashMap::new();
        let classes: BTreeSet<&str> = d.refs.iter().map(|r| r.class.as_str()).collect();
        for class in classes {
            let vars: Rc<[u32]> = class_ranks(d, class)
                .iter()
                .filter_map(|&r| d.refs.get(r as usize).and_then(|i| i.var))
                .collect();
            for v in vars.iter() {
                ranks.insert(*v, Rc::clone(&vars));
            }
        }
        GuardPrinter { names, refs, ranks, defs }
    }

    fn text(&self, g: &Sym) -> String {
        if g.as_bool() == Some(true) {
            return "always".into();
        }
        let mut out = String::new();
        self.write(g, &mut out, 0);
        out
    }

    /// Appends `g`; `depth` bounds the expansion of named guards.
    fn write(&self, g: &Sym, out: &mut String, depth: u32) {
        if out.len() > GUARD_TEXT_CAP {
            return;
        }
        let operand = |s: &Sym, op: &Node, out: &mut String| {
            // An operand in parentheses unless it is atomic or the same connective.
            let same = std::mem::discriminant(s.node()) == std::mem::discriminant(op);
            let atomic = matches!(s.node(), Node::Eq(..) | Node::Var(..) | Node::Not(_));
            if same || atomic {
                self.write(s, out, depth);
            } else {
                out.push('(');
                self.write(s, out, depth);
                out.push(')');
            }
        };
        match g.node() {
            Node::And(a, b) => {
                operand(a, g.node(), out);
                out.push_str(" && ");
                operand(b, g.node(), out);
            }
            Node::Or(a, b) => {
                operand(a, g.node(), out);
                out.push_str(" || ");
                operand(b, g.node(), out);
            }
            Node::Not(a) => match a.node() {
                Node::Eq(x, y) => self.compare(x, "!=", y, out),
                _ => {
                    out.push('!');
                    out.push('(');
                    self.write(a, out, depth);
                    out.push(')');
                }
            },
            Node::Eq(x, y) => self.compare(x, "==", y, out),
            Node::Var(id, Sort::Bool) if depth < 8 => match self.defs.get(id) {
                Some(def) => {
                    out.push('(');
                    self.write(def, out, depth + 1);
                    out.push(')');
                }
                None => out.push_str(&self.names.show(g)),
            },
            _ => out.push_str(&self.names.show(g)),
        }
        if out.len() > GUARD_TEXT_CAP && !out.ends_with('…') {
            out.push('…');
        }
    }

    /// The `Int` variables of `g`, named guards looked through (`seen`: those already done).
    fn vars(&self, g: &Sym, out: &mut BTreeSet<u32>, seen: &mut BTreeSet<u32>) {
        let mut stack = vec![g.clone()];
        while let Some(t) = stack.pop() {
            match t.node() {
                Node::Var(id, Sort::Int) => {
                    out.insert(*id);
                }
                Node::Var(id, Sort::Bool) => {
                    if let Some(def) = self.defs.get(id) {
                        if seen.insert(*id) {
                            stack.push(def.clone());
                        }
                    }
                }
                node => stack.extend(node.children().cloned()),
            }
        }
    }

    /// `b = g` naming a guard (a definition, not a fact about the inputs).
    fn is_definition(&self, c: &Sym) -> bool {
        matches!(c.node(), Node::Eq(a, _) if matches!(a.node(), Node::Var(id, Sort::Bool) if self.defs.contains_key(id)))
    }

    fn compare(&self, x: &Sym, op: &str, y: &Sym, out: &mut String) {
        let is_ref =
            |s: &Sym| matches!(s.node(), Node::Var(id, Sort::Int) if self.refs.contains(id));
        // `r == j` for the rank j of another reference of its class: `r == that one`.
        let ranked = |s: &Sym, other: &Sym| -> Option<u32> {
            let Node::Var(id, Sort::Int) = other.node() else { return None };
            let j = usize::try_from(s.as_int()?).ok()?.checked_sub(1)?;
            self.ranks.get(id)?.get(j).copied()
        };
        for (r, k) in [(x, y), (y, x)] {
            let Some(rv) = ranked(k, r) else { continue };
            let me = self.names.show(r);
            if matches!(r.node(), Node::Var(id, _) if *id == rv) {
                let is = if op == "==" { "is" } else { "is not" };
                out.push_str(&format!("{me} {is} new"));
            } else {
                let that = self.names.show(&Sym::var(rv, Sort::Int));
                out.push_str(&format!("{me} {op} {that}"));
            }
            return;
        }
        let side = |s: &Sym, other: &Sym| {
            if s.as_int() == Some(0) && is_ref(other) {
                "null".to_string()
            } else {
                self.names.show(s)
            }
        };
        out.push_str(&format!("{} {op} {}", side(x, y), side(y, x)));
    }
}
