//! A stepped symbolic run of one method: the same explorer and test generation as `heaplab
//! run`, driven by a host that steps it and answers its solver later (the page's `Exploration`).
//!
//! [`Run::advance`] steps once; a query whose reply the host has not given yet comes back as
//! [`Next::Resolve`] with the scripts to run (see [`crate::replay_solver`]). Test generation
//! asks for one model per feasible path: [`Run::try_generate`] runs `heaplab_testgen` straight
//! away; when every model query is answered (decided in Rust, or its reply stored), that pass
//! is the only one. Otherwise the pass is dropped (its counts taken back) and the missing
//! scripts returned, to be resolved all at once before generating again.
//!
//! Without Z3 the frontend's Rust decision procedure answers what it can and the rest is
//! `unknown` (the explorer keeps such a branch, and a path whose model query is unknown gets no
//! test); nothing is ever pending.

use std::borrow::Cow;
use std::cell::{OnceCell, RefCell};
use std::collections::BTreeSet;
use std::rc::Rc;

use heaplab_engine::symbolic::{
    Bound, Event, Explorer, Options, PathOutcome, PathResult, Placed, StateId, TreeNode,
    DISCARDED_ASSUMPTION, DISCARDED_PRECONDITION,
};
use heaplab_report::summary::{FeasibilityReport, FindingReport};
use heaplab_report::RunSummary;
use heaplab_smt::{Solver, Stats};
use heaplab_syntax::{Analysis, SourceFile, Span};
use heaplab_testgen::coverage::Lines;
use heaplab_testgen::{emit, generate, Generation};

use crate::clock::ActiveTime;
use crate::events::{outcome_name, Details, JsEvent, JsExploreStats, JsStats, JsTreeNode};
use crate::inspect;
use crate::junit::{junit, JunitSource};
use crate::program::{analyze, is_java_name};
use crate::replay_solver::{
    add, stats_add, stats_sub, sub, AsyncPathSolver, Bridge, Frontend, Shared,
};
use crate::tests_json::TestJson;
use crate::tests_view::{test_js_with, JsJunit, JsTest};
use crate::{fail, Failure};

/// Tree nodes whose view is kept once their state is gone (a forked state lives on only in its
/// children); views of live states and ended paths are always available. A view costs about a
/// kilobyte, so this bounds the memory of a long run.
pub const VIEW_LIMIT: usize = 5_000;

/// What a stepped run takes: the engine's run options (`Options` of docs/report.schema.json)
/// plus the front end's own keys: `file` (the name views and tests give the program),
/// `procedure` (false: every query to Z3, for measurements), `views` (false: keep no heap
/// views; about 5 % of a run) and `tree` (false: keep no tree either).
#[derive(Default)]
pub struct Request {
    pub options: Options,
    pub file: Option<String>,
    pub procedure: Option<bool>,
    /// Keep a heap view of every tree node (default true), for `view()`.
    pub views: Option<bool>,
    /// Keep the tree and a record of every path (default true). A request that reads only the
    /// summary and the tests (the Compare tab's rows, the benches) keeps neither, as `heaplab
    /// run` does without `--trace` (`Explorer::set_summary_only`): TreeMap `put` under `lazy` at
    /// k = 3 kept 2 M states' tree in the page and stopped at the memory bound, where the CLI
    /// finishes. No view is kept then.
    pub tree: Option<bool>,
}

impl Request {
    /// Reads a request from JSON text (empty: the defaults): an object whose keys `file`,
    /// `procedure`, `views` and `tree` are the front end's and whose other keys must be the engine's
    /// `Options` (an unknown key is refused, nested `bounds` included).
    pub fn from_json(text: &str) -> Result<Request, Failure> {
        use serde_json::Value;
        if text.trim().is_empty() {
            return Ok(Request::default());
        }
        let value: Value = serde_json::from_str(text)
            .map_err(|_| fail("BadOptions", "options: not valid JSON"))?;
        let mut obj = match value {
            Value::Null => return Ok(Request::default()),
            Value::Object(obj) => obj,
            _ => return Err(fail("BadOptions", "options: expected an object or JSON text")),
        };
        let bad = |what: &str| fail("BadOptions", &format!("options: `{what}` has the wrong type"));
        let file = match obj.remove("file") {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => Some(s),
            Some(_) => return Err(bad("file")),
        };
        let mut flag = |what: &str| match obj.remove(what) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(b)),
            Some(_) => Err(bad(what)),
        };
        let procedure = flag("procedure")?;
        let views = flag("views")?;
        let tree = flag("tree")?;
        let options: Options = serde_json::from_value(Value::Object(obj))
            .map_err(|e| fail("BadOptions", &format!("options: {e}")))?;
        Ok(Request { options, file, procedure, views, tree })
    }
}

/// Programs up to this size get a table of the line of each byte ([`Run::line_of`]).
const LINE_TABLE_BYTES: usize = 1 << 20;

/// The line of each byte offset of `text` (and of its end), or nothing past
/// [`LINE_TABLE_BYTES`].
fn line_table(text: &SourceFile) -> Vec<u32> {
    let len = text.text.len();
    if len > LINE_TABLE_BYTES {
        return Vec::new();
    }
    let mut table = Vec::with_capacity(len + 1);
    let mut line = 1u32;
    for byte in text.text.bytes() {
        table.push(line);
        line += u32::from(byte == b'\n');
    }
    table.push(line);
    table
}

/// The analysis of a program that checks (predicates included, as `heaplab run` requires),
/// the last program's again when the file name and text are the same ([`checked_again`]).
pub fn checked(file: &SourceFile) -> Result<Rc<Analysis>, Failure> {
    checked_again(file).map(|(analysis, _)| analysis)
}

/// The check behind [`checked`], with the logic definitions it converted (an explorer takes
/// them: converting them again computes the predicates' invariants again).
fn checked_with_defs(file: &SourceFile) -> Result<(Analysis, heaplab_logic::Defs), Failure> {
    let analysis = analyze(file);
    // Each error with its place (`3:12: unknown variable `y``), as the editor underlines it.
    let at = |d: &heaplab_syntax::Diagnostic| {
        let lc = file.line_col(d.span.start);
        format!("{}:{}: {}", lc.line, lc.col, d.message)
    };
    let mut errors: Vec<String> =
        analysis.diagnostics.iter().filter(|d| d.is_error()).map(at).collect();
    let mut defs = heaplab_logic::Defs::default();
    if errors.is_empty() {
        let (converted, logic_errors) = heaplab_logic::Defs::from_program(&analysis.program);
        errors.extend(logic_errors.iter().map(|e| at(&e.to_diagnostic())));
        defs = converted;
    }
    match errors.len() {
        0 => Ok((analysis, defs)),
        n => Err(fail(
            "ProgramHasErrors",
            &format!(
                "The program has {n} error{}; fix {} first (first: {})",
                if n == 1 { "" } else { "s" },
                if n == 1 { "it" } else { "them" },
                errors[0]
            ),
        )),
    }
}

/// The span of the declaration of `Class.method` or of the function `name`.
fn declaration_span(
    program: &heaplab_syntax::ast::Program,
    name: &str,
) -> Option<heaplab_syntax::Span> {
    use heaplab_syntax::ast::Item;
    let (class, method) = match name.split_once('.') {
        Some((c, m)) => (Some(c), m),
        None => (None, name),
    };
    program.items.iter().find_map(|item| match (item, class) {
        (Item::Class(c), Some(cls)) if c.name.name == cls => {
            c.methods.iter().find(|m| m.name.name == method).map(|m| m.name.span)
        }
        (Item::Function(f), None) if f.name.name == method => Some(f.name.span),
        _ => None,
    })
}

thread_local! {
    /// The last program [`checked_again`] checked: its file name, text, analysis and logic
    /// definitions.
    static LAST_CHECKED: RefCell<Option<(SourceFile, Rc<Analysis>, heaplab_logic::Defs)>> =
        const { RefCell::new(None) };
}

/// [`checked_with_defs`], reusing the last program's analysis when the file name and text are
/// the same: the page runs one program again and again (each strategy of a comparison, each
/// Run, each concolic pass and duel), and reading, checking and converting it took a
/// millisecond of each small run in wasm, most of a bench row's time.
fn checked_again(file: &SourceFile) -> Result<(Rc<Analysis>, heaplab_logic::Defs), Failure> {
    let hit = LAST_CHECKED.with_borrow(|last| match last {
        Some((f, analysis, defs)) if f.name == file.name && f.text == file.text => {
            Some((Rc::clone(analysis), defs.clone()))
        }
        _ => None,
    });
    if let Some(hit) = hit {
        return Ok(hit);
    }
    let (analysis, defs) = checked_with_defs(file)?;
    let analysis = Rc::new(analysis);
    LAST_CHECKED.set(Some((file.clone(), Rc::clone(&analysis), defs.clone())));
    Ok((analysis, defs))
}

/// Everything of one run; borrowed only between awaits.
pub struct Run {
    pub source: String,
    pub file: String,
    pub method: String,
    pub analysis: Rc<Analysis>,
    /// For a `.java` file: the Java names behind the lowered program (for heap pictures and the
    /// JUnit export; the lowering is deterministic, so it matches `analysis`).
    java: Option<heaplab_java::JavaMap>,
    pub explorer: Explorer,
    pub bridge: Shared,
    /// The path solver's frontend, for `solverStats()`, and the counts of undone steps.
    frontend: Rc<Frontend>,
    frontend_adjust: Stats,
    bounds_hit: BTreeSet<Bound>,
    pub generation: Option<Generation>,
    /// The summary's findings and feasibility report, made once the tests exist: they read
    /// every path and test, and the page asks for the summary several times at the end (a
    /// tenth of the Explore tab's Run on TreeMap `put` went to making them again).
    finished: OnceCell<(Vec<FindingReport>, FeasibilityReport)>,
    /// Where each statement of the program is, once tests exist (their `lines`, `coverage()`).
    pub lines: Option<Lines>,
    /// Where each statement and branch site starts, for the line of a branch event.
    sites: Lines,
    /// The program text, for the line of a path's end.
    text: SourceFile,
    /// The line of each byte of a program up to [`LINE_TABLE_BYTES`] (empty for a longer
    /// one): a large Run asks the line of every path's end and node, millions of times.
    line_table: Vec<u32>,
    /// The line of the method under test's declaration (the `start` event's line).
    method_line: Option<u32>,
    /// Time spent working (the clock of the time bound).
    pub clock: ActiveTime,
    /// Set when exploration has ended (or was cancelled).
    pub explored: bool,
    pub cancelled: bool,
    pub busy: bool,
}

pub enum Next {
    /// Not boxed: a large run's steps are millions of events, most of which a slice folds into
    /// its nodes at once.
    Event(Placed),
    Resolve(Vec<String>),
    Explored,
}

impl Run {
    /// A run of `method` of `source` (`Failure` kinds `BadOptions`, `ProgramHasErrors`,
    /// `UnknownMethod`); `z3`: whether the host answers solver scripts; `now`: its clock in
    /// milliseconds.
    pub fn new(
        source: String,
        method: String,
        request: Request,
        z3: bool,
        now: fn() -> f64,
    ) -> Result<Run, Failure> {
        let config =
            request.options.resolve().map_err(|e| fail("BadOptions", &format!("options: {e}")))?;
        let file_name = request.file.clone().unwrap_or_else(|| "input.hl".to_string());
        let text = SourceFile::new(file_name.clone(), source.clone());
        let (analysis, defs) = checked_again(&text)?;
        let bridge: Shared = Rc::new(RefCell::new(Bridge::default()));
        let clock = ActiveTime::new(now);
        let procedure = request.procedure.unwrap_or(true);
        let solver = AsyncPathSolver::new(Rc::clone(&bridge), z3, procedure, now);
        let frontend = Rc::clone(&solver.frontend);
        let mut explorer = Explorer::with_defs(
            &analysis.program,
            &analysis.info,
            defs,
            &method,
            config,
            Box::new(solver),
            Box::new(clock.clone()),
        )
        .map_err(|e| fail("UnknownMethod", &e.to_string()))?;
        let sites = Lines::new(&analysis.program, &text);
        let method_line = declaration_span(&analysis.program, &method)
            .map(|span| text.line_col(span.start).line as u32);
        if request.tree == Some(false) {
            explorer.set_summary_only(true);
        } else if request.views.unwrap_or(true) {
            explorer.record_views(VIEW_LIMIT);
        }
        let java = is_java_name(&file_name).then(|| heaplab_java::analyze(&text).map);
        Ok(Run {
            source,
            file: file_name,
            method,
            analysis,
            java,
            explorer,
            bridge,
            frontend,
            frontend_adjust: Stats::default(),
            bounds_hit: BTreeSet::new(),
            generation: None,
            finished: OnceCell::new(),
            lines: None,
            sites,
            line_table: line_table(&text),
            text,
            method_line,
            clock,
            explored: false,
            cancelled: false,
            busy: false,
        })
    }

    /// Starts one call of the host on the run (its clock runs); `Busy` while another runs.
    pub fn enter(&mut self) -> Result<(), Failure> {
        if self.busy {
            return Err(fail(
                "Busy",
                "another step() or runToEnd() of this exploration is running",
            ));
        }
        self.busy = true;
        self.clock.start();
        Ok(())
    }

    /// Ends the host's call (the clock stops: a pause is not working time).
    pub fn leave(&mut self) {
        self.busy = false;
        self.clock.stop();
    }

    /// The generated tests; empty until exploration is over.
    pub fn tests(&self) -> Vec<JsTest> {
        self.tests_with(true)
    }

    /// [`tests`](Self::tests), with each test's `test` block only when `blocks` is set: the
    /// page shows the tests at the end of a run and gets the blocks with the downloads
    /// ([`test_blocks`](Self::test_blocks)): writing them was 8 ms of the 600 ms of a TreeMap
    /// `put` Run (331 tests) in the browser.
    pub fn tests_with(&self, blocks: bool) -> Vec<JsTest> {
        match &self.generation {
            Some(g) => {
                g.tests.iter().map(|t| test_js_with(g, self.lines.as_ref(), t, blocks)).collect()
            }
            None => Vec::new(),
        }
    }

    /// [`tests_with`](Self::tests_with) as JSON text (see [`crate::json_text`]): for
    /// TreeMap `put`'s 331 tests at k = 3, the structured clone of the objects was 4 ms.
    /// Written from the generation ([`TestJson`]), with no `JsTest` made first.
    pub fn tests_text(&self, blocks: bool) -> Result<String, Failure> {
        let Some(g) = &self.generation else { return Ok("[]".to_string()) };
        let lines = self.lines.as_ref();
        let tests =
            g.tests.iter().map(|test| TestJson { generation: g, lines, test, block: blocks });
        crate::json_text(&tests.collect::<Vec<_>>())
    }

    /// Each test's `test` block, in the order of [`tests`](Self::tests).
    pub fn test_blocks(&self) -> Vec<String> {
        match &self.generation {
            Some(g) => g.tests.iter().map(|t| emit::test_block(g, t)).collect(),
            None => Vec::new(),
        }
    }

    /// The program followed by every generated test, as `heaplab run --emit hl` writes it;
    /// `None` until exploration is over.
    pub fn tests_hl(&self) -> Option<String> {
        self.generation.as_ref().map(|g| emit::hl(&self.source, g))
    }

    /// The generated tests as `heaplab run --emit json` writes them; `None` until over.
    pub fn tests_json(&self) -> Option<String> {
        self.generation.as_ref().map(emit::json)
    }

    /// The symbolic state of tree node `node`, when its view is kept or its state is live.
    pub fn view(&self, node: u32) -> Option<inspect::JsHeapView> {
        let v = self.explorer.view(StateId(node))?;
        let mut js = inspect::heap_view(&v, |s| self.line_of(s));
        if let Some(map) = &self.java {
            inspect::java_names(&mut js, map);
        }
        Some(js)
    }

    /// Concrete worlds of a `symheap` tree node; `None` for another strategy or no view.
    pub fn worlds(&self, node: u32) -> Option<inspect::JsWorlds> {
        let s = self.explorer.view(StateId(node)).and_then(|v| v.symheap)?;
        Some(inspect::worlds(&s.worlds()))
    }

    /// Line and branch coverage of the generated tests; `None` until exploration is over.
    pub fn coverage(&self) -> Option<inspect::JsCoverage> {
        let (g, lines) = (self.generation.as_ref()?, self.lines.as_ref()?);
        Some(inspect::coverage(&lines.coverage(&self.analysis.program, &self.explorer, g)))
    }

    /// The program in Java with a JUnit 5 class of the generated tests, as `heaplab run --emit
    /// junit` writes them for a file named `stem`.hl; `None` until exploration is over. Fails
    /// (`Untranslatable`) when the program uses what Java cannot express faithfully.
    pub fn junit(&self, stem: &str) -> Result<Option<JsJunit>, Failure> {
        let Some(g) = &self.generation else { return Ok(None) };
        // A Java program's tests exercise the pasted class itself, in its package.
        let settings = format!("the playground's exploration of `{}`", self.method);
        let input = JunitSource {
            analysis: &self.analysis,
            source: &self.source,
            java: self.java.as_ref(),
            stem,
            settings: &settings,
            paths: self.explorer.paths(),
        };
        junit(&input, g).map(Some)
    }

    /// What text events carry: a single step shows the formulas of a fork and the solver
    /// query, the tree's slices only the formulas (their queries are counted, and a case's
    /// formula comes with its node's view), and a run whose events nobody reads neither (see
    /// `Explorer::set_event_formulas`, `set_query_text`).
    pub fn set_event_text(&mut self, formulas: bool, queries: bool) {
        self.explorer.set_event_formulas(formulas);
        self.explorer.set_case_formulas(formulas);
        self.explorer.set_query_text(queries);
    }

    /// Steps once; a pending answer is reported with the scripts to resolve.
    pub fn advance(&mut self) -> Result<Next, Failure> {
        if self.cancelled {
            return Ok(Next::Explored);
        }
        let before = self.explorer.solver_counts();
        let before_frontend = self.frontend.stats();
        self.bridge.borrow_mut().outstanding.clear();
        match self.explorer.step_placed() {
            None => Ok(Next::Explored),
            Some(Placed { event: Event::SolverPending, .. }) => {
                let undone = sub(self.explorer.solver_counts(), before);
                let undone_frontend = stats_sub(self.frontend.stats(), before_frontend);
                self.frontend_adjust = stats_add(self.frontend_adjust, undone_frontend);
                let mut b = self.bridge.borrow_mut();
                b.adjust = add(b.adjust, undone);
                let scripts = std::mem::take(&mut b.outstanding);
                if scripts.is_empty() || scripts.iter().any(|s| b.replies.contains_key(s)) {
                    return Err(fail(
                        "Internal",
                        "the explorer waits for a solver reply that was already given",
                    ));
                }
                Ok(Next::Resolve(scripts))
            }
            Some(event) => {
                if let Event::PathEnd { outcome: PathOutcome::Bounded { bound, .. }, .. } =
                    &event.event
                {
                    self.bounds_hit.insert(*bound);
                }
                Ok(Next::Event(event))
            }
        }
    }

    /// Generates the tests; or, when some model query has no reply yet, drops that pass (its
    /// counts are taken back: the next pass asks again) and returns the scripts to resolve.
    pub fn try_generate(&mut self) -> Result<Vec<String>, Failure> {
        let before = self.explorer.solver_counts();
        let before_frontend = self.frontend.stats();
        self.bridge.borrow_mut().outstanding.clear();
        let program = &self.analysis.program;
        let info = &self.analysis.info;
        let generation = generate(&mut self.explorer, program, info);
        let missing = std::mem::take(&mut self.bridge.borrow_mut().outstanding);
        if !missing.is_empty() {
            let spent = sub(self.explorer.solver_counts(), before);
            let spent_frontend = stats_sub(self.frontend.stats(), before_frontend);
            self.frontend_adjust = stats_add(self.frontend_adjust, spent_frontend);
            let mut b = self.bridge.borrow_mut();
            b.adjust = add(b.adjust, spent);
            return Ok(missing);
        }
        let generation = generation
            .map_err(|e| fail("TestGeneration", &format!("test generation failed: {e}")))?;
        self.generation = Some(generation);
        let file = SourceFile::new(self.file.clone(), self.source.clone());
        self.lines = Some(Lines::new(program, &file));
        Ok(Vec::new())
    }

    /// The run summary, as `heaplab run --format json` prints it (its findings included).
    pub fn summary(&self) -> RunSummary {
        let mut summary = RunSummary::of_exploration(
            &self.file,
            &self.method,
            &self.explorer,
            self.generation.as_ref(),
        );
        if let Some(g) = &self.generation {
            let (findings, feasibility) = self.finished.get_or_init(|| {
                let file = SourceFile::new(self.file.clone(), self.source.clone());
                let findings = heaplab_report::findings::findings(&file, self.explorer.paths(), g);
                // Coverage of the feasible directions, as `heaplab run` reports it.
                let program = &self.analysis.program;
                let f = heaplab_testgen::feasible::of_exploration(program, &self.explorer, g);
                (findings, FeasibilityReport::new(&f, &Lines::new(program, &file)))
            });
            summary.findings = findings.clone();
            summary.feasibility = Some(feasibility.clone());
        }
        summary
    }

    pub fn solver_stats(&self) -> JsExploreStats {
        let f = stats_sub(self.frontend.stats(), self.frontend_adjust);
        let counts = self.explorer.solver_counts();
        let engine = counts.decided_locally.saturating_sub(f.decided_locally);
        JsExploreStats {
            base: JsStats::new(&f, self.frontend.inner().is_present()),
            decided_by_engine: engine as f64,
            decided_in_rust: (engine + f.decided_locally) as f64,
            sent_to_z3: f.solver_calls as f64,
            batched_calls: self.bridge.borrow().batched_calls as f64,
            z3_wait_ms: self.bridge.borrow().wait_ms,
        }
    }

    /// Queries answered `unknown` for want of Z3 (see `solverStats().unknownWithoutZ3`).
    pub fn unanswered(&self) -> u64 {
        stats_sub(self.frontend.stats(), self.frontend_adjust).unanswered
    }

    pub fn tree_nodes(&self, start: usize) -> Vec<JsTreeNode> {
        let tree = self.explorer.tree();
        tree.iter_from(start)
            .map(|n| {
                let end = self.end_of(&n);
                JsTreeNode {
                    id: n.id.0,
                    parent: n.parent.map(|p| p.0),
                    label: tree.label(&n).to_string(),
                    path: n.path,
                    outcome: end.as_ref().map(|e| e.0),
                    colour: end.as_ref().map(|e| e.1),
                    text: end.map(|e| e.2.into_owned()),
                    line: n.span.map(|s| self.line_of(s)),
                }
            })
            .collect()
    }

    /// How the path that ended in node `n` ended, as the page names it (outcome, colour) and
    /// says it; a discarded path the run did not keep in `paths` is known by its node alone.
    /// The end of the path that ended in `n`: outcome, colour and text. A discarded path the
    /// run did not keep (most nodes of a large `lazy` run) has one of two texts, not formatted
    /// again for each.
    pub(crate) fn end_of(
        &self,
        n: &TreeNode,
    ) -> Option<(&'static str, &'static str, Cow<'static, str>)> {
        let precondition = match n.path.and_then(|p| self.explorer.paths().get(p)) {
            // Most kept paths of a large run are discarded ones, all said in one of two texts.
            Some(PathResult { outcome: PathOutcome::Discarded { precondition, .. }, .. }) => {
                *precondition
            }
            Some(p) => {
                let (outcome, colour) = outcome_name(&p.outcome);
                return Some((outcome, colour, Cow::Owned(p.describe())));
            }
            None => n.discarded?,
        };
        let outcome = PathOutcome::Discarded { span: Span::default(), precondition };
        let (name, colour) = outcome_name(&outcome);
        let text = match precondition {
            true => DISCARDED_PRECONDITION,
            false => DISCARDED_ASSUMPTION,
        };
        debug_assert_eq!(text, outcome.summary());
        Some((name, colour, Cow::Borrowed(text)))
    }

    pub(crate) fn parent_of(&self, id: u32) -> Option<u32> {
        self.explorer.tree().parent(id as usize).map(|p| p.0)
    }

    /// The 1-based line of a span of the program.
    pub fn line_of(&self, span: Span) -> u32 {
        match self.line_table.get(span.start as usize) {
            Some(line) => *line,
            None => self.text.line(span.start) as u32,
        }
    }

    /// The line of an event: where the engine placed it (the instruction its state was at), a
    /// path's end at the construct its outcome blames (the failing `assert`, the bound's loop).
    pub(crate) fn event_line(&self, placed: &Placed) -> Option<u32> {
        match &placed.event {
            Event::Start { .. } => self.method_line,
            Event::Branch { site: Some(site), .. } => {
                self.sites.of(&BTreeSet::from([*site])).first().map(|l| *l as u32)
            }
            Event::PathEnd {
                outcome:
                    PathOutcome::Error { span, .. }
                    | PathOutcome::Bounded { span: Some(span), .. }
                    | PathOutcome::Discarded { span, .. }
                    | PathOutcome::Internal { span: Some(span), .. },
                ..
            } => Some(self.line_of(*span)),
            _ => placed.span.map(|s| self.line_of(s)),
        }
    }

    /// The ids (`o3`, `ref1`, `loc2`) a forking event's texts mention, and its children's labels:
    /// all the page names with the event's `names` (words.js `named`, the tree's labels). Sorted,
    /// each once; borrowed from the texts (a `String` for each was a third of naming a fork).
    fn mentioned_ids<'a>(&'a self, js: &'a JsEvent) -> Vec<&'a str> {
        let mut ids = Vec::new();
        let tree = self.explorer.tree();
        let label = |id: u32| tree.get(id as usize).map_or("", |n| tree.label(&n));
        ids_in(&js.label, &mut ids);
        match &js.details {
            Details::LazyInit { target, options, children, .. } => {
                ids_in(target, &mut ids);
                options.iter().for_each(|o| ids_in(o, &mut ids));
                children.iter().for_each(|c| ids_in(label(*c), &mut ids));
            }
            Details::Branch { condition, children, .. } => {
                ids_in(condition, &mut ids);
                children.iter().for_each(|c| ids_in(label(c.node), &mut ids));
            }
            _ => {}
        }
        ids.sort_unstable();
        ids.dedup();
        ids
    }

    pub fn event_js(&self, placed: &Placed) -> JsEvent {
        let mut js = self.event_js_unplaced(&placed.event);
        js.line = self.event_line(placed);
        if let Event::LazyInit { state, .. } | Event::Branch { state, .. } = &placed.event {
            // Views are kept for the first VIEW_LIMIT nodes only, which bounds this work too.
            if (state.0 as usize) < VIEW_LIMIT {
                let wanted = self.mentioned_ids(&js);
                js.names = self.explorer.access_paths(*state, &wanted);
            }
        }
        js
    }
}

/// Adds to `out` each engine id in `text`: `o`, `ref` or `loc` and digits, as a whole word (the
/// page's pattern, `\b(?:o|ref|loc)\d+\b`).
fn ids_in<'a>(text: &'a str, out: &mut Vec<&'a str>) {
    for word in text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')) {
        let digits = ["o", "ref", "loc"].iter().find_map(|p| word.strip_prefix(p));
        if digits.is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit())) {
            out.push(word);
        }
    }
}

#[cfg(test)]
mod tests {
    /// The line table says what the source file's own search says, at every offset.
    #[test]
    fn the_line_table_agrees_with_the_source_file() {
        for text in ["", "a", "x\n", "\n\nfirst\r\nsecond é\nthird", "class A {\n  int f;\n}\n"] {
            let file = SourceFile::new("t.hl", text);
            let table = line_table(&file);
            assert_eq!(table.len(), text.len() + 1);
            for offset in 0..=text.len() as u32 + 2 {
                let expected = file.line(offset) as u32;
                let got = table.get(offset as usize).copied().unwrap_or(expected);
                assert_eq!(got, expected, "{text:?} at {offset}");
            }
        }
    }

    use super::*;

    /// The forking events' names come from a walk of the state itself, for the ids the event
    /// mentions; they are the names the whole view gives, on objects (bst.hl, under each strategy's references: objects, open
    /// references, locations) and on arrays of objects, whose cells are named by their index
    /// (vector.hl).
    #[test]
    fn fork_names_are_those_of_the_whole_view() {
        let bst = include_str!("../../../examples/bst.hl");
        let dll = include_str!("../../../examples/dll.hl");
        for (source, method, strategy, arrays) in [
            (bst, "BST.remove", "lazy", false),
            (bst, "BST.remove", "lazier#", false),
            (bst, "BST.remove", "sl", false),
            (bst, "BST.remove", "symheap", false),
            (dll, "LinkedList.remove", "lazier", false),
            (include_str!("../../../examples/vector.hl"), "Vector.indexOf", "lazy", true),
        ] {
            let options = format!(r#"{{"strategy": "{strategy}", "bounds": {{"k": 2}}}}"#);
            let request = Request::from_json(&options).unwrap_or_else(|e| panic!("{}", e.message));
            let mut run = Run::new(source.to_string(), method.into(), request, false, || 0.0)
                .unwrap_or_else(|e| panic!("{}", e.message));
            let (mut forks, mut named, mut cells) = (0, 0, 0);
            while let Next::Event(placed) = run.advance().expect("runs") {
                let (Event::LazyInit { state, .. } | Event::Branch { state, .. }) = placed.event
                else {
                    continue;
                };
                let js = run.event_js(&placed);
                let names = js.names.clone().expect("a view of a forking state");
                let whole = inspect::access_paths(&run.explorer.view(state).expect("kept"));
                let wanted = run.mentioned_ids(&js);
                let expected: std::collections::BTreeMap<String, String> =
                    whole.into_iter().filter(|(id, _)| wanted.contains(&id.as_str())).collect();
                assert_eq!(names, expected, "{method} {strategy}, state {}", state.0);
                forks += 1;
                named += usize::from(!names.is_empty());
                cells += names.values().filter(|n| n.contains('[')).count();
            }
            assert!(forks > 20, "{method} {strategy}: {forks} forks");
            // symheap's labels name references by the inputs they stand for already.
            let naming = strategy != "symheap";
            assert!(!naming || named * 2 > forks, "{method} {strategy}: {named} of {forks} forks");
            assert_eq!(cells > 0, arrays, "{method}: {cells} names of array cells");
        }
    }

    /// `tree: false` (the Compare tab's rows, the benches): no tree, no view, no record of a
    /// discarded path, and the same summary and tests as a run that keeps them.
    #[test]
    fn a_run_without_its_tree_has_the_same_summary_and_tests() {
        let source = include_str!("../../../examples/bst.hl").to_string();
        let run = |options: &str| {
            let request = Request::from_json(options).unwrap_or_else(|e| panic!("{}", e.message));
            let mut run = Run::new(source.clone(), "BST.remove".into(), request, false, || 0.0)
                .unwrap_or_else(|e| panic!("{}", e.message));
            while let Next::Event(_) = run.advance().expect("runs") {}
            assert!(run.try_generate().expect("generates").is_empty(), "no Z3 needed");
            run
        };
        let with = run(r#"{"strategy": "lazy", "bounds": {"k": 2}}"#);
        let without = run(r#"{"strategy": "lazy", "bounds": {"k": 2}, "tree": false}"#);
        let discarded = with.explorer.stats().infeasible;
        assert!(discarded > 0 && with.tree_nodes(0).len() > 100, "a run with a tree");
        assert!(without.tree_nodes(0).is_empty(), "a run without its tree keeps none");
        assert!(without.view(0).is_none() && with.view(0).is_some());
        assert!(without.explorer.paths().len() < with.explorer.paths().len());
        let plain = |r: &Run| {
            let mut s = serde_json::to_value(r.summary()).expect("serializes");
            s.as_object_mut().expect("an object").remove("time_ms");
            s
        };
        assert_eq!(plain(&without), plain(&with));
        assert_eq!(without.tests_json(), with.tests_json());
    }

    /// A program checked again is the one analysis, shared; another text or another file name
    /// (which decides the language) is checked afresh, and a program with errors is not kept.
    #[test]
    fn the_same_program_is_checked_once() {
        let bst = include_str!("../../../examples/bst.hl").to_string();
        let run = |source: &str, file: &str| {
            let request =
                Request::from_json(&format!(r#"{{"strategy": "lazier#", "file": "{file}"}}"#))
                    .unwrap_or_else(|e| panic!("{}", e.message));
            Run::new(source.to_string(), "BST.insert".into(), request, false, || 0.0)
        };
        let first = run(&bst, "bst.hl").unwrap_or_else(|e| panic!("{}", e.message));
        let again = run(&bst, "bst.hl").unwrap_or_else(|e| panic!("{}", e.message));
        assert!(Rc::ptr_eq(&first.analysis, &again.analysis));
        let renamed = run(&bst, "other.hl").unwrap_or_else(|e| panic!("{}", e.message));
        assert!(!Rc::ptr_eq(&first.analysis, &renamed.analysis));
        let edited = bst.replace("makeEmpty", "clearAll");
        let edited = run(&edited, "other.hl").unwrap_or_else(|e| panic!("{}", e.message));
        assert!(!Rc::ptr_eq(&renamed.analysis, &edited.analysis));
        let broken = format!("{bst}\nint broken( {{");
        assert!(run(&broken, "other.hl").is_err());
        assert!(run(&broken, "other.hl").is_err(), "an error is reported every time");
        let back = run(&bst, "bst.hl").unwrap_or_else(|e| panic!("{}", e.message));
        assert!(!Rc::ptr_eq(&back.analysis, &edited.analysis));
    }
}
