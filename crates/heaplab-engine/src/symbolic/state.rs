//! One symbolic state: frames, a symbolic heap whose input objects are discovered on demand, the
//! abstract references of Kiasan's lazier/lazier# (symbolic locations δ and symbolic references
//! δ̂) and the path condition.
//!
//! Resolution of δ/δ̂ must act "everywhere" (digest §8 item 5). Instead of rewriting every
//! local, stack slot and field, a state keeps a resolution table and values are normalized
//! (followed through the table) whenever they are used; that is the same substitution, done
//! lazily, and it also makes the input journal ([`Object::input`]) read back resolved.

use super::code::{SlotType, UnitId};
use super::shared_list::SharedList;
use super::term::{Sort, Sym};
use std::any::Any;
use std::collections::BTreeSet;
use std::fmt::Debug;
use std::ops::{Deref, Index, IndexMut};
use std::rc::Rc;

/// Index of an object in [`State::heap`].
pub type ObjIdx = usize;

/// Identifies a state in the exploration tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StateId(pub u32);

/// A symbolic value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SValue {
    Int(Sym),
    Bool(Sym),
    Null,
    /// A materialized object (input or allocated by `new`).
    Obj(ObjIdx),
    /// A symbolic location δ (non-null; which object is decided on dereference).
    SymLoc(u32),
    /// A symbolic reference δ̂ (null or some object; decided on use).
    SymRef(u32),
    Void,
}

impl SValue {
    pub fn is_reference(&self) -> bool {
        matches!(self, SValue::Null | SValue::Obj(_) | SValue::SymLoc(_) | SValue::SymRef(_))
    }
}

/// Where an object came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Part of the input heap, with its Kiasan chain budget.
    Input { budget: i64 },
    /// Allocated by `new` during the run (never an alias target).
    New,
}

/// One object of the symbolic heap.
#[derive(Clone, Debug, PartialEq)]
pub struct Object {
    pub class: String,
    pub origin: Origin,
    /// Current field values in declaration order; `None` = not yet materialized (input objects
    /// only).
    pub fields: Vec<(String, Option<SValue>)>,
    /// The input journal: the value each field had when first read (materialized). A field
    /// written before it was ever read is not part of the input.
    pub input: Vec<(String, SValue)>,
    /// For an array (class `T[]`): its length and accessed cells; `None` for an object.
    pub array: Option<ArrayData>,
}

/// An array as Kiasan's accumulator (digest seed-004a §5, ANEWARRAY/IALOAD/IASTORE-S): a
/// symbolic length LEN and the cells accessed so far, each at a (symbolic) index distinct from
/// the others' on the path. An access compares its index only with these, never enumerates
/// the array.
#[derive(Clone, Debug, PartialEq)]
pub struct ArrayData {
    /// LEN: `0 <= len` is in the path condition.
    pub len: Sym,
    /// The element type.
    pub elem: SlotType,
    /// DEF: the value of a cell never accessed, for an array made by `new` (`None` for an
    /// input array, whose new cells are fresh inputs).
    pub default: Option<SValue>,
    /// Accessed cells: (index, current value), indexes pairwise distinct on the path.
    pub cells: Vec<(Sym, SValue)>,
    /// The input journal of an input array: (index, value when first read).
    pub input: Vec<(Sym, SValue)>,
    /// Kiasan's n: how many more distinct cells may still be accessed (the k bound).
    pub remaining: i64,
}

impl Object {
    pub fn field(&self, name: &str) -> Option<&Option<SValue>> {
        self.fields.iter().find(|(f, _)| f == name).map(|(_, v)| v)
    }

    pub fn input_field(&self, name: &str) -> Option<&SValue> {
        self.input.iter().find(|(f, _)| f == name).map(|(_, v)| v)
    }

    pub fn is_input(&self) -> bool {
        matches!(self.origin, Origin::Input { .. })
    }
}

/// The largest length of an input array: keeps generated tests small enough to build and
/// replay (the interpreter's heap limit), like the range of an `int` input.
pub const MAX_INPUT_ARRAY_LEN: i64 = 1000;

/// A symbolic location δ.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SymLocInfo {
    /// Shared: a state's clone (one per fork) copies the pointer, not the name.
    pub class: Rc<str>,
    pub budget: i64,
    pub resolved: Option<ObjIdx>,
}

/// What a symbolic reference δ̂ turned into.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefResolution {
    Null,
    Loc(u32),
}

/// A symbolic reference δ̂.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SymRefInfo {
    pub class: Rc<str>,
    pub budget: i64,
    pub resolved: Option<RefResolution>,
}

/// Iteration count of one loop in one frame.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoopCount {
    pub head: usize,
    /// Iterations that materialized nothing.
    pub idle: u32,
    /// [`State::materializations`] when the loop head was last reached.
    pub seen: u64,
}

/// One activation.
#[derive(Clone, Debug, PartialEq)]
pub struct Frame {
    pub unit: UnitId,
    pub pc: usize,
    /// `None` = an unbound existential (formulas) or a not yet assigned slot.
    pub locals: Vec<Option<SValue>>,
    pub stack: Vec<SValue>,
    pub loops: Vec<LoopCount>,
}

/// Where a symbolic input value came from, for reading tests and traces.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VarOrigin {
    /// A parameter of the method under test.
    Param(String),
    /// A field of an input object, first read at that time.
    Field { obj: ObjIdx, field: String },
    /// An existential of the precondition or a predicate.
    Existential(String),
}

/// The path condition's conjuncts, shared between a state and the states forked from it until
/// one of them adds to it (copy-on-write through [`Rc::make_mut`]).
///
/// Why: the wasm engine snapshots a state before every step that may ask the solver (an
/// asynchronous Z3 answer undoes the step), and most such steps add no conjunct; cloning and
/// dropping each snapshot's conjuncts one by one was a large part of a `lazy` run there.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PathCondition(Rc<Vec<Sym>>);

impl PathCondition {
    pub fn push(&mut self, conjunct: Sym) {
        Rc::make_mut(&mut self.0).push(conjunct);
    }
}

impl Deref for PathCondition {
    type Target = [Sym];

    fn deref(&self) -> &[Sym] {
        &self.0
    }
}

impl<'a> IntoIterator for &'a PathCondition {
    type Item = &'a Sym;
    type IntoIter = std::slice::Iter<'a, Sym>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl From<Vec<Sym>> for PathCondition {
    fn from(conjuncts: Vec<Sym>) -> PathCondition {
        PathCondition(Rc::new(conjuncts))
    }
}

/// One path in progress, boxed: a state moves into and out of every step (the worklist, the
/// instruction, the strategy's hooks, the step's successors), and as a value of some 300 bytes
/// each move was a copy, together 7–9 % of a run; a box moves as a pointer.
pub type State = Box<PathState>;

/// What a path in progress holds (see [`State`]).
#[derive(Clone, Debug)]
pub struct PathState {
    pub id: StateId,
    pub parent: Option<StateId>,
    pub frames: Frames,
    pub heap: Objects,
    pub symlocs: Vec<SymLocInfo>,
    pub symrefs: Vec<SymRefInfo>,
    /// The path condition: every conjunct is a boolean [`Sym`].
    pub pc: PathCondition,
    /// Symbolic variables created so far (index = variable id), shared with the states forked
    /// from this one.
    pub vars: SharedList<(Sort, VarOrigin)>,
    /// Objects claimed by the separating conjunction while the precondition is evaluated
    /// (shared with the forked states and an undo snapshot until one claims more).
    pub footprint: Rc<BTreeSet<ObjIdx>>,
    /// Objects bound to existentials that the precondition will claim (`Instr::Separate`),
    /// not yet claimed: no other such existential may be one of them.
    pub reserved: Rc<Vec<ObjIdx>>,
    /// True while the precondition runs (its failures discard the path).
    pub in_pre: bool,
    /// How many lazy initializations happened (fields materialized, objects created).
    pub materializations: u64,
    /// The k bound removed a "fresh object" option somewhere on this path.
    pub k_cut: bool,
    pub steps: u64,
    /// The input values of the method under test: `this` (for methods) then the parameters.
    pub roots: Vec<SValue>,
    /// Branch directions taken on this path: (site, direction).
    pub branches: SharedList<(heaplab_syntax::ast::NodeId, bool)>,
    /// The value the method under test returned, once it has.
    pub returned: Option<SValue>,
    /// The range of an `int` input (the program's [`Ints`](heaplab_syntax::ast::Ints)).
    pub int_range: (i64, i64),
    /// Kiasan's array bound n for an input array or one of symbolic length: how many distinct
    /// cells may be accessed (the run's k, "used as both the object bound and the array bound").
    pub array_bound: i64,
    /// Per-path data of the running strategy (`sl`: its deferred predicate instances), owned and
    /// read by that strategy's module only; empty for the option-table strategies.
    pub ext: StrategyData,
    /// Order keys of the built-in `Comparable` elements compared so far (see `exec/order.rs`).
    pub order: OrderKeys,
    /// The cells of the arrays this path allocated with `new`, summed: together they must fit
    /// the interpreter's heap for a test to replay the path (see `exec/instr.rs` `new_array`).
    pub new_array_cells: Sym,
    /// Which slice of a sharded run this state belongs to (`shard`).
    pub shard: crate::symbolic::shard::ShardMark,
}

/// Kiasan's comparison-Ids (digest seed-004a §4.4) of the values a built-in `compare` has
/// read: the key of `null`, and a key per symbolic reference δ̂ / location δ that was compared
/// before it was resolved. A resolution ties its key to what it resolved to
/// (`State::link_order_keys`); an object's key is its `key` field.
#[derive(Clone, Debug, Default)]
pub struct OrderKeys {
    /// The key of `null` (every comparator's `nullKey` equals it on a path).
    pub null_key: Option<Sym>,
    /// Unresolved abstract values (`SymRef` / `SymLoc`) with their keys.
    pub pending: Vec<(SValue, Sym)>,
}

impl PathState {
    /// Drops what only a live state or a test needs (frames, heap, resolution tables, path
    /// condition, footprint, inputs, strategy data), keeping what a run's summary reads of a
    /// path that gave no test: its id, parent, branch directions, `k_cut` and step count. A
    /// precondition that rejects most inputs ends hundreds of thousands of paths, and their
    /// whole states made memory, not the state bound, end the run.
    pub fn shed_for_summary(&mut self) {
        self.frames = Frames::default();
        self.heap = Objects::default();
        self.symlocs = Vec::new();
        self.symrefs = Vec::new();
        self.pc = PathCondition::default();
        self.footprint = Default::default();
        self.reserved = Default::default();
        self.roots = Vec::new();
        self.returned = None;
        self.ext = StrategyData::default();
        self.order = OrderKeys::default();
        // The solver variables only this path declared: a list shared with its siblings, whose
        // own tail a discarded path would keep alive.
        self.vars = SharedList::new();
    }
}

impl PathState {
    /// Adds `o` to the precondition's footprint (copied first if another state shares it).
    pub fn claim(&mut self, o: ObjIdx) {
        Rc::make_mut(&mut self.footprint).insert(o);
    }

    /// Follows the resolution table: the most precise form of a value.
    pub fn normalize(&self, v: &SValue) -> SValue {
        let mut v = v.clone();
        loop {
            match v {
                SValue::SymRef(r) => match self.symrefs.get(r as usize).and_then(|i| i.resolved) {
                    Some(RefResolution::Null) => return SValue::Null,
                    Some(RefResolution::Loc(l)) => v = SValue::SymLoc(l),
                    None => return v,
                },
                SValue::SymLoc(l) => match self.symlocs.get(l as usize).and_then(|i| i.resolved) {
                    Some(o) => return SValue::Obj(o),
                    None => return v,
                },
                other => return other,
            }
        }
    }

    /// A new input variable. An `int` is an i64, so its range joins the path condition (the
    /// solver's integers are unbounded, and a model outside the range could not be replayed).
    pub fn fresh_var(&mut self, sort: Sort, origin: VarOrigin) -> Sym {
        let id = self.vars.len() as u32;
        self.vars.push((sort, origin));
        let v = Sym::var(id, sort);
        if sort == Sort::Int {
            let (lo, hi) = self.int_range;
            self.pc.push(Sym::le(&Sym::int(lo), &v));
            self.pc.push(Sym::le(&v, &Sym::int(hi)));
        }
        v
    }

    /// A fresh symbolic value of a primitive slot type (`None` for references).
    pub fn fresh_primitive(&mut self, ty: &SlotType, origin: VarOrigin) -> Option<SValue> {
        match ty {
            SlotType::Int => Some(SValue::Int(self.fresh_var(Sort::Int, origin))),
            SlotType::Bool => Some(SValue::Bool(self.fresh_var(Sort::Bool, origin))),
            _ => None,
        }
    }

    /// Adds an input object with all fields unmaterialized; for an array class (`T[]`), an
    /// input array with a fresh length `0 <= LEN <= MAX_INPUT_ARRAY_LEN` and no cell accessed.
    pub fn new_input_object(
        &mut self,
        class: &str,
        fields: &[(String, SlotType)],
        budget: i64,
    ) -> ObjIdx {
        let array = match SlotType::array_elem(class) {
            Some(elem) => {
                let obj = self.heap.len();
                let len =
                    self.fresh_var(Sort::Int, VarOrigin::Field { obj, field: "length".into() });
                self.pc.push(Sym::le(&Sym::int(0), &len));
                self.pc.push(Sym::le(&len, &Sym::int(MAX_INPUT_ARRAY_LEN)));
                Some(ArrayData {
                    len,
                    elem,
                    default: None,
                    cells: Vec::new(),
                    input: Vec::new(),
                    remaining: self.array_bound,
                })
            }
            None => None,
        };
        let idx = self.heap.push(Object {
            class: class.to_string(),
            origin: Origin::Input { budget },
            fields: fields.iter().map(|(f, _)| (f.clone(), None)).collect(),
            input: Vec::new(),
            array,
        });
        self.materializations += 1;
        idx
    }

    pub fn new_symloc(&mut self, class: &str, budget: i64) -> SValue {
        self.symlocs.push(SymLocInfo { class: Rc::from(class), budget, resolved: None });
        SValue::SymLoc(self.symlocs.len() as u32 - 1)
    }

    pub fn new_symref(&mut self, class: &str, budget: i64) -> SValue {
        self.symrefs.push(SymRefInfo { class: Rc::from(class), budget, resolved: None });
        SValue::SymRef(self.symrefs.len() as u32 - 1)
    }

    /// The `i`-th input cell the path read from array `o` (index, value when first read), in
    /// the order of its journal.
    pub fn array_input_cell(&self, o: ObjIdx, i: usize) -> Option<&(Sym, SValue)> {
        self.heap.get(o)?.array.as_ref()?.input.get(i)
    }

    /// Input objects of `class` (the alias candidates of lazy initialization).
    pub fn alias_candidates(&self, class: &str) -> Vec<ObjIdx> {
        self.heap
            .iter()
            .enumerate()
            .filter(|(_, o)| o.is_input() && o.class == class)
            .map(|(i, _)| i)
            .collect()
    }

    pub fn frame(&self) -> Option<&Frame> {
        self.frames.last()
    }

    pub fn frame_mut(&mut self) -> Option<&mut Frame> {
        self.frames.last_mut()
    }

    /// A short name for an object: `o1`, `o2`, … in creation order.
    pub fn obj_name(idx: ObjIdx) -> String {
        format!("o{}", idx + 1)
    }

    /// A value as text, after normalization: `null`, `o2`, `δ1`, `δ̂3`, `x0 + 1`.
    pub fn show(&self, v: &SValue) -> String {
        match self.normalize(v) {
            SValue::Int(s) | SValue::Bool(s) => s.to_string(),
            SValue::Null => "null".into(),
            SValue::Obj(o) => PathState::obj_name(o),
            SValue::SymLoc(l) => format!("loc{l}"),
            SValue::SymRef(r) => format!("ref{r}"),
            SValue::Void => "void".into(),
        }
    }
}

/// The call stack, each frame shared between the states forked from one another until one of
/// them writes it (copy-on-write, as [`Objects`]): a fork clones a state, and copying every
/// frame's locals and operand stack at each fork made most of a `lazy` run's allocations,
/// though a step writes the top frame only.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Frames(Vec<Rc<Frame>>);

impl Frames {
    pub fn last(&self) -> Option<&Frame> {
        self.0.last().map(|f| &**f)
    }

    /// The top frame for writing: unshared first if another state holds it too.
    pub fn last_mut(&mut self) -> Option<&mut Frame> {
        self.0.last_mut().map(Rc::make_mut)
    }

    pub fn get(&self, i: usize) -> Option<&Frame> {
        self.0.get(i).map(|f| &**f)
    }

    pub fn push(&mut self, f: Frame) {
        self.0.push(Rc::new(f));
    }

    pub fn pop(&mut self) -> Option<Frame> {
        self.0.pop().map(Rc::unwrap_or_clone)
    }

    pub fn truncate(&mut self, len: usize) {
        self.0.truncate(len);
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// From the bottom (the method under test) to the top.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &Frame> + ExactSizeIterator {
        self.0.iter().map(|f| &**f)
    }
}

/// Elements shared between states: cloning copies one pointer per element, and an element is
/// copied only when a state writes it while another state still shares it (copy-on-write
/// through [`Rc::make_mut`]). So the memory of many states grows with the elements they
/// changed, not with their number times the elements (issue 21), and so does the copy an
/// asynchronous solver's step keeps to undo it. The heap's objects are such elements, and so
/// are symheap's locations and references.
#[derive(Clone, Debug, PartialEq)]
pub struct SharedVec<T>(Vec<Rc<T>>);

/// The objects of a state's heap.
pub type Objects = SharedVec<Object>;

impl<T> Default for SharedVec<T> {
    fn default() -> Self {
        SharedVec(Vec::new())
    }
}

impl<T: Clone> SharedVec<T> {
    pub fn get(&self, idx: usize) -> Option<&T> {
        self.0.get(idx).map(|o| &**o)
    }

    /// The element for writing: unshared first if another state holds it too.
    pub fn get_mut(&mut self, idx: usize) -> Option<&mut T> {
        self.0.get_mut(idx).map(Rc::make_mut)
    }

    /// Adds an element; returns its index.
    pub fn push(&mut self, o: T) -> usize {
        self.0.push(Rc::new(o));
        self.0.len() - 1
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn iter(&self) -> impl Iterator<Item = &T> + '_ {
        self.0.iter().map(|o| &**o)
    }
}

impl<T> Index<usize> for SharedVec<T> {
    type Output = T;
    fn index(&self, idx: usize) -> &T {
        &self.0[idx]
    }
}

impl<T: Clone> IndexMut<usize> for SharedVec<T> {
    fn index_mut(&mut self, idx: usize) -> &mut T {
        Rc::make_mut(&mut self.0[idx])
    }
}

/// Per-path data a strategy keeps in a [`State`] (type-erased, so that the state, the executor
/// and the driver need not know any strategy's types). Shared with the states forked from this
/// one and copied when one of them writes it (copy-on-write, as [`Objects`]): a fork, and the
/// copy an asynchronous solver's step keeps to undo it, copied `sl`'s deferred instances and
/// symheap's locations for every state, written or not.
#[derive(Debug, Default, Clone)]
pub struct StrategyData(Option<Rc<dyn StrategyPart>>);

/// What a strategy's per-path data must be: plain data that clones with the state.
pub trait StrategyPart: Debug {
    fn clone_part(&self) -> Rc<dyn StrategyPart>;
    fn as_any(&self) -> &dyn Any;
    fn as_any_mut(&mut self) -> &mut dyn Any;
}

impl<T: Any + Debug + Clone> StrategyPart for T {
    fn clone_part(&self) -> Rc<dyn StrategyPart> {
        Rc::new(self.clone())
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}

impl StrategyData {
    /// The data, if the strategy stored a `T`.
    pub fn get<T: Any>(&self) -> Option<&T> {
        self.0.as_ref().and_then(|p| (**p).as_any().downcast_ref())
    }

    /// The data as a `T` for writing, created empty on first use (replacing data of another
    /// type), unshared first if another state holds it too.
    pub fn get_mut<T: Any + Debug + Clone + Default>(&mut self) -> &mut T {
        if self.get::<T>().is_none() {
            self.0 = Some(Rc::new(T::default()));
        }
        let Some(part) = self.0.as_mut() else { unreachable!("just stored a `T`") };
        if Rc::get_mut(part).is_none() {
            *part = (**part).clone_part();
        }
        match Rc::get_mut(part).and_then(|p| p.as_any_mut().downcast_mut()) {
            Some(t) => t,
            None => unreachable!("an unshared `T`"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::StrategyData;

    #[derive(Clone, Debug, Default, PartialEq)]
    struct Mine(Vec<u32>);

    #[derive(Clone, Debug, Default, PartialEq)]
    struct Other(u8);

    #[test]
    fn strategy_data_is_typed_and_forks_with_the_state() {
        let mut parent = StrategyData::default();
        assert_eq!(parent.get::<Mine>(), None);
        parent.get_mut::<Mine>().0.push(1);
        let mut child = parent.clone();
        let same = |a: &StrategyData, b: &StrategyData| {
            std::ptr::eq(a.get::<Mine>().expect("a Mine"), b.get::<Mine>().expect("a Mine"))
        };
        assert!(same(&parent, &child), "shared until written");
        child.get_mut::<Mine>().0.push(2);
        assert!(!same(&parent, &child), "copied when written");
        assert_eq!(parent.get::<Mine>(), Some(&Mine(vec![1])));
        assert_eq!(child.get::<Mine>(), Some(&Mine(vec![1, 2])));
        assert_eq!(child.get::<Other>(), None);
        child.get_mut::<Other>().0 = 7;
        assert_eq!(child.get::<Mine>(), None, "data of another type replaces it");
        assert_eq!(parent.get::<Mine>(), Some(&Mine(vec![1])));
    }
}
