//! The `concolic` strategy (Concolic StarFinder, issue 16) for a host whose Z3 answers later:
//! the same driver as `heaplab run --strategy concolic`, run pass by pass.
//!
//! The driver ([`heaplab_testgen::concolic::generate`]) is synchronous and wants every solver
//! answer at once. Most queries never reach Z3 (constant folding and the Rust decision
//! procedure decide them), so the bridge is restart-and-replay, as `satQuery` does it: a whole
//! generation ([`Concolic::pass`]) runs with solvers whose transport answers only from stored
//! Z3 replies and records every other script (the query then reads `unknown`). When a pass
//! recorded scripts, it is dropped: the host sends them to Z3, stores the replies and runs the
//! next pass from the start. The driver is deterministic (same bounds, same seed, same order),
//! so the pass that finds every reply stored is the one a synchronous Z3 would have run. A pass
//! bound ([`MAX_PASSES`]) stops a run whose queries keep needing new replies.

use std::cell::RefCell;
use std::rc::Rc;

use heaplab_engine::symbolic::{
    Clock, Config, Explorer, PathSolver, SatAnswer, SolverCounts, Sort, Sym,
};
use heaplab_logic::SmtOracle;
use heaplab_report::RunSummary;
use heaplab_smt::SolverFrontend;
use heaplab_syntax::{Analysis, SourceFile};
use heaplab_testgen::concolic::{self, ConcolicConfig, ConcolicEvent};
use heaplab_testgen::coverage::Lines;
use heaplab_testgen::emit;
use serde::Serialize;

use crate::exploration::{checked, Request};
use crate::junit::{junit, JunitSource};
use crate::replay_solver::{AsyncPathSolver, Backend, Bridge, ReplayTransport, Shared};
use crate::tests_view::{test_js, JsTest};
use crate::{fail, Failure};

/// At most this many generation passes (each after a batch of Z3 replies).
pub const MAX_PASSES: usize = 200;

/// Milliseconds since the run started, from the host's clock.
struct HostClock {
    started: f64,
    now: fn() -> f64,
}

impl Clock for HostClock {
    fn now_ms(&self) -> u64 {
        ((self.now)() - self.started).max(0.0) as u64
    }
}

/// The executor's solver for one pass: the explorer's replay solver, with "pending" read as
/// `unknown` (the pass that met it is dropped anyway; the driver has no pending protocol).
struct PassSolver(AsyncPathSolver);

impl PathSolver for PassSolver {
    fn check_with_model(
        &mut self,
        conjuncts: &[Sym],
        vars: &[(u32, Sort)],
    ) -> (SatAnswer, Option<heaplab_engine::symbolic::Model>) {
        match self.0.check_with_model(conjuncts, vars) {
            (SatAnswer::Pending, _) => (SatAnswer::Unknown, None),
            other => other,
        }
    }
    fn counts(&self) -> SolverCounts {
        self.0.counts()
    }
    fn note_local(&mut self) {
        self.0.note_local();
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LiveEvent {
    pub pass: usize,
    pub event: ConcolicEvent,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub test: Option<JsTest>,
}

/// What `concolicRun` resolves to (`ConcolicResult`), snake_case as its summary.
#[derive(Serialize)]
pub struct JsResult {
    pub summary: RunSummary,
    pub passes: usize,
    sent_to_z3: usize,
    pub tests: Vec<JsTest>,
    pub phases: Vec<u8>,
    pub hl: String,
    pub json: String,
    /// `{ files: [{ name, text }], warnings }` as `heaplab run --emit junit` writes, or
    /// `{ error }` when the program cannot be translated to Java.
    pub junit: serde_json::Value,
    pub events: Vec<ConcolicEvent>,
}

/// One concolic run of `method`, pass by pass (see the module docs).
pub struct Concolic {
    source: String,
    method: String,
    cfg: ConcolicConfig,
    analysis: Rc<Analysis>,
    /// An explorer that is only started: the branch sites of the method and what it calls.
    sites: Explorer,
    lines: Lines,
    /// Z3's replies and the scripts still waiting for one, shared with every pass's solvers.
    pub bridge: Shared,
    z3: bool,
    now: fn() -> f64,
    /// The time bound is wall time from here: a pass replayed after Z3's replies has what is
    /// left of it, so the whole call stays within the bound (plus one pass's overshoot).
    started: f64,
    passes: usize,
}

/// What a pass came to.
pub enum Pass {
    /// The run is over: its result.
    Done(Box<JsResult>),
    /// Dropped: these scripts need Z3's replies before the next pass.
    Missing(Vec<String>),
}

impl Concolic {
    /// A run with the same options as an `Exploration` (the Explore and Compare tabs pass
    /// theirs); `z3`: whether the host answers scripts; `now`: its clock in milliseconds.
    pub fn new(
        source: String,
        method: String,
        request: &Request,
        z3: bool,
        now: fn() -> f64,
    ) -> Result<Concolic, Failure> {
        let cfg = ConcolicConfig::from_options(&request.options);
        let name = request.file.clone().unwrap_or_else(|| "program.hl".to_string());
        let file = SourceFile::new(name, source.as_str());
        let analysis = checked(&file)?;
        let mut sites_config = Config::default();
        request.options.bounds.apply(&mut sites_config.bounds);
        let sites = Explorer::new(
            &analysis.program,
            &analysis.info,
            &method,
            sites_config,
            Box::new(PassSolver(AsyncPathSolver::new(Rc::default(), false, true, now))),
            Box::new(heaplab_engine::symbolic::NoClock),
        )
        .map_err(|e| fail("BadMethod", &e.to_string()))?;
        let lines = Lines::new(&analysis.program, &file);
        Ok(Concolic {
            source,
            method,
            cfg,
            analysis,
            sites,
            lines,
            bridge: Rc::new(RefCell::new(Bridge::default())),
            z3,
            now,
            started: now(),
            passes: 0,
        })
    }

    /// Runs one whole generation; `on_event` sees each event as the loop records it.
    pub fn pass(&mut self, on_event: &mut dyn FnMut(&LiveEvent)) -> Result<Pass, Failure> {
        self.passes += 1;
        let bridge = &self.bridge;
        bridge.borrow_mut().outstanding.clear();
        let backend = Backend::new(self.z3.then(|| ReplayTransport(Rc::clone(bridge))));
        let logic = SolverFrontend::with_clock(backend, self.now);
        let mut oracle = SmtOracle::new(&logic);
        let executor = PassSolver(AsyncPathSolver::new(Rc::clone(bridge), self.z3, true, self.now));
        let pass_started = (self.now)();
        let clock = HostClock { started: self.started, now: self.now };
        let (pass, lines) = (self.passes, &self.lines);
        let mut observe = |e: &ConcolicEvent, g: &heaplab_testgen::Generation| {
            let test = match e {
                ConcolicEvent::NewInput { test } => {
                    g.tests.iter().find(|t| &t.name == test).map(|t| test_js(g, Some(lines), t))
                }
                _ => None,
            };
            on_event(&LiveEvent { pass, event: e.clone(), test });
        };
        let r = concolic::generate_observed(
            &self.analysis.program,
            &self.analysis.info,
            &self.method,
            &self.cfg,
            &mut oracle,
            Box::new(executor),
            &clock,
            &mut observe,
        )
        .map_err(|e| fail("Generation", &format!("concolic test generation failed: {e}")))?;
        let time_ms = ((self.now)() - pass_started).max(0.0) as u64;
        let missing = std::mem::take(&mut bridge.borrow_mut().outstanding);
        // A pass the time bound stopped is the last: its queries that waited for Z3 read
        // `unknown` (pruned, counted), as a solver timeout does in the CLI.
        if missing.is_empty() || r.stats.stopped_by == Some("time") {
            return Ok(Pass::Done(Box::new(self.result(&r, time_ms))));
        }
        if self.passes >= MAX_PASSES {
            return Err(fail(
                "Bound",
                &format!("concolic: still waiting for Z3 after {MAX_PASSES} passes"),
            ));
        }
        Ok(Pass::Missing(missing))
    }

    /// The result of the last pass: summary, tests and their emitted forms, events.
    fn result(&self, run: &concolic::ConcolicRun, time_ms: u64) -> JsResult {
        let source = &self.source;
        let g = &run.generation;
        let s = &run.stats;
        let mut summary =
            RunSummary::of_concolic("program.hl", &self.method, run, &self.sites, time_ms);
        let file = SourceFile::new("program.hl".to_string(), source.clone());
        summary.findings = heaplab_report::findings::findings(&file, &[], g);
        // Coverage of the feasible directions, as `heaplab run --strategy concolic` reports it
        // (the page keeps every run's test: its events name each run's input).
        let program = &self.analysis.program;
        let f = heaplab_testgen::feasible::of_concolic(program, &self.sites, g, s);
        summary.feasibility = Some(heaplab_report::summary::FeasibilityReport::new(
            &f,
            &heaplab_testgen::coverage::Lines::new(program, &file),
        ));
        let sent_to_z3 = self.bridge.borrow().replies.len();
        // JUnit as the CLI's concolic run writes it: no explorer paths behind the tests.
        let stem: String =
            self.method.chars().map(|c| if c.is_alphanumeric() { c } else { '_' }).collect();
        let input = JunitSource {
            analysis: &self.analysis,
            source,
            java: None,
            stem: &stem,
            settings: "",
            paths: &[],
        };
        let junit = match junit(&input, g) {
            Ok(files) => serde_json::to_value(files).unwrap_or_default(),
            Err(e) => serde_json::json!({ "error": e.message }),
        };
        JsResult {
            summary,
            passes: self.passes,
            sent_to_z3,
            tests: g.tests.iter().map(|t| test_js(g, Some(&self.lines), t)).collect(),
            phases: s.phase_of_test.clone(),
            hl: emit::hl(source, g),
            json: emit::json(g),
            junit,
            events: run.events.clone(),
        }
    }
}
