//! Coverage of the feasible (issue 33): which branch directions count for a method, and which
//! of those no test covers are *proved* unreachable.
//!
//! A method's count is the branch sites of the code it runs: its body and the bodies of the
//! functions called from there, transitively. Its `ensures` and the functions only a
//! specification calls (`ensures`, `requires`, a `pure` helper used in them) are checked, not
//! tested: their branches are left out, so a `push` without a branch is not "4/6".
//!
//! A direction is proved infeasible by one of two rules:
//! - a run that explored *every* input the precondition allows: an exploration that no bound
//!   cut (no k cut, no path bounded, not stopped, no path without a model, not a shard), or a
//!   `concolic` loop that left no unexplored node and pruned every other one as unsatisfiable.
//!   Such a run reaches every feasible direction, so one it never took is infeasible;
//! - the static nullness analysis ([`crate::nullness`]), which needs no complete run: it proves
//!   a direction whose null test is decided by `requires` or by the branches on the way there,
//!   under loops and recursion over unbounded structures too.
//!
//! Everything else that no test covers is *unknown*, never guessed.

use crate::concolic::ConcolicStats;
use crate::coverage::branches_taken;
use crate::{find_function, GeneratedTest, Generation};
use heaplab_engine::symbolic::code::UnitKind;
use heaplab_engine::symbolic::Explorer;
use heaplab_syntax::ast::{Block, Expr, ExprKind, Item, NodeId, Program, StmtKind};
use std::collections::BTreeSet;

/// One branch direction: a site and `true` (then) or `false` (else).
pub type Direction = (NodeId, bool);

/// The directions a method's count holds and how its uncovered ones stand.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Feasibility {
    /// Directions of the code the method runs (specifications left out).
    pub directions: BTreeSet<Direction>,
    /// Of `directions`: those the tests with a valid input take.
    pub covered: BTreeSet<Direction>,
    /// Uncovered and proved unreachable (see the module's comment).
    pub infeasible: BTreeSet<Direction>,
    /// Uncovered and not proved either way.
    pub unknown: BTreeSet<Direction>,
    /// How the complete-run rule proved its part of `infeasible`, in words (`None`: the run
    /// was not complete).
    pub proof: Option<&'static str>,
    /// Of `infeasible`: those the nullness analysis proved (some may be the complete run's too).
    pub by_nullness: BTreeSet<Direction>,
}

/// How the nullness rule reads in a report.
pub const NULLNESS_PROOF: &str =
    "the nullness analysis found their null tests decided by `requires` and the branches before them";

impl Feasibility {
    /// Directions not proved infeasible: covered ones plus the unknown ones.
    pub fn feasible(&self) -> usize {
        self.directions.len() - self.infeasible.len()
    }

    /// Which rules proved `infeasible`, in words (`None`: neither proved anything).
    pub fn proof_text(&self) -> Option<String> {
        let n = self.by_nullness.len();
        match (self.proof, n) {
            (None, 0) => None,
            (Some(p), 0) => Some(p.to_string()),
            (None, _) => Some(NULLNESS_PROOF.to_string()),
            (Some(p), _) => Some(format!("{p}; {n} of them also because {NULLNESS_PROOF}")),
        }
    }
}

/// Whether an exploration reached every input the precondition allows.
pub fn exploration_is_complete(explorer: &Explorer, generation: &Generation) -> bool {
    let stats = explorer.stats();
    explorer.stopped().is_none()
        && stats.bounded == 0
        && !stats.k_cut
        && stats.internal_errors == 0
        && explorer.solver_counts().failed == 0
        && explorer.config().shard.is_none()
        && generation.unknown.is_empty()
        && generation.out_of_time.is_empty()
        && generation.out_of_memory.is_empty()
}

/// Whether a `concolic` loop ran out of questions rather than of a bound: no unexplored node
/// left, none pruned for a reason other than unsatisfiability, no run that strayed from the
/// node it was solved for (so the tree is the program's), and no alias or null choice left to the
/// input generator (it picks one shape where others may take other directions).
pub fn concolic_is_complete(stats: &ConcolicStats) -> bool {
    stats.stopped_by.is_none()
        && stats.shapes_left_out == 0
        && stats.unexplored_left == 0
        && stats.pruned_unknown == 0
        && stats.pruned_k == 0
        && stats.phase1_unknown == 0
        && stats.phase1_cut == 0
        && stats.missed_target == 0
        && stats.diverged == 0
}

/// The feasibility of an exploration's method. `reached` are the directions some complete
/// run took (for the explorer: its feasible paths); `complete` whether that run was complete.
pub fn of_tests<'t>(
    program: &Program,
    explorer: &Explorer,
    tests: impl IntoIterator<Item = &'t GeneratedTest>,
    reached: &BTreeSet<Direction>,
    complete: Option<&'static str>,
) -> Feasibility {
    let sites = code_sites(program, explorer);
    let directions: BTreeSet<Direction> =
        sites.iter().flat_map(|s| [(*s, false), (*s, true)]).collect();
    let valid = tests.into_iter().filter(|t| t.validity.is_valid());
    let covered: BTreeSet<Direction> =
        branches_taken(explorer, valid).into_iter().filter(|d| directions.contains(d)).collect();
    let nullness = nullness_proved(program, explorer, &directions);
    let mut infeasible = BTreeSet::new();
    let mut unknown = BTreeSet::new();
    let mut by_nullness = BTreeSet::new();
    for d in directions.difference(&covered) {
        if nullness.contains(d) {
            by_nullness.insert(*d);
        }
        if (complete.is_some() && !reached.contains(d)) || nullness.contains(d) {
            infeasible.insert(*d);
        } else {
            unknown.insert(*d);
        }
    }
    Feasibility { directions, covered, infeasible, unknown, proof: complete, by_nullness }
}

/// Of `directions`: those the nullness analysis of the explorer's method proves no execution
/// takes, covered or not (the oracle test checks this raw answer against the tests).
pub fn nullness_proved(
    program: &Program,
    explorer: &Explorer,
    directions: &BTreeSet<Direction>,
) -> BTreeSet<Direction> {
    let Some((_, method)) = explored(program, explorer) else { return BTreeSet::new() };
    match crate::nullness::analyze(program, method) {
        Some(n) => directions.iter().copied().filter(|d| n.proves(*d)).collect(),
        None => BTreeSet::new(),
    }
}

/// The explorer's method in the program.
fn explored<'p>(
    program: &'p Program,
    explorer: &Explorer,
) -> Option<(Option<&'p str>, &'p heaplab_syntax::ast::FunctionDecl)> {
    let code = explorer.compiled();
    let Some(UnitKind::Function { class, name }) =
        code.units.get(explorer.method()).map(|u| &u.kind)
    else {
        return None;
    };
    let target = match class {
        Some(c) => format!("{c}.{name}"),
        None => name.clone(),
    };
    find_function(program, &target)
}

/// The feasibility of an exploration and its generation.
pub fn of_exploration(
    program: &Program,
    explorer: &Explorer,
    generation: &Generation,
) -> Feasibility {
    let complete = exploration_is_complete(explorer, generation)
        .then_some("a complete exploration, which no bound cut, never reached them");
    of_tests(program, explorer, &generation.tests, &explorer.covered_branches(), complete)
}

/// The feasibility of a `concolic` run; `sites` an explorer of the method only started.
pub fn of_concolic(
    program: &Program,
    sites: &Explorer,
    generation: &Generation,
    stats: &ConcolicStats,
) -> Feasibility {
    let complete = concolic_is_complete(stats).then_some(
        "the concolic loop proved every branch no run took unsatisfiable under `requires`",
    );
    let reached = branches_taken(sites, generation.tests.iter());
    of_tests(program, sites, &generation.tests, &reached, complete)
}

/// The branch sites of the code the explored method runs: the explorer's sites that lie in
/// the body of the method or of a function its code calls (transitively), not in an `ensures`
/// or in a function only specifications call. A call `e.m(…)` counts every class's `m`, so
/// dynamic dispatch can only keep sites in, never leave one out.
pub fn code_sites(program: &Program, explorer: &Explorer) -> BTreeSet<NodeId> {
    let Some((class, root)) = explored(program, explorer) else {
        return explorer.branch_sites().clone();
    };
    let ids = code_nodes(program, class, root);
    explorer.branch_sites().iter().copied().filter(|s| ids.contains(s)).collect()
}

/// Every statement and expression id of the code `root` (a function, or a method of `class`)
/// runs: its body and the bodies of the functions its code calls, transitively, with
/// `ensures`, `assert`s and the functions only they call left out (as [`code_sites`]).
pub fn code_nodes(
    program: &Program,
    class: Option<&str>,
    root: &heaplab_syntax::ast::FunctionDecl,
) -> BTreeSet<NodeId> {
    let mut exprs = BTreeSet::new();
    let mut stmts = for_each_code_expr(program, class, root, &mut |e| {
        exprs.insert(e.id);
    });
    stmts.append(&mut exprs);
    stmts
}

/// Shows `visit` every expression (subexpressions included) of the code `root` runs, as
/// [`code_nodes`] delimits it; returns the ids of its statements.
pub fn for_each_code_expr<'p>(
    program: &'p Program,
    class: Option<&str>,
    root: &'p heaplab_syntax::ast::FunctionDecl,
    visit: &mut dyn FnMut(&'p Expr),
) -> BTreeSet<NodeId> {
    let mut stmts = BTreeSet::new();
    let mut seen: BTreeSet<(Option<String>, String)> = BTreeSet::new();
    let mut todo = vec![(class.map(str::to_string), root)];
    while let Some((class, f)) = todo.pop() {
        if !seen.insert((class.clone(), f.name.name.clone())) {
            continue;
        }
        let mut calls = Vec::new();
        block_nodes(&f.body, &mut stmts, visit, &mut calls);
        for call in calls {
            todo.extend(callees(program, class.as_deref(), &call));
        }
    }
    stmts
}

/// A call found in a body: `f(…)` (a method of the same class first) or `e.m(…)`.
enum Call {
    Plain(String),
    Method(String),
}

fn callees<'p>(
    program: &'p Program,
    class: Option<&str>,
    call: &Call,
) -> Vec<(Option<String>, &'p heaplab_syntax::ast::FunctionDecl)> {
    let mut out = Vec::new();
    for item in &program.items {
        match (item, call) {
            (Item::Class(c), Call::Method(m)) => out.extend(
                c.methods
                    .iter()
                    .filter(|f| f.name.name == *m)
                    .map(|f| (Some(c.name.name.clone()), f)),
            ),
            (Item::Class(c), Call::Plain(m)) if Some(c.name.name.as_str()) == class => out.extend(
                c.methods
                    .iter()
                    .filter(|f| f.name.name == *m)
                    .map(|f| (Some(c.name.name.clone()), f)),
            ),
            (Item::Function(f), Call::Plain(m)) if f.name.name == *m => out.push((None, f)),
            _ => {}
        }
    }
    out
}

/// Every statement id (into `stmts`) and expression (to `visit`) of a block, and the calls in it.
fn block_nodes<'p>(
    block: &'p Block,
    stmts: &mut BTreeSet<NodeId>,
    visit: &mut dyn FnMut(&'p Expr),
    calls: &mut Vec<Call>,
) {
    for s in &block.stmts {
        stmts.insert(s.id);
        let mut exprs: Vec<&Expr> = Vec::new();
        match &s.kind {
            StmtKind::Local { init, .. } => exprs.extend(init.iter()),
            StmtKind::Assign { value, .. } => exprs.push(value),
            StmtKind::FieldStore { object, value, .. } => exprs.extend([object, value]),
            StmtKind::IndexStore { array, index, value } => exprs.extend([array, index, value]),
            StmtKind::Expr(e) | StmtKind::Assume(e) => exprs.push(e),
            // An `assert` is a specification checked in place: its branches and calls are not
            // the method's.
            StmtKind::Assert(_) => {}
            StmtKind::Return(e) => exprs.extend(e.iter()),
            StmtKind::Throw(e) => exprs.push(e),
            StmtKind::If { cond, then_branch, else_branch } => {
                exprs.push(cond);
                block_nodes(then_branch, stmts, visit, calls);
                if let Some(e) = else_branch {
                    block_nodes(e, stmts, visit, calls);
                }
            }
            StmtKind::While { cond, body } => {
                exprs.push(cond);
                block_nodes(body, stmts, visit, calls);
            }
            StmtKind::Block(b) => block_nodes(b, stmts, visit, calls),
            StmtKind::Try { body, catches } => {
                block_nodes(body, stmts, visit, calls);
                catches.iter().for_each(|c| block_nodes(&c.body, stmts, visit, calls));
            }
            StmtKind::Break | StmtKind::Continue => {}
        }
        exprs.into_iter().for_each(|e| expr_nodes(e, visit, calls));
    }
}

/// Nesting is capped by the parser (128 levels), so recursion is safe.
fn expr_nodes<'p>(e: &'p Expr, visit: &mut dyn FnMut(&'p Expr), calls: &mut Vec<Call>) {
    visit(e);
    match &e.kind {
        ExprKind::Call { callee, .. } => calls.push(Call::Plain(callee.name.clone())),
        ExprKind::MethodCall { method, .. } => calls.push(Call::Method(method.name.clone())),
        _ => {}
    }
    for child in e.kind.children() {
        expr_nodes(child, visit, calls);
    }
}
