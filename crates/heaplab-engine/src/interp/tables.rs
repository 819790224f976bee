//! Name tables built once per program: classes, top-level functions, methods, tests, and for
//! each function the `old(...)` subexpressions of its `ensures` (evaluated at entry).

use heaplab_syntax::ast::{
    ClassDecl, Expr, ExprKind, FunctionDecl, Ints, Item, NodeId, Program, TestDecl,
};
use heaplab_syntax::types::ProgramInfo;
use std::collections::HashMap;

/// The node a failed `ensures` formula reports (a formula has no node id of its own); test
/// generation reads it to tell such a failure, which the symbolic executor does not predict,
/// from a failed `ensures` expression.
pub const ENSURES_FORMULA_NODE: NodeId = NodeId(u32::MAX - 1);

/// A function or method with what the interpreter needs at each call.
pub(crate) struct FnEntry<'p> {
    pub decl: &'p FunctionDecl,
    /// The class of a method; `None` for a top-level function.
    pub class: Option<&'p str>,
    /// Every `old(e)` node in the `ensures` clauses, outer before inner.
    pub olds: Vec<&'p Expr>,
    /// Its `ensures` formulas, ready for the model checker.
    pub post: Vec<Post>,
}

/// An `ensures` that is a separation-logic formula, checked on return by the logic's model
/// checker: the formula over `this`, the parameters and `result` (the part the logic reads),
/// and the pure facts it does not read (a call of a `pure` method, an array cell), evaluated
/// as expressions.
pub(crate) struct Post {
    /// `None` when the formula cannot be converted (then it is not checked: `problem` says why).
    pub logic: Option<heaplab_logic::Formula>,
    pub code: Vec<Expr>,
    /// The roots of the formula's store: `this` (a method), the parameters, `result`.
    pub roots: Vec<String>,
    pub text: String,
    pub span: heaplab_syntax::Span,
}

pub(crate) struct Tables<'p> {
    pub fns: Vec<FnEntry<'p>>,
    pub functions: HashMap<&'p str, usize>,
    pub methods: HashMap<(&'p str, &'p str), usize>,
    pub classes: HashMap<&'p str, &'p ClassDecl>,
    pub tests: Vec<&'p TestDecl>,
    /// The program's integer semantics.
    pub ints: Ints,
    /// The predicates, when some function has an `ensures` formula.
    pub defs: Option<heaplab_logic::Defs>,
}

impl<'p> Tables<'p> {
    /// Duplicate names are the checker's business; here the first declaration wins.
    pub fn build(program: &'p Program, info: &ProgramInfo) -> Tables<'p> {
        let with_post = program.items.iter().any(|i| match i {
            Item::Class(c) => c.methods.iter().any(|m| !m.ensures_formulas.is_empty()),
            Item::Function(f) => !f.ensures_formulas.is_empty(),
            _ => false,
        });
        let mut tables = Tables {
            fns: Vec::new(),
            functions: HashMap::new(),
            methods: HashMap::new(),
            classes: HashMap::new(),
            tests: Vec::new(),
            ints: program.ints,
            defs: with_post.then(|| heaplab_logic::Defs::from_program(program).0),
        };
        for item in &program.items {
            match item {
                Item::Class(class) => {
                    tables.classes.entry(class.name.name.as_str()).or_insert(class);
                    for method in &class.methods {
                        let idx = tables.push_fn(method, Some(class.name.name.as_str()), info);
                        tables
                            .methods
                            .entry((class.name.name.as_str(), method.name.name.as_str()))
                            .or_insert(idx);
                    }
                }
                Item::Function(f) => {
                    let idx = tables.push_fn(f, None, info);
                    tables.functions.entry(f.name.name.as_str()).or_insert(idx);
                }
                Item::Test(t) => tables.tests.push(t),
                Item::Predicate(_) => {}
            }
        }
        tables
    }

    fn push_fn(
        &mut self,
        decl: &'p FunctionDecl,
        class: Option<&'p str>,
        info: &ProgramInfo,
    ) -> usize {
        let mut olds = Vec::new();
        for e in &decl.ensures {
            collect_olds(e, &mut olds);
        }
        let post = match &self.defs {
            Some(defs) => {
                decl.ensures_formulas.iter().map(|f| post(defs, info, decl, class, f)).collect()
            }
            None => Vec::new(),
        };
        self.fns.push(FnEntry { decl, class, olds, post });
        self.fns.len() - 1
    }
}

/// An `ensures` formula converted for the model checker.
fn post(
    defs: &heaplab_logic::Defs,
    info: &ProgramInfo,
    decl: &FunctionDecl,
    class: Option<&str>,
    f: &heaplab_syntax::ast::Formula,
) -> Post {
    use heaplab_logic::{convert, Sort};
    let mut free = Vec::new();
    if let Some(c) = class {
        free.push(("this".to_string(), Sort::Ref(c.to_string())));
    }
    for p in &decl.params {
        if let Ok(s) = convert::sort_of_type(&p.ty) {
            free.push((p.name.name.clone(), s));
        }
    }
    if let Ok(s) = convert::sort_of_type(&decl.return_type) {
        free.push(("result".to_string(), s));
    }
    let is_pred = |n: &str| defs.preds.contains_key(n);
    let split = heaplab_logic::code_facts::split_code_facts(f, info, &is_pred);
    let (logic_part, code) = match split {
        Some((rest, facts)) => (rest, facts),
        None => (f.clone(), Vec::new()),
    };
    let mut fresh = heaplab_logic::Fresh::new();
    Post {
        logic: convert::convert_formula(defs, &logic_part, &free, &mut fresh).ok(),
        code,
        roots: free.into_iter().map(|(v, _)| v).collect(),
        text: heaplab_syntax::pretty::formula(f),
        span: f.span,
    }
}

/// Pre-order walk with an explicit stack (no recursion, whatever the nesting).
fn collect_olds<'p>(root: &'p Expr, out: &mut Vec<&'p Expr>) {
    let mut stack = vec![root];
    while let Some(e) = stack.pop() {
        if matches!(e.kind, ExprKind::Old(_)) {
            out.push(e);
        }
        // Children pushed right to left, so the leftmost is visited first.
        stack.extend(e.kind.children().into_iter().rev());
    }
}
