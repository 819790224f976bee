// The engine worker: the HeapLab engine (Rust compiled to wasm) and Z3 (wasm, loaded lazily).
// Bundled as a classic script (not a module worker) because Z3's Emscripten glue, z3-built.js,
// must be loaded with importScripts as its own file: its pthreads start new workers from it.
//
// Protocol (see engine.js): requests `{ id, type, ...payload }` get one answer
// `{ id, ok, result | error, errorName, crashed }`; events `{ type: 'engine' | 'z3' | 'log', ... }`
// are pushed without an id.

import initEngine, * as wasm from '../pkg/heaplab_wasm.js';
import { initZ3, solve } from './z3-bridge.js';

// Emscripten's glue and z3-solver expect a `global`; a worker has only `self`/`globalThis`.
globalThis.global = globalThis;

/* global __Z3_WASM_BYTES__ */
// The uncompressed size of z3-built.wasm, written in by build.mjs, for the progress bar.
const Z3_WASM_BYTES = typeof __Z3_WASM_BYTES__ === 'number' ? __Z3_WASM_BYTES__ : 0;

const post = (message) => self.postMessage(message);
const log = (kind, text) => post({ type: 'log', kind, text });

// A Rust panic prints through console.error (console_error_panic_hook) and then traps; keep the
// last message so the page can say what went wrong.
let lastConsoleError = '';
const consoleError = console.error.bind(console);
console.error = (...args) => {
  lastConsoleError = args.map(String).join(' ');
  consoleError(...args);
};

const engineReady = (async () => {
  const started = performance.now();
  try {
    await initEngine({ module_or_path: new URL('heaplab_wasm_bg.wasm', self.location.href) });
  } catch (err) {
    const message = `The HeapLab engine (wasm) could not load: ${err?.message ?? err}`;
    post({ type: 'engine', state: 'error', message });
    throw err;
  }
  const version = typeof wasm.version === 'function' ? wasm.version() : '';
  post({ type: 'engine', state: 'ready', version, ms: Math.round(performance.now() - started) });
})();

// ---- Z3 ---------------------------------------------------------------------------------------

let z3Loading = null;
let z3Ready = false;
// The SMT console's time limit for Z3 (its `:timeout` option; check-sat then says unknown).
const SMT_TIMEOUT_MS = 10000;
// Each question to Z3 reruns the logic's search from the start; past this many, stop asking.
const MAX_Z3_ROUNDS = 200;

/** Downloads z3-built.wasm ourselves so that the page can show progress. */
async function fetchWithProgress(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  const total = Z3_WASM_BYTES || Number(response.headers.get('Content-Length')) || 0;
  if (!response.body) return new Uint8Array(await response.arrayBuffer());
  const reader = response.body.getReader();
  const chunks = [];
  let loaded = 0;
  let lastPost = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    loaded += value.length;
    const now = performance.now();
    if (now - lastPost > 100) {
      lastPost = now;
      post({ type: 'z3', state: 'downloading', loaded, total });
    }
  }
  post({ type: 'z3', state: 'downloading', loaded, total: Math.max(total, loaded) });
  const bytes = new Uint8Array(loaded);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return bytes;
}

function loadZ3() {
  if (z3Loading) return z3Loading;
  z3Loading = (async () => {
    const started = performance.now();
    if (typeof SharedArrayBuffer === 'undefined' || self.crossOriginIsolated === false) {
      throw Object.assign(new Error('SharedArrayBuffer is not available: the page is not cross-origin isolated'), {
        name: 'NotIsolated',
      });
    }
    post({ type: 'z3', state: 'downloading', loaded: 0, total: Z3_WASM_BYTES });
    const scriptUrl = new URL('z3-built.js', self.location.href).href;
    const wasmUrl = new URL('z3-built.wasm', self.location.href).href;
    const binary = await fetchWithProgress(wasmUrl);
    post({ type: 'z3', state: 'starting' });
    importScripts(scriptUrl);
    // z3-built.js defines `initZ3(moduleArg)`. In a worker it cannot find its own URL (there is
    // no document.currentScript), so tell it where it lives for its pthread workers, and hand
    // it the bytes we already downloaded.
    const emscriptenInit = globalThis.initZ3;
    globalThis.initZ3 = (moduleArg = {}) =>
      emscriptenInit({ mainScriptUrlOrBlob: scriptUrl, wasmBinary: binary, ...moduleArg });
    await initZ3();
    // A real query, so that "ready" means Z3 answers.
    const answer = (await solve('(declare-const x Int)(assert (> x 1))(check-sat)')).trim();
    if (answer !== 'sat') throw new Error(`Z3 answered "${answer}" to a trivial query`);
    const ms = Math.round(performance.now() - started);
    z3Ready = true;
    post({ type: 'z3', state: 'ready', ms });
    log('z3', `Z3 ready in ${ms} ms`);
  })();
  z3Loading.catch((err) => {
    z3Loading = null;
    post({ type: 'z3', state: 'error', name: err?.name ?? 'Error', message: String(err?.message ?? err) });
  });
  return z3Loading;
}

/**
 * Whether Z3 can run in this worker at all: Z3 wasm needs SharedArrayBuffer, which a browser
 * gives only to a cross-origin isolated page (not to a frame inside a page that is not isolated).
 */
const z3Possible = () => typeof SharedArrayBuffer !== 'undefined' && self.crossOriginIsolated !== false;

/**
 * The solve function an exploration gets: Z3 (loaded on demand) where it can run; null where it
 * cannot, so that the engine's Rust decision procedure answers alone and a query outside its
 * fragment comes back `unknown` (counted in `solverStats().unknownWithoutZ3`), never wrong.
 */
const solverForExploration = () => (z3Possible() ? solveWhenReady : null);

/** The `NoZ3` error: a query fell outside the Rust procedure where Z3 cannot run. */
const noZ3 = () => Object.assign(new Error(NO_Z3), { name: 'NoZ3' });

/** The message of a query that needs Z3 where Z3 cannot run. */
const NO_Z3 = 'This step needs Z3, the solver for the questions HeapLab cannot decide by itself, ' +
  'and Z3 cannot run here: the page embedding HeapLab is not cross-origin isolated.';

/**
 * The solve function explorations get: Z3 is loaded in the background, so an exploration starts
 * at once; a query that needs Z3 before it is ready waits for it here (the page says so), and
 * where Z3 cannot run, the query fails with `NoZ3` instead of waiting forever.
 */
let z3Queries = 0;
async function solveWhenReady(text) {
  if (!z3Possible()) throw Object.assign(new Error(NO_Z3), { name: 'NoZ3' });
  z3Queries += 1;
  if (!z3Ready) {
    post({ type: 'z3wait', waiting: true });
    try {
      await loadZ3();
    } finally {
      post({ type: 'z3wait', waiting: false });
    }
  }
  return solve(text);
}

// ---- symbolic exploration ------------------------------------------------------------------------
//
// One exploration lives here at a time (a new one replaces it). The page steps it (one event, or
// to the next decision) or runs it; a run posts batches of events and new tree nodes every
// BATCH_MS and yields to the message loop in between, so that a pause request gets through. The
// page's Cancel terminates the whole worker, which always works.

const BATCH_MS = 120;
// Events the page sees (they change the tree, or, like `sl`'s model of a path's remaining
// input, are said in words); solver queries are only counted.
const TREE_EVENTS = new Set(['start', 'lazyInit', 'branch', 'disjuncts', 'slModel', 'pathEnd', 'stopped']);
// "Step over" stops at these: the next decision or path end.
const DECISIONS = new Set(['lazyInit', 'branch', 'disjuncts', 'pathEnd', 'stopped']);
// Step over never runs more events than this in one go.
const STEP_OVER_LIMIT = 20000;

let exploration = null; // { ex, runId, method, strategy, treeCount, paused, queries, finished }

const yieldToMessages = () => new Promise((resolve) => setTimeout(resolve, 0));

function currentRun(runId) {
  if (!exploration || exploration.runId !== runId) {
    throw Object.assign(new Error('this exploration is no longer running; start it again'), { name: 'Stale' });
  }
  return exploration;
}

/** Frees an exploration's wasm memory once nothing is stepping it. */
function retire(run) {
  if (!run) return;
  run.paused = true;
  run.retired = true;
  if (!run.busy) run.ex.free();
}

/** Runs `work` with the exploration marked busy, so that `retire` waits for it. */
async function busy(run, work) {
  run.busy = true;
  try {
    return await work();
  } finally {
    run.busy = false;
    if (run.retired) run.ex.free();
  }
}

/** Everything a batch carries: the kept events, the tree nodes created since the last batch. */
function batchOf(run, events) {
  const nodes = run.ex.treeSince(run.treeCount);
  run.treeCount += nodes.length;
  const summary = run.ex.summary();
  // Which solver answered how many queries (decided in Rust, by Z3, remembered; unknown
  // without Z3), for the status line.
  const solver = run.ex.solverStats();
  return { events, nodes, summary, solver, queries: run.queries, z3Queries };
}

/**
 * Without Z3, a query outside the Rust procedure's fragment is answered `unknown`: the run
 * stops there with `NoZ3` (the page offers the full HeapLab) rather than showing tests that
 * would miss or mislabel that path.
 */
function checkFragment(run) {
  if (run.withoutZ3 && run.ex.solverStats().unknownWithoutZ3 > 0) throw noZ3();
}

/** The results of an exploration that is over: tests, coverage and every download. */
function finished(run) {
  const { ex } = run;
  let junit;
  try {
    junit = ex.testsJunit(run.method.replace(/\W+/g, '_'));
  } catch (err) {
    junit = { error: String(err?.message ?? err) };
  }
  return {
    summary: ex.summary(),
    tests: ex.tests(),
    coverage: ex.coverage(),
    downloads: { hl: ex.testsHl(), json: ex.testsJson(), junit },
  };
}

/**
 * Steps until `stop(event)` says so or the exploration is over; `null` event = over. Solver
 * queries are kept only when `queries` is set (single steps show them; runs only count them).
 */
async function advance(run, stop, deadline, queries = false) {
  const events = [];
  for (;;) {
    const event = await run.ex.step();
    if (event === null) {
      // The models of the paths' tests are queries too.
      checkFragment(run);
      return { events, over: true };
    }
    if (event.kind === 'solverQuery') {
      run.queries += 1;
      checkFragment(run);
      if (queries) events.push(event);
    } else if (TREE_EVENTS.has(event.kind)) events.push(event);
    if (stop(event, events.length) || performance.now() > deadline) return { events, over: false };
  }
}

/** Runs until the end or a pause, posting a batch every BATCH_MS (see exploreRun). */
async function runBatches(run, runId) {
  for (;;) {
    const { events, over } = await advance(run, () => run.paused, performance.now() + BATCH_MS);
    if (over) return { ...batchOf(run, events), over: true, ...finished(run) };
    if (run.retired) throw Object.assign(new Error('replaced by a new exploration'), { name: 'Stale' });
    post({ type: 'explore', runId, ...batchOf(run, events) });
    await yieldToMessages();
    if (run.paused) return { over: false, paused: true, ...batchOf(run, []) };
  }
}

const exploreHandlers = {
  async exploreStart({ source, method, options, runId }) {
    await engineReady;
    retire(exploration);
    exploration = null;
    const solve = solverForExploration();
    const ex = new wasm.Exploration(source, method, { ...options, file: 'program.hl' }, solve);
    exploration = {
      ex, runId, method, treeCount: 0, paused: false, queries: 0, busy: false, retired: false, withoutZ3: solve === null,
    };
    return true;
  },
  /** `mode`: 'event' (one event) or 'decision' (to the next decision or path end). */
  async exploreStep({ runId, mode }) {
    const run = currentRun(runId);
    run.paused = false;
    // Step: exactly one event, a solver query included. Step over: to the next decision.
    const stop = mode === 'event'
      ? () => true
      : (event, kept) => DECISIONS.has(event.kind) || kept > STEP_OVER_LIMIT;
    return busy(run, async () => {
      const { events, over } = await advance(run, stop, Infinity, mode === 'event');
      return { ...batchOf(run, events), over, ...(over ? finished(run) : {}) };
    });
  },
  /** Runs until the end or a pause, posting a batch every BATCH_MS. */
  async exploreRun({ runId }) {
    const run = currentRun(runId);
    run.paused = false;
    return busy(run, async () => {
      try {
        return await runBatches(run, runId);
      } catch (err) {
        // The page keeps the tree explored so far (e.g. up to a query that needed Z3).
        if (err?.name !== 'Stale' && !run.retired) {
          try {
            post({ type: 'explore', runId, ...batchOf(run, []) });
          } catch {
            // The exploration is unusable; the error below says why.
          }
        }
        throw err;
      }
    });
  },
  async explorePause({ runId }) {
    if (exploration && exploration.runId === runId) exploration.paused = true;
    return true;
  },
  /**
   * Cancel that keeps what was found: exploration stops at the next event and the tests of the
   * paths found so far are generated (the page marks them partial). A run in progress answers
   * its own request with them; otherwise this request does.
   */
  async exploreStop({ runId }) {
    if (!exploration || exploration.runId !== runId) return null;
    const run = exploration;
    run.ex.cancel();
    run.stopped = true;
    if (run.busy) return null;
    return busy(run, async () => {
      const { events, over } = await advance(run, () => false, Infinity);
      return { ...batchOf(run, events), over, ...(over ? finished(run) : {}) };
    });
  },
  async exploreView({ runId, node }) {
    const run = currentRun(runId);
    return run.ex.view(node);
  },
  /** `symheap`: concrete worlds of a node (models decided in Rust, no Z3 round trip). */
  async exploreWorlds({ runId, node }) {
    const run = currentRun(runId);
    return run.ex.worlds(node);
  },
  /** Every strategy on the same method and bounds, as `heaplab compare` runs them (`concolic`
   * too, through `concolicRun`: see concolicRow). */
  async compare({ source, method, options, strategies }) {
    await engineReady;
    const rows = [];
    const registry = wasm.strategies();
    for (const strategy of strategies) {
      post({ type: 'compare', current: strategy, rows });
      // A registry row with its own driver (concolic) runs through concolicRun.
      if (registry.find((s) => s.name === strategy)?.driver === 'concolic_loop') {
        rows.push(await concolicRow(source, method, { ...options, strategy }));
        continue;
      }
      // The same options as an exploration in the Explore tab, the precondition mode included,
      // so that a row and the Explore tab's run agree.
      const pre = options.pre ?? 'assume';
      const solve = solverForExploration();
      const ex = new wasm.Exploration(source, method, { ...options, strategy, pre, file: 'program.hl' }, solve);
      try {
        const summary = await ex.runToEnd();
        const solver = ex.solverStats();
        if (solve === null && solver.unknownWithoutZ3 > 0) throw noZ3();
        rows.push({ ...summary, pre, solver });
      } finally {
        ex.free();
      }
    }
    return rows;
  },
};

/**
 * The concolic row of a comparison: its run summary (the keys of `heaplab compare`'s rows;
 * CSF's `#Calls` under `concolic`), Z3's questions, wall time. The same options as the
 * Explore tab's concolic run (phase-1 depth, run cap, time bound); `requires` is always used.
 */
async function concolicRow(source, method, options) {
  const started = performance.now();
  const r = await wasm.concolicRun(source, method, options, solverForExploration());
  return { ...r.summary, solver: { sentToZ3: r.sent_to_z3 }, time_ms: Math.round(performance.now() - started) };
}

// ---- requests ---------------------------------------------------------------------------------

const handlers = {
  ...exploreHandlers,
  /** The strategy registry and default bounds, for the controls. */
  async info() {
    await engineReady;
    return { strategies: wasm.strategies() };
  },
  /**
   * The `concolic` strategy (Concolic StarFinder): the whole run at once, with its event stream,
   * which the page replays run by run (views/concolic.js). Z3's replies are awaited inside.
   * While it runs, its events are posted as they happen (`{ type: 'concolicLive', runId, pass,
   * events }`, a batch every BATCH_MS, the first at once) so that the page grows the tree live;
   * a new `pass` (a replay after Z3's replies) starts the stream again.
   */
  async concolicRun({ source, method, options, runId }) {
    await engineReady;
    let batch = [];
    let pass = 0;
    let last = -Infinity;
    const flush = () => {
      if (batch.length) post({ type: 'concolicLive', runId, pass, events: batch });
      batch = [];
      last = performance.now();
    };
    const onEvent = (live) => {
      if (live.pass !== pass) {
        flush();
        pass = live.pass;
      }
      batch.push(live);
      if (performance.now() - last > BATCH_MS) flush();
    };
    try {
      return await wasm.concolicRun(source, method, options, solverForExploration(), onEvent);
    } finally {
      flush();
    }
  },
  async methods({ source }) {
    await engineReady;
    return wasm.methods(source);
  },
  async check({ source }) {
    await engineReady;
    return wasm.check(source);
  },
  async runTests({ source }) {
    await engineReady;
    return wasm.runTests(source);
  },
  /**
   * Satisfiability or enumeration of a formula. heaplab-logic decides most pure facts itself;
   * once Z3 is ready, the rest go to Z3: the search stops at a question Z3 has not answered yet
   * (`kind: 'pending'`), we ask Z3, and run the search again with the reply.
   */
  async sat({ source, formula, enumerate, maxObjects }) {
    await engineReady;
    const options = { enumerate: Boolean(enumerate), maxObjects };
    if (!z3Ready) return { ...wasm.satQuery(source, formula, options), solver: 'builtin', queries: 0 };
    const answers = {};
    for (let queries = 0; queries < MAX_Z3_ROUNDS; queries += 1) {
      const res = wasm.satQuery(source, formula, { ...options, answers });
      if (res.kind !== 'pending') return { ...res, solver: 'z3', queries };
      answers[res.script] = await solve(res.script);
      log('smt', `${res.script.trim()}\n;; => ${answers[res.script].trim()}`);
    }
    const res = wasm.satQuery(source, formula, options);
    return { ...res, solver: 'builtin', queries: MAX_Z3_ROUNDS, note: `Z3 was asked ${MAX_Z3_ROUNDS} questions; the rest was decided without it.` };
  },
  async syntax({ source }) {
    await engineReady;
    return wasm.syntaxDump(source);
  },
  /**
   * The SMT console: one script, with Z3's own time limit, and error line numbers counted from
   * the script's first line (Z3's parser keeps counting lines across the scripts of one context,
   * so a probe just before the script says where it starts).
   */
  async smt({ text, timeoutMs = SMT_TIMEOUT_MS }) {
    await loadZ3();
    const started = performance.now();
    const probe = await solve('(heaplab-line-probe)');
    const at = /line:? (\d+)/.exec(probe);
    // The probe is the second line of its wrapped script (after the push), and the script it
    // is wrapped in ends two lines later; the console's script starts one line after that, with
    // the push and the time-limit line first.
    const first = at ? Number(at[1]) + 1 + 2 : null;
    const answer = await solve(`(set-option :timeout ${timeoutMs})\n${text}`);
    const fixed = first === null ? answer
      : answer.replace(/\bline(:?) (\d+)/g, (m, colon, n) => `line${colon} ${Math.max(1, Number(n) - first)}`);
    log('smt', `${text.trim()}\n;; => ${fixed.trim()} (${Math.round(performance.now() - started)} ms)`);
    return fixed;
  },
  async loadZ3() {
    await loadZ3();
    return true;
  },
  /** What this worker downloaded (Resource Timing), for the budget script and the debug panel. */
  async resources() {
    return performance.getEntriesByType('resource').map((e) => ({
      name: e.name, transferSize: e.transferSize, encodedBodySize: e.encodedBodySize,
    }));
  },
};

// A panic inside an asynchronous wasm call (an exploration step runs as a future that
// wasm-bindgen drives from microtasks) escapes every request's try/catch. Report it as a crash
// with the panic's message; the page restarts the worker.
function fatal(reason) {
  const message = `The engine crashed (a bug in HeapLab, not in your program): ${lastConsoleError || String(reason?.message ?? reason)}`;
  post({ type: 'fatal', message });
}
self.addEventListener('error', (event) => {
  event.preventDefault();
  fatal(event.error ?? event.message);
});
self.addEventListener('unhandledrejection', (event) => {
  event.preventDefault();
  fatal(event.reason);
});

self.onmessage = async ({ data }) => {
  const { id, type } = data;
  const handler = handlers[type];
  try {
    if (!handler) throw new Error(`unknown request type "${type}"`);
    const result = await handler(data);
    if (id) post({ id, ok: true, result });
  } catch (err) {
    // A trap in the wasm engine is a WebAssembly.RuntimeError: a Rust panic, always our bug.
    // The instance may be broken afterwards, so the page restarts the worker.
    const crashed = err instanceof WebAssembly.RuntimeError;
    const error = crashed
      ? `The engine crashed (a bug in HeapLab, not in your program): ${lastConsoleError || err.message}`
      : String(err?.message ?? err);
    // `kind` names the engine's error (`ProgramHasErrors`, `WasmLoad`...); a query that needed
    // Z3 where it cannot run is `NoZ3` whichever way it came back.
    const kind = String(err?.message ?? '').includes(NO_Z3) || err?.name === 'NoZ3' ? 'NoZ3' : err?.kind;
    if (id) post({ id, ok: false, error, errorName: err?.name ?? 'Error', errorKind: kind, crashed });
  }
};
