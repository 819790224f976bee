//! Source-line coverage of a generation, for editors' gutters.
//!
//! Lines come from two independent sources on purpose: a test's lines are the statements the
//! *interpreter* executed when it replayed the test ([`GeneratedTest::statements`]), while branch
//! coverage is the symbolic explorer's (the directions its feasible paths took, the numbers of
//! `heaplab run`'s summary). A statement's line is the line its first token is on; block
//! statements (`{ ... }`) have no line of their own.
//!
//! The executable lines are those of the statements of the method under test and of every
//! function it may call (`ensures` included, since the interpreter checks it on return).

use crate::{find_function, GeneratedTest, Generation};
use heaplab_engine::symbolic::code::UnitKind;
use heaplab_engine::symbolic::Explorer;
use heaplab_syntax::ast::{BinOp, Block, Expr, ExprKind, NodeId, Program, StmtKind};
use heaplab_syntax::SourceFile;
use std::collections::{BTreeMap, BTreeSet};

/// One branch site: its line and which directions the generated tests' paths took.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BranchLine {
    /// 1-based.
    pub line: usize,
    /// 1-based, in characters (a line may hold several sites: `a && b`).
    pub column: usize,
    /// `[false direction, true direction]`.
    pub covered: [bool; 2],
}

/// Lines of one exploration's method, 1-based and sorted.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LineCoverage {
    pub executable: Vec<usize>,
    pub covered: Vec<usize>,
    /// One per site, in source order.
    pub branches: Vec<BranchLine>,
}

/// Where each statement and branch site of a program starts.
pub struct Lines {
    /// Statements (no blocks) and branching expressions (`&&`, `||`, `?:`): (line, column),
    /// by node id (ids are dense: a vector, read for every statement of every test).
    starts: Vec<Option<(usize, usize)>>,
}

impl Lines {
    /// `file` must be the text `program` was parsed from.
    pub fn new(program: &Program, file: &SourceFile) -> Lines {
        let mut starts = Vec::new();
        walk_program(program, &mut |id, span| {
            let at = file.line_col(span.start);
            let i = id.0 as usize;
            if starts.len() <= i {
                starts.resize(i + 1, None);
            }
            starts[i] = Some((at.line, at.col));
        });
        Lines { starts }
    }

    /// The (line, column) where a statement or branch site starts.
    pub fn at(&self, id: NodeId) -> Option<(usize, usize)> {
        self.starts.get(id.0 as usize).copied().flatten()
    }

    /// The sorted, distinct lines of some statements (unknown ids are skipped).
    pub fn of(&self, statements: &BTreeSet<NodeId>) -> Vec<usize> {
        // A sorted vector: the page's Run asks this of every test (331 for TreeMap `put` at
        // k = 3), and a set per test was most of the work.
        let mut lines: Vec<usize> =
            statements.iter().filter_map(|id| self.at(*id)).map(|(l, _)| l).collect();
        lines.sort_unstable();
        lines.dedup();
        lines
    }

    /// The lines a test executes.
    pub fn of_test(&self, test: &GeneratedTest) -> Vec<usize> {
        self.of(&test.statements)
    }

    /// Executable and covered lines and the branch sites of an exploration and its tests.
    pub fn coverage(
        &self,
        program: &Program,
        explorer: &Explorer,
        generation: &Generation,
    ) -> LineCoverage {
        let covered: BTreeSet<NodeId> =
            generation.tests.iter().flat_map(|t| t.statements.iter().copied()).collect();
        let taken = explorer.covered_branches();
        // One entry per site: `a && b && c` has two sites starting at the same place.
        let mut branches: BTreeMap<(usize, usize, NodeId), [bool; 2]> = BTreeMap::new();
        for site in explorer.branch_sites() {
            let Some((line, column)) = self.at(*site) else { continue };
            let dirs = [false, true].map(|dir| taken.contains(&(*site, dir)));
            branches.insert((line, column, *site), dirs);
        }
        LineCoverage {
            executable: self.of(&executable(program, explorer)),
            covered: self.of(&covered),
            branches: branches
                .into_iter()
                .map(|((line, column, _), covered)| BranchLine { line, column, covered })
                .collect(),
        }
    }
}

/// The branch directions at the explorer's sites (the method and everything it calls) that the
/// *replays* of `tests` took. Over all tests this is the explorer's own
/// [`covered_branches`](Explorer::covered_branches) (`tests/all_examples.rs` checks it); over a
/// subset it answers which directions those inputs reach, e.g. only the inputs that satisfy
/// `requires` (`heaplab compare`'s valid-only coverage).
pub fn branches_taken<'t>(
    explorer: &Explorer,
    tests: impl IntoIterator<Item = &'t GeneratedTest>,
) -> BTreeSet<(NodeId, bool)> {
    let sites = explorer.branch_sites();
    tests
        .into_iter()
        .flat_map(|t| t.branches.iter().copied())
        .filter(|(site, _)| sites.contains(site))
        .collect()
}

/// The statements of the explored method and of every function it may call.
pub fn executable(program: &Program, explorer: &Explorer) -> BTreeSet<NodeId> {
    let code = explorer.compiled();
    let mut out = BTreeSet::new();
    for unit in code.reachable(explorer.method()) {
        let Some(UnitKind::Function { class, name }) = code.units.get(unit).map(|u| &u.kind) else {
            continue;
        };
        let target = match class {
            Some(c) => format!("{c}.{name}"),
            None => name.clone(),
        };
        if let Some((_, decl)) = find_function(program, &target) {
            collect_statements(&decl.body, &mut out);
        }
    }
    out
}

/// Every statement of a block that is not itself a block, nested ones included.
fn collect_statements(block: &Block, ids: &mut BTreeSet<NodeId>) {
    for s in &block.stmts {
        if !matches!(s.kind, StmtKind::Block(_)) {
            ids.insert(s.id);
        }
        match &s.kind {
            StmtKind::If { then_branch, else_branch, .. } => {
                collect_statements(then_branch, ids);
                if let Some(e) = else_branch {
                    collect_statements(e, ids);
                }
            }
            StmtKind::While { body, .. } | StmtKind::Block(body) => collect_statements(body, ids),
            StmtKind::Try { body, catches } => {
                collect_statements(body, ids);
                catches.iter().for_each(|c| collect_statements(&c.body, ids));
            }
            _ => {}
        }
    }
}

type Visit<'v> = dyn FnMut(NodeId, heaplab_syntax::Span) + 'v;

/// Calls `f` on every function body (methods and top-level functions) and its `ensures`.
fn for_each_body(program: &Program, f: &mut dyn FnMut(&Block, &[Expr])) {
    use heaplab_syntax::ast::Item;
    for item in &program.items {
        match item {
            Item::Class(c) => c.methods.iter().for_each(|m| f(&m.body, &m.ensures)),
            Item::Function(func) => f(&func.body, &func.ensures),
            Item::Predicate(_) | Item::Test(_) => {}
        }
    }
}

fn walk_program(program: &Program, f: &mut Visit<'_>) {
    for_each_body(program, &mut |body, ensures| {
        walk_block(body, f);
        ensures.iter().for_each(|e| walk_expr(e, f));
    });
}

/// Visits every statement that is not a block, and every branching expression.
fn walk_block(block: &Block, f: &mut Visit<'_>) {
    for s in &block.stmts {
        if !matches!(s.kind, StmtKind::Block(_)) {
            f(s.id, s.span);
        }
        match &s.kind {
            StmtKind::Local { init, .. } => init.iter().for_each(|e| walk_expr(e, f)),
            StmtKind::Assign { value, .. } => walk_expr(value, f),
            StmtKind::FieldStore { object, value, .. } => {
                walk_expr(object, f);
                walk_expr(value, f);
            }
            StmtKind::IndexStore { array, index, value } => {
                walk_expr(array, f);
                walk_expr(index, f);
                walk_expr(value, f);
            }
            StmtKind::Expr(e) | StmtKind::Assert(e) | StmtKind::Assume(e) => walk_expr(e, f),
            StmtKind::Return(e) => e.iter().for_each(|e| walk_expr(e, f)),
            StmtKind::Throw(e) => walk_expr(e, f),
            StmtKind::If { cond, then_branch, else_branch } => {
                walk_expr(cond, f);
                walk_block(then_branch, f);
                if let Some(e) = else_branch {
                    walk_block(e, f);
                }
            }
            StmtKind::While { cond, body } => {
                walk_expr(cond, f);
                walk_block(body, f);
            }
            StmtKind::Block(b) => walk_block(b, f),
            StmtKind::Try { body, catches } => {
                walk_block(body, f);
                catches.iter().for_each(|c| walk_block(&c.body, f));
            }
            StmtKind::Break | StmtKind::Continue => {}
        }
    }
}

/// Nesting is capped by the parser (128 levels), so recursion is safe.
fn walk_expr(e: &Expr, f: &mut Visit<'_>) {
    let branches = match &e.kind {
        ExprKind::Binary { op, .. } => matches!(op, BinOp::And | BinOp::Or),
        ExprKind::Cond { .. } => true,
        _ => false,
    };
    if branches {
        f(e.id, e.span);
    }
    for child in e.kind.children() {
        walk_expr(child, f);
    }
}
