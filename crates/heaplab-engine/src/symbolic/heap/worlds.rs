//! The all-heaps mode (issue 15 item 4, digest seed-003 §5 item 6): every distinct input heap
//! of one path, not only one model of it. Solve the path condition, extract the world's heap
//! ([`HeapModel::concretize`]), block its shape ([`HeapModel::shape_condition`]: the reference
//! entries and observed slots that fixed it), and solve again, until the solver says unsat or a
//! bound stops the loop. Integer values never make heaps distinct: one model per shape.
//!
//! Different shape conditions can still give isomorphic heaps (a location reached through an
//! alias of an input reference the world never observed is the same fresh object as that
//! reference's own new location), so the heaps are deduplicated by their canonical form
//! ([`canonical_shape`]).
//!
//! Owns: the solve → extract → block loop and the canonical form. Never touches: exploration,
//! or how a heap model represents references (it asks the model).

use super::{ConcreteInput, HeapModel};
use crate::interp::{Heap, ObjId, Value};
use crate::symbolic::code::Compiled;
use crate::symbolic::solve::{PathSolver, SatAnswer};
use crate::symbolic::state::{SValue, State};
use crate::symbolic::term::{Sort, Sym};
use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// Why the enumeration of a path's heaps stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WorldsEnd {
    /// The solver said unsat: every input heap of the path was found.
    Exhausted,
    /// The heap model gives one input heap per path (no shape condition).
    OnePerPath,
    /// The bound on models per path (`Bounds::heaps_per_path`) was reached.
    Limit,
    /// The run's time bound passed.
    Timeout,
    /// The solver answered unknown or failed.
    Unknown,
}

impl WorldsEnd {
    /// The words the CLI prints (`None`: the enumeration was complete).
    pub fn bound_name(self) -> Option<&'static str> {
        match self {
            WorldsEnd::Exhausted | WorldsEnd::OnePerPath => None,
            WorldsEnd::Limit => Some("heaps_per_path"),
            WorldsEnd::Timeout => Some("timeout"),
            WorldsEnd::Unknown => Some("solver unknown"),
        }
    }
}

/// The input heaps of one path.
#[derive(Clone, Debug)]
pub struct Worlds {
    /// One concrete input per distinct heap (up to isomorphism), in the order found.
    pub inputs: Vec<ConcreteInput>,
    /// Models whose heap was isomorphic to one found before.
    pub duplicates: usize,
    /// Model queries asked (each one solver call unless answered from the cache).
    pub queries: u64,
    pub end: WorldsEnd,
}

/// Enumerates the distinct input heaps of the path ending in `st` (see the module docs):
/// at most `limit` models, stopping when `out_of_time` says so. `returned` is the value the
/// path returned, if it did (for the predicted result).
pub fn enumerate(
    solver: &mut dyn PathSolver,
    heap: &dyn HeapModel,
    code: &Compiled,
    st: &State,
    returned: Option<&SValue>,
    limit: u32,
    out_of_time: &mut dyn FnMut() -> bool,
) -> Worlds {
    let vars: Vec<(u32, Sort)> =
        st.vars.iter().enumerate().map(|(i, (sort, _))| (i as u32, *sort)).collect();
    let mut conjuncts: Vec<Sym> = st.pc.to_vec();
    let mut out = Worlds { inputs: Vec::new(), duplicates: 0, queries: 0, end: WorldsEnd::Limit };
    let mut shapes = BTreeSet::new();
    for _ in 0..limit.max(1) {
        if out_of_time() {
            out.end = WorldsEnd::Timeout;
            return out;
        }
        out.queries += 1;
        let model = match solver.check_with_model(&conjuncts, &vars) {
            (SatAnswer::Sat, Some(m)) => m,
            (SatAnswer::Unsat, _) => {
                out.end = WorldsEnd::Exhausted;
                return out;
            }
            _ => {
                out.end = WorldsEnd::Unknown;
                return out;
            }
        };
        let input = heap.concretize(code, st, &model, returned);
        if shapes.insert(canonical_shape(&input.heap, &input.roots)) {
            out.inputs.push(input);
        } else {
            out.duplicates += 1;
        }
        let Some(shape) = heap.shape_condition(code, st, &model) else {
            out.end = WorldsEnd::OnePerPath;
            return out;
        };
        let block = Sym::not(&shape);
        if block.as_bool() == Some(false) {
            // The shape holds in every world of the path: it is the only one.
            out.end = WorldsEnd::Exhausted;
            return out;
        }
        conjuncts.push(block);
    }
    out
}

/// The canonical form of an input heap seen from its roots: objects numbered in BFS order of
/// field traversal (roots first, fields in declaration order), each written as its class and
/// its reference fields; integers and booleans are abstracted away, objects not reachable
/// from a root are left out. Two heaps have the same form iff they are isomorphic.
pub fn canonical_shape(heap: &Heap, roots: &[Value]) -> String {
    let mut number: BTreeMap<ObjId, usize> = BTreeMap::new();
    let mut queue = VecDeque::new();
    let mut name = |v: &Value, queue: &mut VecDeque<ObjId>| -> String {
        match v {
            Value::Ref(None) => "null".to_string(),
            Value::Ref(Some(id)) => {
                let n = number.len();
                let n = *number.entry(*id).or_insert_with(|| {
                    queue.push_back(*id);
                    n
                });
                format!("o{n}")
            }
            _ => "_".to_string(),
        }
    };
    let mut out = String::new();
    let roots: Vec<String> = roots.iter().map(|v| name(v, &mut queue)).collect();
    out.push_str(&format!("({})", roots.join(",")));
    let mut i = 0;
    while let Some(id) = queue.pop_front() {
        let Some(o) = heap.get(id) else { continue };
        let fields: Vec<String> = o
            .fields
            .iter()
            .filter(|(_, v)| matches!(v, Value::Ref(_)))
            .map(|(f, v)| format!("{f}:{}", name(v, &mut queue)))
            .collect();
        out.push_str(&format!(" o{i}:{}{{{}}}", o.class, fields.join(",")));
        i += 1;
    }
    out
}
