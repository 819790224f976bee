//! Name tables built once per program: classes, top-level functions, methods, tests, and for
//! each function the `old(...)` subexpressions of its `ensures` (evaluated at entry).

use heaplab_syntax::ast::{ClassDecl, Expr, ExprKind, FunctionDecl, Ints, Item, Program, TestDecl};
use std::collections::HashMap;

/// A function or method with what the interpreter needs at each call.
pub(crate) struct FnEntry<'p> {
    pub decl: &'p FunctionDecl,
    /// The class of a method; `None` for a top-level function.
    pub class: Option<&'p str>,
    /// Every `old(e)` node in the `ensures` clauses, outer before inner.
    pub olds: Vec<&'p Expr>,
}

pub(crate) struct Tables<'p> {
    pub fns: Vec<FnEntry<'p>>,
    pub functions: HashMap<&'p str, usize>,
    pub methods: HashMap<(&'p str, &'p str), usize>,
    pub classes: HashMap<&'p str, &'p ClassDecl>,
    pub tests: Vec<&'p TestDecl>,
    /// The program's integer semantics.
    pub ints: Ints,
}

impl<'p> Tables<'p> {
    /// Duplicate names are the checker's business; here the first declaration wins.
    pub fn build(program: &'p Program) -> Tables<'p> {
        let mut tables = Tables {
            fns: Vec::new(),
            functions: HashMap::new(),
            methods: HashMap::new(),
            classes: HashMap::new(),
            tests: Vec::new(),
            ints: program.ints,
        };
        for item in &program.items {
            match item {
                Item::Class(class) => {
                    tables.classes.entry(class.name.name.as_str()).or_insert(class);
                    for method in &class.methods {
                        let idx = tables.push_fn(method, Some(class.name.name.as_str()));
                        tables
                            .methods
                            .entry((class.name.name.as_str(), method.name.name.as_str()))
                            .or_insert(idx);
                    }
                }
                Item::Function(f) => {
                    let idx = tables.push_fn(f, None);
                    tables.functions.entry(f.name.name.as_str()).or_insert(idx);
                }
                Item::Test(t) => tables.tests.push(t),
                Item::Predicate(_) => {}
            }
        }
        tables
    }

    fn push_fn(&mut self, decl: &'p FunctionDecl, class: Option<&'p str>) -> usize {
        let mut olds = Vec::new();
        for e in &decl.ensures {
            collect_olds(e, &mut olds);
        }
        self.fns.push(FnEntry { decl, class, olds });
        self.fns.len() - 1
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
