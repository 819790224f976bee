//! Pure facts of a `requires` that the logic does not read but the program can evaluate: a
//! call of a `pure` function or method (a class's own `isBST()`), an array's cell or length.
//! Kiasan checks such a precondition by running it (repOK); HeapLab's strategies run the
//! whole `requires` at entry anyway, and what needs the logic (the model checker's verdict on
//! an input, `concolic`'s inputs from the formula) takes the formula without these facts and
//! evaluates them on the concrete input.

use heaplab_syntax::ast::{Atom, Expr, ExprKind, Formula};
use heaplab_syntax::types::{ProgramInfo, Type};

/// The formula without its code facts, and the code facts, when it has any. Only a formula of
/// one disjunct splits (a fact under `|` stays, and the logic reports it).
pub fn split_code_facts(
    formula: &Formula,
    info: &ProgramInfo,
    is_predicate: &dyn Fn(&str) -> bool,
) -> Option<(Formula, Vec<Expr>)> {
    let [d] = formula.disjuncts.as_slice() else { return None };
    let mut kept = d.clone();
    kept.atoms.clear();
    let mut facts = Vec::new();
    for atom in &d.atoms {
        match atom {
            Atom::Pure(e) if is_code(e, info, is_predicate) && !uses_existential(e, d) => {
                facts.push(e.clone())
            }
            a => kept.atoms.push(a.clone()),
        }
    }
    if facts.is_empty() {
        return None;
    }
    Some((Formula { disjuncts: vec![kept], span: formula.span }, facts))
}

/// `e` calls a function or method that is not a predicate, or reads an array.
pub fn is_code(e: &Expr, info: &ProgramInfo, is_predicate: &dyn Fn(&str) -> bool) -> bool {
    let here = match &e.kind {
        ExprKind::MethodCall { .. } | ExprKind::Index { .. } => true,
        ExprKind::Call { callee, .. } => !is_predicate(&callee.name),
        ExprKind::Field { object, field } => {
            field.name == "length" && matches!(info.type_of(object.id), Some(Type::Array(_)))
        }
        _ => false,
    };
    here || e.kind.children().into_iter().any(|c| is_code(c, info, is_predicate))
}

fn uses_existential(e: &Expr, d: &heaplab_syntax::ast::SymbolicHeap) -> bool {
    if let ExprKind::Var(v) = &e.kind {
        if d.exists.iter().any(|p| p.name.name == v.name) {
            return true;
        }
    }
    e.kind.children().into_iter().any(|c| uses_existential(c, d))
}
