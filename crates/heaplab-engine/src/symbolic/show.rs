//! Symbolic values and conditions as a person reads them: every variable named by where it
//! came from ([`Names`]: `x`, `o1.key`, `lo`), values as [`ValView`]s, conditions in source
//! names ([`show_sym`]). A leaf next to the state it prints: the executor's tree labels and
//! events, the heap models' and strategies' event texts, and the views all print through it.

use super::state::{ObjIdx, PathState, SValue, State, VarOrigin};
use super::term::{Node, Sort, Sym};
use super::term_text::push_unsigned;
use std::collections::HashMap;

/// A value as a person reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ValView {
    Null,
    Void,
    /// A materialized object: `o1`.
    Obj(String),
    /// An open symbolic reference δ̂ (lazier#: null or some object): `ref0`.
    SymRef(String),
    /// An open symbolic location δ (lazier: some object): `loc1`.
    SymLoc(String),
    /// An input field the program has not read yet.
    Unread,
    /// An integer expression over named inputs: `x + 1`, `o1.key`.
    Int(String),
    Bool(String),
}

impl ValView {
    /// One word or expression: `null`, `o1`, `ref0`, `x + 1`, `?` for an unread field.
    pub fn text(&self) -> &str {
        match self {
            ValView::Null => "null",
            ValView::Void => "void",
            ValView::Unread => "?",
            ValView::Obj(s)
            | ValView::SymRef(s)
            | ValView::SymLoc(s)
            | ValView::Int(s)
            | ValView::Bool(s) => s,
        }
    }
}

/// A person's name for every symbolic variable of a state, by where it came from: the
/// parameter `x`, the field `o1.key`, the existential `lo`. An existential made again (a
/// predicate unfolded twice) gets primes: `k`, `k'`.
pub struct Names(pub(crate) Vec<String>);

/// The name of a variable made at `origin`, before primes.
fn base_name(origin: &VarOrigin) -> String {
    let mut name = String::new();
    push_base_name(&mut name, origin);
    name
}

/// Appends [`base_name`] (`o3.key`); an array cell's origin is named `[i]`: `o1[i]`, not
/// `o1.[i]`.
fn push_base_name(out: &mut String, origin: &VarOrigin) {
    match origin {
        VarOrigin::Param(n) | VarOrigin::Existential(n) => out.push_str(n),
        VarOrigin::Field { obj, field } => {
            push_obj_name(out, *obj);
            if !field.starts_with('[') {
                out.push('.');
            }
            out.push_str(field);
        }
    }
}

/// Appends object `obj`'s name as [`PathState::obj_name`] writes it (`o3`), at every fork of a
/// large run, where a `String` of its own and `core::fmt` were most of a label's cost in wasm.
pub(crate) fn push_obj_name(out: &mut String, obj: ObjIdx) {
    out.push('o');
    push_unsigned(out, obj as u64 + 1);
}

/// Whether two origins have the same [`base_name`], building neither where it can tell
/// without: each object and field has one name (`o3.key`, `o3[i]`), and a parameter or
/// existential shares it only when spelled with its `.` or `[` (a generated name may be).
fn same_base_name(a: &VarOrigin, b: &VarOrigin) -> bool {
    match (a, b) {
        (
            VarOrigin::Param(n) | VarOrigin::Existential(n),
            VarOrigin::Param(m) | VarOrigin::Existential(m),
        ) => n == m,
        (VarOrigin::Field { obj, field }, VarOrigin::Field { obj: o, field: f }) => {
            obj == o && field == f
        }
        (field, VarOrigin::Param(n) | VarOrigin::Existential(n))
        | (VarOrigin::Param(n) | VarOrigin::Existential(n), field) => {
            n.contains(['.', '[']) && *n == base_name(field)
        }
    }
}

impl Names {
    pub fn of(st: &State) -> Names {
        let mut seen: HashMap<String, usize> = HashMap::new();
        let names = st
            .vars
            .iter()
            .map(|(_, origin)| {
                let base = base_name(origin);
                let n = seen.entry(base.clone()).or_insert(0);
                *n += 1;
                format!("{base}{}", "'".repeat(*n - 1))
            })
            .collect();
        Names(names)
    }

    /// Appends the name [`Names::of`] gives variable `id`, computed for it alone (the executor
    /// names the variables of every condition it forks on, and a state can hold hundreds).
    fn push_one(out: &mut String, st: &State, id: u32, sort: Sort) {
        let Some((_, origin)) = st.vars.get(id as usize) else {
            return out.push_str(&Names(Vec::new()).var(id, sort));
        };
        let earlier = st.vars.iter().take(id as usize);
        let primes = earlier.filter(|(_, o)| same_base_name(o, origin)).count();
        push_base_name(out, origin);
        out.extend(std::iter::repeat_n('\'', primes));
    }

    pub fn var(&self, id: u32, sort: Sort) -> String {
        match self.0.get(id as usize) {
            Some(n) => n.clone(),
            None if sort == Sort::Int => format!("x{id}"),
            None => format!("b{id}"),
        }
    }

    pub fn show(&self, s: &Sym) -> String {
        s.show_with(&|id, sort| self.var(id, sort))
    }
}

/// A condition as a person reads it, inputs by their source names (`x < o1.key`); tree labels
/// and branch events use it so that they agree with the path condition of the views.
pub fn show_sym(st: &State, s: &Sym) -> String {
    s.show_writing(&|out, id, sort| Names::push_one(out, st, id, sort))
}

/// The label of a condition's false side: `!(x < o1.key)` for `shown` `x < o1.key`.
pub fn negated(shown: &str) -> String {
    let mut text = String::with_capacity(shown.len() + 3);
    text.push_str("!(");
    text.push_str(shown);
    text.push(')');
    text
}

/// A value as a person reads it: `null`, `o2`, `ref0`, `o1.key + 1`; only the variables it
/// holds are named, as [`show_sym`] names them.
pub fn show_value(st: &State, v: &SValue) -> String {
    match st.normalize(v) {
        SValue::Int(s) | SValue::Bool(s) => show_sym(st, &s),
        v => value(st, &Names(Vec::new()), &v).text().to_string(),
    }
}

pub fn value(st: &State, names: &Names, v: &SValue) -> ValView {
    match st.normalize(v) {
        SValue::Int(s) => ValView::Int(names.show(&s)),
        SValue::Bool(s) => ValView::Bool(names.show(&s)),
        SValue::Null => ValView::Null,
        SValue::Void => ValView::Void,
        SValue::Obj(o) => ValView::Obj(PathState::obj_name(o)),
        SValue::SymRef(r) => ValView::SymRef(format!("ref{r}")),
        SValue::SymLoc(l) => ValView::SymLoc(format!("loc{l}")),
    }
}

/// `MIN <= e`, `e <= MAX`, or a conjunction of those.
pub fn is_range_fact(c: &Sym) -> bool {
    match c.node() {
        Node::Le(a, _) if a.as_int() == Some(i64::MIN) => true,
        Node::Le(_, b) if b.as_int() == Some(i64::MAX) => true,
        Node::And(a, b) => is_range_fact(a) && is_range_fact(b),
        _ => false,
    }
}
