//! Does a symbolic state describe a concrete input? The state's input heap (roots, then each
//! input object's journal of first-read fields, i.e. every heap access path the run used) must
//! map one-to-one onto the concrete heap, classes and nulls included, and its path condition
//! must evaluate to true once each input variable takes the concrete value of its cell.

use crate::interp::{Heap, ObjId, Value};
use crate::symbolic::state::{ObjIdx, RefResolution, SValue, State};
use crate::symbolic::term::{Node, Sym};
use std::collections::HashMap;

/// A concrete input: the heap and the roots (`this` first for a method, then the parameters).
pub struct ConcreteInput<'a> {
    pub heap: &'a Heap,
    pub roots: &'a [Value],
}

/// `Some(true)`: `st` describes `input`; `Some(false)`: it contradicts it; `None`: its path
/// condition could not be evaluated (a variable without a cell, a division by zero).
pub fn agrees(st: &State, input: &ConcreteInput) -> Option<bool> {
    let mut m = Matching::default();
    for (sv, v) in st.roots.iter().zip(input.roots) {
        if !m.pair(st, input, sv, *v) {
            return Some(false);
        }
    }
    let mut unknown = false;
    match m.cells(st, input) {
        Some(true) => {}
        Some(false) => return Some(false),
        None => unknown = true,
    }
    for c in &st.pc {
        match eval(c, &m.vars) {
            Some(Val::Bool(true)) => {}
            Some(_) => return Some(false),
            None => unknown = true,
        }
    }
    if unknown {
        None
    } else {
        Some(true)
    }
}

/// The concrete values of the state's input variables and objects.
#[derive(Default)]
pub struct Matching {
    pub objects: HashMap<ObjIdx, ObjId>,
    back: HashMap<ObjId, ObjIdx>,
    pub vars: HashMap<u32, Val>,
    /// Input arrays paired so far, with how many of their input cells were checked: a cell's
    /// index is an expression over input values that may be read after the array.
    arrays: Vec<(ObjIdx, ObjId, usize)>,
}

impl Matching {
    fn pair(&mut self, st: &State, input: &ConcreteInput, sv: &SValue, v: Value) -> bool {
        match (sv, v) {
            (SValue::Int(s), Value::Int(n)) => self.bind(s, Val::Int(n)),
            (SValue::Bool(s), Value::Bool(b)) => self.bind(s, Val::Bool(b)),
            (SValue::Null, Value::Ref(r)) => r.is_none(),
            (SValue::Obj(o), Value::Ref(Some(c))) => self.object(st, input, *o, c),
            (SValue::SymLoc(l), Value::Ref(Some(c))) => {
                match st.symlocs.get(*l as usize).and_then(|i| i.resolved) {
                    Some(o) => self.object(st, input, o, c),
                    None => true,
                }
            }
            (SValue::SymRef(r), Value::Ref(c)) => {
                match st.symrefs.get(*r as usize).and_then(|i| i.resolved) {
                    None => true,
                    Some(RefResolution::Null) => c.is_none(),
                    Some(RefResolution::Loc(l)) => {
                        c.is_some() && self.pair(st, input, &SValue::SymLoc(l), Value::Ref(c))
                    }
                }
            }
            (SValue::Void, _) => true,
            _ => false,
        }
    }

    fn bind(&mut self, s: &Sym, v: Val) -> bool {
        if let Node::Var(id, _) = s.node() {
            return match self.vars.get(id) {
                Some(w) => *w == v,
                None => {
                    self.vars.insert(*id, v);
                    true
                }
            };
        }
        eval(s, &self.vars).is_none_or(|w| w == v)
    }

    fn object(&mut self, st: &State, input: &ConcreteInput, o: ObjIdx, c: ObjId) -> bool {
        match (self.objects.get(&o), self.back.get(&c)) {
            (Some(c2), _) => return *c2 == c,
            (None, Some(_)) => return false,
            (None, None) => {}
        }
        let Some(obj) = st.heap.get(o) else { return false };
        if input.heap.class_of(c) != Some(obj.class.as_str()) || !obj.is_input() {
            return false;
        }
        self.objects.insert(o, c);
        self.back.insert(c, o);
        if let Some(a) = &obj.array {
            // LEN is the concrete length; the cells are checked by [`Matching::cells`].
            let Some(len) = input.heap.array_len(c) else { return false };
            self.arrays.push((o, c, 0));
            return self.bind(&a.len, Val::Int(len as i64));
        }
        for (f, fsv) in &obj.input {
            let Some(fv) = input.heap.field(c, f) else { return false };
            if !self.pair(st, input, fsv, fv) {
                return false;
            }
        }
        true
    }

    /// Pairs the input cells of the paired arrays with the concrete cells, in journal order,
    /// each once its index can be evaluated: `Some(false)` when an index is out of the concrete
    /// array or a cell disagrees, `None` when some index never can be evaluated.
    fn cells(&mut self, st: &State, input: &ConcreteInput) -> Option<bool> {
        loop {
            let mut progress = false;
            let mut waiting = false;
            let mut i = 0;
            while i < self.arrays.len() {
                let (o, c, done) = self.arrays[i];
                let Some((t, iv)) = st.array_input_cell(o, done) else {
                    i += 1;
                    continue;
                };
                let Some(Val::Int(at)) = eval(t, &self.vars) else {
                    waiting = true;
                    i += 1;
                    continue;
                };
                let Some(cell) = usize::try_from(at).ok().and_then(|at| input.heap.cell(c, at))
                else {
                    return Some(false);
                };
                if !self.pair(st, input, iv, cell) {
                    return Some(false);
                }
                self.arrays[i].2 += 1;
                progress = true;
            }
            if !progress {
                return if waiting { None } else { Some(true) };
            }
        }
    }
}

/// A concrete value of a symbolic expression.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Val {
    Int(i64),
    Bool(bool),
}

/// Evaluates `s` with the variables `vars`; `None` for a missing variable, a division by zero
/// or a value beyond 64 bits. Inside, integers have 128 bits, so a path condition that says an
/// operation overflows (`!(MIN <= x * y <= MAX)`, the failing side of the check) is decided on
/// an input that makes it overflow, rather than left unknown.
pub fn eval(s: &Sym, vars: &HashMap<u32, Val>) -> Option<Val> {
    match wide(s, vars)? {
        Wide::Int(n) => i64::try_from(n).ok().map(Val::Int),
        Wide::Bool(b) => Some(Val::Bool(b)),
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Wide {
    Int(i128),
    Bool(bool),
}

fn wide(s: &Sym, vars: &HashMap<u32, Val>) -> Option<Wide> {
    let int = |x: &Sym| match wide(x, vars)? {
        Wide::Int(n) => Some(n),
        Wide::Bool(_) => None,
    };
    let boolean = |x: &Sym| match wide(x, vars)? {
        Wide::Bool(b) => Some(b),
        Wide::Int(_) => None,
    };
    Some(match s.node() {
        Node::Int(n) => Wide::Int(i128::from(*n)),
        Node::Bool(b) => Wide::Bool(*b),
        Node::Var(id, _) => match *vars.get(id)? {
            Val::Int(n) => Wide::Int(i128::from(n)),
            Val::Bool(b) => Wide::Bool(b),
        },
        Node::Add(a, b) => Wide::Int(int(a)?.checked_add(int(b)?)?),
        Node::Sub(a, b) => Wide::Int(int(a)?.checked_sub(int(b)?)?),
        Node::Mul(a, b) => Wide::Int(int(a)?.checked_mul(int(b)?)?),
        Node::Div(a, b) => Wide::Int(int(a)?.checked_div(int(b)?)?),
        Node::Rem(a, b) => Wide::Int(int(a)?.checked_rem(int(b)?)?),
        Node::Neg(a) => Wide::Int(int(a)?.checked_neg()?),
        Node::Lt(a, b) => Wide::Bool(int(a)? < int(b)?),
        Node::Le(a, b) => Wide::Bool(int(a)? <= int(b)?),
        Node::Eq(a, b) => Wide::Bool(wide(a, vars)? == wide(b, vars)?),
        Node::Not(a) => Wide::Bool(!boolean(a)?),
        Node::And(a, b) => Wide::Bool(boolean(a)? && boolean(b)?),
        Node::Or(a, b) => Wide::Bool(boolean(a)? || boolean(b)?),
    })
}
