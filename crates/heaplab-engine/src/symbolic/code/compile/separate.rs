//! Which existentials of a disjunct the separating conjunction is bound to claim, so that lazy
//! initialization's aliasing choices that could never be claimed end where they are made.
//!
//! Materializing `t -> Entry { left: l, right: r } * tree(l) * tree(r)` under `lazy` forks the
//! read of `t.left` on null, a fresh object and every object already in the heap. An alias to
//! an object that a points-to has claimed, or that another existential of the formula will
//! claim, is refuted only when `tree(l)` claims `l` again, and for `r` that is after the whole
//! of `l`'s subtree has been materialized once more under that alias. On TreeMap `put` at
//! k = 3 such paths were 35 M of the 44 M states. Here the compiler finds the existentials
//! every continuation claims when they are not null ("owned"), and the code checks such an
//! existential as it is bound ([`Instr::Separate`]): an object already claimed, or reserved by
//! another owned existential, ends the path on the precondition at once. The paths that
//! remain, and their tests, are the same.
//!
//! Soundness, informally: an owned existential `v` is claimed by one of its owning atoms (or is
//! null); two owned existentials with owning atoms that can be told apart lie in disjoint
//! footprints; a reservation is released before the only atom that owns it runs (inside it,
//! another existential may legitimately be the same object); and an existential owned by more
//! than one atom must be null, so keeping its reservation refutes nothing a path could satisfy.

use heaplab_syntax::ast::{Atom, BinOp, Expr, ExprKind, Item, Program, SymbolicHeap};
use heaplab_syntax::types::{CallTarget, ProgramInfo};
use std::collections::{BTreeSet, HashMap};

/// For each predicate, which of its parameters every disjunct claims (or states to be null):
/// a non-null argument there is claimed by the predicate's footprint. The least fixed point,
/// so a predicate whose ownership rests only on itself owns nothing.
pub fn owned_params(program: &Program, info: &ProgramInfo) -> HashMap<String, Vec<bool>> {
    let preds: Vec<_> = program
        .items
        .iter()
        .filter_map(|i| match i {
            Item::Predicate(p) => Some(p),
            _ => None,
        })
        .collect();
    let mut owned: HashMap<String, Vec<bool>> =
        preds.iter().map(|p| (p.name.name.clone(), vec![false; p.params.len()])).collect();
    loop {
        let mut changed = false;
        for p in &preds {
            for (i, param) in p.params.iter().enumerate() {
                let name = &param.name.name;
                let known = owned.get(&p.name.name).and_then(|v| v.get(i).copied());
                if known != Some(false) {
                    continue;
                }
                let forced = p.body.disjuncts.iter().all(|d| {
                    !d.exists.iter().any(|e| &e.name.name == name)
                        && d.atoms
                            .iter()
                            .any(|a| claims(a, name, &owned, info) || is_null_fact(a, name))
                });
                if forced {
                    if let Some(slot) = owned.get_mut(&p.name.name).and_then(|v| v.get_mut(i)) {
                        *slot = true;
                        changed = true;
                    }
                }
            }
        }
        if !changed {
            return owned;
        }
    }
}

/// What a disjunct's code does for separation: checks after the first binding of each owned
/// existential, and reservations released before the atom that owns them.
#[derive(Debug, Default)]
pub struct Plan {
    /// (atom index, field index within its points-to, existential, reserve it)
    pub binds: Vec<(usize, usize, String, bool)>,
    /// (atom index, existential): release its reservation before that atom.
    pub releases: Vec<(usize, String)>,
}

impl Plan {
    /// The plan for disjunct `d`, its atoms compiled in their written order.
    pub fn for_disjunct(
        d: &SymbolicHeap,
        owned: &HashMap<String, Vec<bool>>,
        info: &ProgramInfo,
    ) -> Plan {
        let owners: Vec<(String, BTreeSet<usize>)> = d
            .exists
            .iter()
            .map(|e| {
                let name = &e.name.name;
                let atoms = d
                    .atoms
                    .iter()
                    .enumerate()
                    .filter(|(_, a)| claims(a, name, owned, info))
                    .map(|(i, _)| i)
                    .collect();
                (name.clone(), atoms)
            })
            .filter(|(_, atoms): &(String, BTreeSet<usize>)| !atoms.is_empty())
            .collect();
        let mut plan = Plan::default();
        for (name, atoms) in &owners {
            let Some((at, field)) = first_binding(d, name) else { continue };
            // Two existentials that only the same atom claims may be one object inside it.
            let shares_its_atom =
                atoms.len() == 1 && owners.iter().any(|(other, o)| other != name && o == atoms);
            let reserve = !shares_its_atom;
            plan.binds.push((at, field, name.clone(), reserve));
            if reserve && atoms.len() == 1 {
                if let Some(&owner) = atoms.first() {
                    plan.releases.push((owner, name.clone()));
                }
            }
        }
        plan
    }
}

/// Whether atom `a` claims `name` whenever it is not null: `name -> C {..}`, or `name` passed
/// where a predicate owns its parameter.
fn claims(a: &Atom, name: &str, owned: &HashMap<String, Vec<bool>>, info: &ProgramInfo) -> bool {
    let (pred, args) = match a {
        Atom::PointsTo { pointer, .. } => return is_var(pointer, name),
        Atom::Pred { name: p, args, span } => match info.atom_targets.get(span) {
            Some(CallTarget::Predicate(q)) => (q.as_str(), args),
            Some(_) => return false,
            None => (p.name.as_str(), args),
        },
        Atom::Pure(e) => match (&e.kind, info.calls.get(&e.id)) {
            (ExprKind::Call { args, .. }, Some(CallTarget::Predicate(q))) => (q.as_str(), args),
            _ => return false,
        },
        Atom::Emp(_) => return false,
    };
    let Some(params) = owned.get(pred) else { return false };
    args.iter().zip(params).any(|(arg, own)| *own && is_var(arg, name))
}

/// `name == null` or `null == name`.
fn is_null_fact(a: &Atom, name: &str) -> bool {
    let Atom::Pure(e) = a else { return false };
    let ExprKind::Binary { op: BinOp::Eq, lhs, rhs } = &e.kind else { return false };
    let null = |x: &Expr| matches!(x.kind, ExprKind::Null);
    (is_var(lhs, name) && null(rhs)) || (null(lhs) && is_var(rhs, name))
}

fn is_var(e: &Expr, name: &str) -> bool {
    matches!(&e.kind, ExprKind::Var(id) if id.name == name)
}

fn mentions(e: &Expr, name: &str) -> bool {
    is_var(e, name) || e.kind.children().into_iter().any(|c| mentions(c, name))
}

fn atom_mentions(a: &Atom, name: &str) -> bool {
    match a {
        Atom::Emp(_) => false,
        Atom::PointsTo { pointer, fields, .. } => {
            mentions(pointer, name) || fields.iter().any(|f| mentions(&f.value, name))
        }
        Atom::Pred { args, .. } => args.iter().any(|e| mentions(e, name)),
        Atom::Pure(e) => mentions(e, name),
    }
}

/// Where `name` is first bound: the first atom that mentions it must be a points-to whose
/// pointer does not, and the first of its fields to mention it must be `name` itself (the
/// field's value binds it; any earlier use would have bound it to a fresh value).
fn first_binding(d: &SymbolicHeap, name: &str) -> Option<(usize, usize)> {
    let (at, atom) = d.atoms.iter().enumerate().find(|(_, a)| atom_mentions(a, name))?;
    let Atom::PointsTo { pointer, fields, .. } = atom else { return None };
    if mentions(pointer, name) {
        return None;
    }
    let (field, init) = fields.iter().enumerate().find(|(_, f)| mentions(&f.value, name))?;
    is_var(&init.value, name).then_some((at, field))
}

#[cfg(test)]
mod tests {
    use super::*;
    use heaplab_syntax::{analyze, Analysis, SourceFile};

    const SHAPES: &str = "class N { N left; N right; N next; }\n\
        pred tree(N t) := t == null\n\
          | exists N l, N r. t -> N { left: l, right: r } * tree(l) * tree(r);\n\
        pred lseg(N x, N y) := x == y | exists N n. x -> N { next: n } * lseg(n, y);\n\
        pred spin(N x) := spin(x);\n\
        pred pair(N a, N b) := a == null & b == null | a -> N { } * b -> N { };\n\
        pred two(N t) := exists N x, N y. t -> N { left: x, right: y } * pair(x, y);\n";

    fn analysis() -> Analysis {
        let a = analyze(&SourceFile::new("shapes.hl".to_string(), SHAPES.to_string()));
        assert!(!a.has_errors(), "{:?}", a.diagnostics);
        a
    }

    /// The plan of the last (recursive) disjunct of predicate `name` of [`SHAPES`].
    fn plan_of(name: &str) -> Plan {
        let a = analysis();
        let owned = owned_params(&a.program, &a.info);
        let body = a.program.items.iter().find_map(|i| match i {
            Item::Predicate(p) if p.name.name == name => Some(&p.body),
            _ => None,
        });
        let last = body.and_then(|b| b.disjuncts.last()).expect("the predicate has disjuncts");
        Plan::for_disjunct(last, &owned, &a.info)
    }

    #[test]
    fn a_predicate_owns_the_parameters_each_disjunct_claims_or_makes_null() {
        let a = analysis();
        let owned = owned_params(&a.program, &a.info);
        assert_eq!(owned.get("tree"), Some(&vec![true]));
        // `x == y` leaves a non-null x unclaimed: a list segment may be empty.
        assert_eq!(owned.get("lseg"), Some(&vec![false, false]));
        // The least fixed point: ownership resting only on itself is none.
        assert_eq!(owned.get("spin"), Some(&vec![false]));
        assert_eq!(owned.get("pair"), Some(&vec![true, true]));
    }

    #[test]
    fn subtrees_are_checked_where_bound_and_released_before_their_own_atom() {
        let plan = plan_of("tree");
        assert_eq!(plan.binds, vec![(0, 0, "l".into(), true), (0, 1, "r".into(), true)]);
        assert_eq!(plan.releases, vec![(1, "l".into()), (2, "r".into())]);
        // A list segment's next node is not owned: it may be the segment's end, any object.
        let plan = plan_of("lseg");
        assert!(plan.binds.is_empty() && plan.releases.is_empty(), "{plan:?}");
    }

    #[test]
    fn existentials_that_only_one_atom_claims_reserve_nothing() {
        let plan = plan_of("two");
        assert_eq!(plan.binds, vec![(0, 0, "x".into(), false), (0, 1, "y".into(), false)]);
        assert!(plan.releases.is_empty(), "{plan:?}");
    }
}
