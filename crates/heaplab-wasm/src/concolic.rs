//! `concolicRun`: the `concolic` strategy (Concolic StarFinder, issue 16) in the browser, the
//! same driver as `heaplab run --strategy concolic`.
//!
//! The driver ([`heaplab_testgen::concolic::generate`]) is synchronous and wants every solver
//! answer at once; Z3 wasm answers through a JS Promise. Most queries never reach Z3 (constant
//! folding and the Rust decision procedure decide them), so the bridge is restart-and-replay,
//! as `satQuery` does it: the whole generation runs with solvers whose transport answers only
//! from stored Z3 replies and records every other script (the query then reads `unknown`). When
//! a pass recorded scripts, it is dropped: they are sent to `solve`, their replies stored, and
//! generation runs again from the start. The driver is deterministic (same bounds, same seed,
//! same order), so the pass that finds every reply stored is the one a synchronous Z3 would
//! have run. A pass bound stops a run whose queries keep needing new replies.

use std::cell::RefCell;
use std::rc::Rc;

use heaplab_engine::symbolic::{
    Clock, Config, Explorer, PathSolver, SatAnswer, SolverCounts, Sort, Sym,
};
use heaplab_logic::SmtOracle;
use heaplab_report::RunSummary;
use heaplab_smt::{NoZ3, SmtSolver, SolverFrontend};
use heaplab_syntax::SourceFile;
use heaplab_testgen::concolic::{self, ConcolicConfig, ConcolicEvent};
use heaplab_testgen::coverage::Lines;
use heaplab_testgen::emit;
use js_sys::{Function, Promise};
use serde::Serialize;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::future_to_promise;

use crate::explore::{
    checked, fail, parse_options, resolve, test_js, to_js, AsyncPathSolver, Backend, Bridge,
    JsTest, ReplayTransport, Shared,
};

#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &str = r#"
/** One step of the concolic loop; `node` is the path of child indices from the entry. */
export type ConcolicEventJs =
  | { kind: 'runInput'; run: number; phase: number }
  | { kind: 'branch'; node: number[]; label: string; new: boolean }
  | { kind: 'unexplored'; node: number[] }
  | { kind: 'tryNode'; node: number[] }
  | { kind: 'pruned'; node: number[]; why: string }
  | { kind: 'preprocess'; formulas: number; unfolds: number }
  | { kind: 'solve'; outcome: 'model' | 'unsat' | 'undecided' }
  | { kind: 'solved'; formula: string }
  | { kind: 'newInput'; test: string };
/** What `concolicRun` resolves to. `summary` is the run summary of `heaplab run --strategy
 * concolic --format json` (`RunSummary` in web/src/report-types.js; `time_ms`: wall time of
 * the final pass); `passes` counts generation runs (one more per batch of Z3 replies awaited),
 * `sent_to_z3` the questions Z3 answered. */
export interface ConcolicResult {
  summary: RunSummary;
  passes: number;
  sent_to_z3: number;
  tests: GeneratedTestJs[];
  /** Test index to phase (1 or 2). */
  phases: number[];
  hl: string;
  json: string;
  /** As `Exploration.testsJunit`, or `{ error }` when Java cannot express the program. */
  junit: JunitFiles | { error: string };
  events: ConcolicEventJs[];
}
/** What `concolicRun`'s `onEvent` gets, as the loop runs: the event, the generation pass it
 * belongs to (a new pass, after Z3's replies, starts the stream again from its first run), and
 * for `newInput` the new test (its input heap). */
export interface ConcolicLiveEvent {
  pass: number;
  event: ConcolicEventJs;
  test?: GeneratedTestJs;
}
"#;

/// At most this many generation passes (each after a batch of Z3 replies).
const MAX_PASSES: usize = 200;

/// Milliseconds since the run started, from the JS clock.
struct JsClock(f64);

impl Clock for JsClock {
    fn now_ms(&self) -> u64 {
        (js_sys::Date::now() - self.0).max(0.0) as u64
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
#[serde(tag = "kind", rename_all = "camelCase")]
enum JsEvent {
    RunInput { run: usize, phase: u8 },
    Branch { node: Vec<u16>, label: String, new: bool },
    Unexplored { node: Vec<u16> },
    TryNode { node: Vec<u16> },
    Pruned { node: Vec<u16>, why: &'static str },
    Preprocess { formulas: usize, unfolds: usize },
    Solve { outcome: &'static str },
    Solved { formula: String },
    NewInput { test: String },
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct LiveEvent {
    pass: usize,
    event: JsEvent,
    #[serde(skip_serializing_if = "Option::is_none")]
    test: Option<JsTest>,
}

fn event_js(e: &ConcolicEvent) -> JsEvent {
    match e.clone() {
        ConcolicEvent::RunInput { run, phase } => JsEvent::RunInput { run, phase },
        ConcolicEvent::Branch { node, label, new } => JsEvent::Branch { node, label, new },
        ConcolicEvent::Unexplored { node } => JsEvent::Unexplored { node },
        ConcolicEvent::TryNode { node } => JsEvent::TryNode { node },
        ConcolicEvent::Pruned { node, why } => JsEvent::Pruned { node, why },
        ConcolicEvent::Preprocess { formulas, unfolds } => {
            JsEvent::Preprocess { formulas, unfolds }
        }
        ConcolicEvent::Solve { outcome } => JsEvent::Solve { outcome },
        ConcolicEvent::Solved { formula } => JsEvent::Solved { formula },
        ConcolicEvent::NewInput { test } => JsEvent::NewInput { test },
    }
}

/// What `concolicRun` resolves to (`ConcolicResult`), snake_case as its summary.
#[derive(Serialize)]
struct JsResult {
    summary: RunSummary,
    passes: usize,
    sent_to_z3: usize,
    tests: Vec<JsTest>,
    phases: Vec<u8>,
    hl: String,
    json: String,
    /// `{ files: [{ name, text }], warnings }` as `heaplab run --emit junit` writes, or
    /// `{ error }` when the program cannot be translated to Java.
    junit: serde_json::Value,
    events: Vec<JsEvent>,
}

/// Runs CSF on `method` of `source` (see the module docs); resolves to `ConcolicResult`.
/// `solve`: the host's Z3 function, or `null` (then queries outside the Rust procedure's
/// fragment read `unknown`, as in an `Exploration` without Z3). `onEvent`, if given, is called
/// with each `ConcolicLiveEvent` as the loop records it (a throw there is ignored).
#[wasm_bindgen(js_name = concolicRun, unchecked_return_type = "Promise<ConcolicResult>")]
pub fn concolic_run(
    source: String,
    method: String,
    #[wasm_bindgen(unchecked_param_type = "ExploreOptions | undefined")] options: JsValue,
    #[wasm_bindgen(unchecked_param_type = "SmtSolveFn | null | undefined")] solve: Option<Function>,
    #[wasm_bindgen(js_name = onEvent, unchecked_param_type = "((e: ConcolicLiveEvent) => void) | null | undefined")]
    on_event: Option<Function>,
) -> Promise {
    future_to_promise(async move {
        // The same options as an `Exploration` (the Explore and Compare tabs pass theirs).
        let request = parse_options(options)?;
        let cfg = ConcolicConfig::from_options(&request.options);
        let name = request.file.clone().unwrap_or_else(|| "program.hl".to_string());
        let file = SourceFile::new(name, source.as_str());
        let analysis = checked(&file)?;
        let program = &analysis.program;
        let info = &analysis.info;
        // Branch sites of the method and what it calls, from an explorer that is only started.
        let mut sites_config = Config::default();
        request.options.bounds.apply(&mut sites_config.bounds);
        let sites = Explorer::new(
            program,
            info,
            &method,
            sites_config,
            Box::new(PassSolver(AsyncPathSolver::new(Rc::default(), false, true))),
            Box::new(heaplab_engine::symbolic::NoClock),
        )
        .map_err(|e| fail("BadMethod", &e.to_string()))?;
        let lines = Lines::new(program, &file);
        let bridge: Shared = Rc::new(RefCell::new(Bridge::default()));
        let z3 = solve.is_some();
        let mut passes = 0;
        // The time bound is wall time from here: a pass replayed after Z3's replies has what
        // is left of it, so the whole call stays within the bound (plus one pass's overshoot).
        let started = js_sys::Date::now();
        let (run, time_ms) = loop {
            passes += 1;
            bridge.borrow_mut().outstanding.clear();
            let backend = if z3 {
                Backend::Replay(SmtSolver::new(ReplayTransport(Rc::clone(&bridge))))
            } else {
                Backend::None(NoZ3)
            };
            let logic = SolverFrontend::with_clock(backend, js_sys::Date::now);
            let mut oracle = SmtOracle::new(&logic);
            let executor = PassSolver(AsyncPathSolver::new(Rc::clone(&bridge), z3, true));
            let pass_started = js_sys::Date::now();
            let clock = JsClock(started);
            let pass = passes;
            let mut observe = |e: &ConcolicEvent, g: &heaplab_testgen::Generation| {
                let Some(f) = &on_event else { return };
                let test = match e {
                    ConcolicEvent::NewInput { test } => g
                        .tests
                        .iter()
                        .find(|t| &t.name == test)
                        .map(|t| test_js(g, Some(&lines), t)),
                    _ => None,
                };
                if let Ok(v) = to_js(&LiveEvent { pass, event: event_js(e), test }) {
                    let _ = f.call1(&JsValue::NULL, &v);
                }
            };
            let r = concolic::generate_observed(
                program,
                info,
                &method,
                &cfg,
                &mut oracle,
                Box::new(executor),
                &clock,
                &mut observe,
            )
            .map_err(|e| fail("Generation", &format!("concolic test generation failed: {e}")))?;
            let time_ms = (js_sys::Date::now() - pass_started).max(0.0) as u64;
            let missing = std::mem::take(&mut bridge.borrow_mut().outstanding);
            // A pass the time bound stopped is the last: its queries that waited for Z3 read
            // `unknown` (pruned, counted), as a solver timeout does in the CLI.
            if missing.is_empty() || r.stats.stopped_by == Some("time") {
                break (r, time_ms);
            }
            if passes >= MAX_PASSES {
                return Err(fail(
                    "Bound",
                    &format!("concolic: still waiting for Z3 after {MAX_PASSES} passes"),
                ));
            }
            resolve(solve.as_ref(), &bridge, missing).await?;
        };
        let g = &run.generation;
        let s = &run.stats;
        let mut summary = RunSummary::of_concolic("program.hl", &method, &run, &sites, time_ms);
        let file = heaplab_syntax::SourceFile::new("program.hl".to_string(), source.clone());
        summary.findings = heaplab_report::findings::findings(&file, &[], g);
        let sent_to_z3 = bridge.borrow().replies.len();
        // JUnit as the CLI's concolic run writes it: no explorer paths behind the tests.
        let stem: String =
            method.chars().map(|c| if c.is_alphanumeric() { c } else { '_' }).collect();
        let junit_input = emit::junit::JunitInput {
            program,
            info,
            source: &source,
            package: Some(emit::junit::package_name(&stem)),
            paths: &[],
        };
        let junit = match emit::junit::junit(&junit_input, g) {
            Ok(java) => serde_json::json!({
                "files": java
                    .files
                    .into_iter()
                    .map(|(name, text)| serde_json::json!({ "name": name, "text": text }))
                    .collect::<Vec<_>>(),
                "warnings": java.warnings,
            }),
            Err(e) => serde_json::json!({ "error": e.to_string() }),
        };
        let out = JsResult {
            summary,
            passes,
            sent_to_z3,
            tests: g.tests.iter().map(|t| test_js(g, Some(&lines), t)).collect(),
            phases: s.phase_of_test.clone(),
            hl: emit::hl(&source, g),
            json: emit::json(g),
            junit,
            events: run.events.iter().map(event_js).collect(),
        };
        to_js(&out)
    })
}
