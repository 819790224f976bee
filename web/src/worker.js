// The engine worker: the HeapLab engine (Rust compiled to wasm). Z3 lives in a worker of its own
// (z3-worker.js), which engine.js starts only once something needs it; this worker asks it
// through a MessagePort (`z3port`, a MessageChannel between the two workers) and never waits for
// it to start a run: most questions are decided by the engine itself.
//
// Protocol (see engine.js): requests `{ id, type, ...payload }` get one answer
// `{ id, ok, result | error, errorName, crashed }`; events `{ type: 'log' | 'z3need' | 'z3wait'
// | 'explore' | 'exploreDownloads' | ..., ... }` are pushed without an id. `z3need` asks engine.js for Z3 (the first
// query that needs it).

import initEngine, * as wasm from '../pkg/heaplab_wasm.js';
import { columnBuffers, columnLength } from './tree-columns.js';
import { DEFAULT_STRATEGY } from './vocabulary.js';

const post = (message, transfer = []) => self.postMessage(message, transfer);
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

// ---- Z3, in its own worker --------------------------------------------------------------------

// Each question to Z3 reruns the logic's search from the start; past this many, stop asking.
const MAX_Z3_ROUNDS = 200;

// The port to the Z3 worker (engine.js sends it first thing), whether Z3 said it is ready, and
// the scripts waiting for its answer.
let z3Port = null;
let z3Ready = false;
let z3Asked = false;
let nextZ3Id = 1;
const z3Pending = new Map();

function attachZ3(port) {
  z3Port = port;
  port.onmessage = ({ data }) => {
    if (data?.type === 'ready') {
      z3Ready = true;
      return;
    }
    const waiter = z3Pending.get(data.id);
    if (!waiter) return;
    z3Pending.delete(data.id);
    if (data.ok) waiter.resolve(data.result);
    else waiter.reject(Object.assign(new Error(data.error), { name: data.name || 'Error' }));
  };
}

/** One script to Z3; the first one asks engine.js to start the Z3 worker. */
function askZ3(text) {
  if (!z3Port) return Promise.reject(new Error('no channel to the Z3 worker'));
  if (!z3Asked) {
    z3Asked = true;
    post({ type: 'z3need' });
  }
  const id = nextZ3Id++;
  return new Promise((resolve, reject) => {
    z3Pending.set(id, { resolve, reject });
    z3Port.postMessage({ id, text });
  });
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
const solverForExploration = (clock) => (z3Possible() ? solveWithin(clock) : null);

/** The `NoZ3` error: a query fell outside the Rust procedure where Z3 cannot run. */
const noZ3 = () => Object.assign(new Error(NO_Z3), { name: 'NoZ3' });

/** The message of a query that needs Z3 where Z3 cannot run. */
const NO_Z3 = 'This step needs Z3, the solver for the questions HeapLab cannot decide by itself, ' +
  'and Z3 cannot run here: the page embedding HeapLab is not cross-origin isolated.';

// ---- the run's time bound while a query waits for Z3 to load --------------------------------
//
// The engine bounds each Z3 query by the run's time left (`:timeout`), but Z3 cannot apply that
// bound before it exists: a query that arrives while Z3 is still downloading or starting waits
// here, and the wait itself must stop when the run's time bound runs out. Each run has a clock
// of the time it spent working (as the engine's own, not counting pauses between steps); the
// wait ends at the bound with `Z3LoadError`, which the engine reports as Z3 not loading.

/** The whole run's time bound in ms (0: none): the run's option, else the bound table's default. */
function timeBoundMs(options) {
  const given = options?.bounds?.timeout_ms;
  if (Number.isFinite(given)) return given;
  const row = wasm.bounds().find((b) => b.name === 'timeout_ms');
  return row?.default ?? 0;
}

/** A clock of a run's working time; `running`: started now (a request that runs to its end). */
const makeClock = (limitMs, running) => ({ limitMs, spentMs: 0, since: running ? performance.now() : null });

/** Runs one engine call of `clock`'s run with the clock running. */
async function timed(clock, call) {
  clock.since = performance.now();
  try {
    return await call();
  } finally {
    clock.spentMs += performance.now() - clock.since;
    clock.since = null;
  }
}

/** What is left of `clock`'s time bound, in ms (Infinity: no bound). */
function timeLeft(clock) {
  if (!clock || !(clock.limitMs > 0)) return Infinity;
  const running = clock.since === null ? 0 : performance.now() - clock.since;
  return clock.limitMs - clock.spentMs - running;
}

/** `askZ3(text)`, given up when `clock`'s time bound runs out before Z3 answers. */
function askZ3Within(clock, text) {
  const left = timeLeft(clock);
  if (left === Infinity) return askZ3(text);
  let timer;
  const bound = new Promise((resolve, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error(
      `Z3 was still loading when the run's time bound (timeout_ms = ${clock.limitMs} ms) ran out; ` +
      'the tree explored so far is kept. Run again once the status line says Z3 ready, or raise the time bound.',
    ), { name: 'Z3LoadError' })), Math.max(0, left));
  });
  return Promise.race([askZ3(text), bound]).finally(() => clearTimeout(timer));
}

/**
 * The solve function explorations get: an exploration starts at once, whether or not Z3 exists
 * yet; a query that reaches Z3 before it is ready waits for it here (the page says so), at most
 * until the run's time bound (`clock`) runs out; where Z3 cannot run, the query fails with
 * `NoZ3` instead of waiting.
 */
let z3Queries = 0;
const solveWithin = (clock) => async (text) => {
  if (!z3Possible()) throw Object.assign(new Error(NO_Z3), { name: 'NoZ3' });
  z3Queries += 1;
  if (z3Ready) return askZ3(text);
  post({ type: 'z3wait', waiting: true });
  try {
    return await askZ3Within(clock, text);
  } finally {
    post({ type: 'z3wait', waiting: false });
  }
};

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

// Lets the messages queued meanwhile (a pause, a stop) run, then goes on. Through a message of
// its own rather than setTimeout(0): a timer set from a timer's task is held at least 4 ms
// once such tasks nest five deep (in Chromium's worker, 50 yields between 5 ms of work: 180 to
// 280 ms of waiting by timer, under 2 ms by this channel), and a run yields after every slice
// (45 slices of a `lazy` run up to 1 M states). The page's messages to this worker
// and this channel's are both posted messages, handled in the order they were sent.
const yieldChannel = new MessageChannel();
const yielded = [];
yieldChannel.port1.onmessage = () => yielded.shift()?.();
const yieldToMessages = () => new Promise((resolve) => {
  yielded.push(resolve);
  yieldChannel.port2.postMessage(null);
});

function currentRun(runId) {
  if (!exploration || exploration.runId !== runId) {
    throw Object.assign(new Error('this exploration is no longer running; start it again'), { name: 'Stale' });
  }
  return exploration;
}

// Replaced explorations whose wasm memory is freed once the worker is idle. Freeing a run's
// tree and states takes milliseconds (TreeMap `put`, lazier#, k = 3: about 13 ms in Chromium),
// which the next Run would otherwise wait for before its first step. A run larger than
// FREE_AT_ONCE_NODES is freed at once instead, so that two large runs never share the memory.
const retiredRuns = [];
const FREE_AT_ONCE_NODES = 200000;

/** Frees an exploration's wasm memory once nothing is stepping it (see retiredRuns). */
function retire(run) {
  if (!run) return;
  run.paused = true;
  run.retired = true;
  run.wake?.();
  if (run.busy) return;
  if (run.treeCount > FREE_AT_ONCE_NODES) {
    run.ex.free();
    return;
  }
  retiredRuns.push(run);
  // A new exploration that is not run or stepped soon frees it after a while anyway.
  freeRetiredWhenIdle(1000);
}

/** Frees the replaced explorations after `delayMs`, unless a run is working then. */
function freeRetiredWhenIdle(delayMs) {
  setTimeout(() => {
    if (exploration?.busy) return; // that run's end schedules this again
    for (const run of retiredRuns.splice(0)) run.ex.free();
  }, delayMs);
}

/** Runs `work` with the exploration marked busy, so that `retire` waits for it. */
async function busy(run, work) {
  run.busy = true;
  try {
    return await work();
  } finally {
    run.busy = false;
    if (run.retired) run.ex.free();
    // After this answer is posted (and after a finished run's downloads, queued before).
    if (retiredRuns.length > 0) freeRetiredWhenIdle(0);
  }
}

/**
 * Everything a batch carries: the events and the tree nodes since the last batch, the summary
 * and solver counts. A step's events are objects, and its nodes are asked for here.
 */
function batchOf(run, events, summary = run.ex.summary()) {
  const nodes = run.ex.treeSince(run.treeCount);
  run.treeCount += nodes.length;
  return { events, nodes, ...countsOf(run, summary) };
}

/**
 * The batch of a run's slice: its events stay the JSON text the engine made (`eventsJson`, the
 * page parses it) and its nodes columns, so the worker makes no object per event or node.
 */
function sliceBatchOf(run, slice, summary = run.ex.summary()) {
  run.treeCount += columnLength(slice.nodes);
  return { eventsJson: slice.eventsJson, columns: slice.nodes, ...countsOf(run, summary) };
}

function countsOf(run, summary) {
  // Which solver answered how many queries (decided in Rust, by Z3, remembered; unknown
  // without Z3), for the status line.
  const solver = run.ex.solverStats();
  return { summary, solver, queries: run.queries, z3Queries };
}

/**
 * Without Z3, a query outside the Rust procedure's fragment is answered `unknown`: the run
 * stops there with `NoZ3` (the page offers the full HeapLab) rather than showing tests that
 * would miss or mislabel that path.
 */
function checkFragment(run) {
  if (run.withoutZ3 && run.ex.solverStats().unknownWithoutZ3 > 0) throw noZ3();
}

/**
 * The file name the engine reads a source under: `.java` sources go through the Java front end.
 * The page's `lang` (`'java'` or `'hl'`) decides; without one, the text itself (looksLikeJava).
 */
function fileOf(source, lang) {
  const java = lang ? lang === 'java' : wasm.looksLikeJava(source);
  return java ? 'Program.java' : 'program.hl';
}

/** The results of an exploration that is over: its summary, tests and coverage. */
function finished(run, summary = run.ex.summary()) {
  const { ex } = run;
  // Without their `test` blocks, which come with the downloads (downloadsOf); as text, which the
  // page parses on arrival (engine.js `settle`).
  return { summary, testsText: ex.testsText(false), coverage: ex.coverage() };
}

/**
 * The page's answer for a run that is over: its results now, its downloads in a message of their
 * own right after (sendDownloads), so that the tests show without waiting for three files nobody
 * reads before pressing a button.
 */
function answerOver(run, summary) {
  setTimeout(() => sendDownloads(run), 0);
  return finished(run, summary);
}

/**
 * Every download of a finished exploration: the tests as .hl, as JSON, and as JUnit; and each
 * test's `test` block (`blocks`, in the order of the run's tests), which the Tests tab shows.
 */
function downloadsOf(run) {
  const { ex } = run;
  let junit;
  try {
    junit = ex.testsJunit(run.method.replace(/\W+/g, '_'));
  } catch (err) {
    junit = { error: String(err?.message ?? err) };
  }
  return { hl: ex.testsHl(), json: ex.testsJson(), junit, blocks: ex.testBlocks() };
}

/** Posts a finished exploration's downloads, unless a newer one replaced it meanwhile. */
function sendDownloads(run) {
  if (run.retired || exploration !== run) return;
  try {
    post({ type: 'exploreDownloads', runId: run.runId, downloads: downloadsOf(run) });
  } catch (err) {
    // The buttons stay disabled; the log says why.
    log('error', `The downloads could not be made: ${err?.message ?? err}`);
  }
}

/**
 * Steps until `stop(event)` says so or the exploration is over; `null` event = over. Solver
 * queries are kept only when `queries` is set (single steps show them; runs only count them).
 */
async function advance(run, stop, deadline, queries = false) {
  const events = [];
  for (;;) {
    const event = await timed(run.clock, () => run.ex.step());
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

/**
 * Runs until the end or a pause, posting a batch every BATCH_MS (see exploreRun). Each batch is
 * one `runSlice` of the engine: the run stays in Rust for BATCH_MS, and what the tree needs
 * comes back at once; between slices the worker reads its messages, so a pause or a stop gets
 * through within one slice.
 */
async function runBatches(run, runId) {
  for (;;) {
    const slice = await timed(run.clock, () => run.ex.runSlice(BATCH_MS, run.treeCount));
    run.queries += slice.queries;
    checkFragment(run);
    if (slice.over) {
      // Generates the tests (resolving their models with Z3 where needed) and answers the
      // summary, which the answer carries (making it again was a few percent of a short Run).
      const summary = await timed(run.clock, () => run.ex.runToEnd(0));
      const results = answerOver(run, summary);
      return { ...sliceBatchOf(run, slice, results.summary), over: true, ...results };
    }
    if (run.retired) throw Object.assign(new Error('replaced by a new exploration'), { name: 'Stale' });
    // At most one batch the page has not handled yet: a page slower than the engine (a loaded
    // machine) otherwise piled up batches, and a Pause waited behind all of them.
    while (run.posted > run.acked && !run.paused && !run.retired && !run.stopped) await new Promise((wake) => { run.wake = wake; });
    if (run.paused) return { over: false, paused: true, ...sliceBatchOf(run, slice) };
    // The columns' buffers move to the page: no copy of a large slice's nodes.
    post({ type: 'explore', runId, ...sliceBatchOf(run, slice) }, columnBuffers(slice.nodes));
    run.posted += 1;
    await yieldToMessages();
    if (run.paused) return { over: false, paused: true, ...batchOf(run, []) };
  }
}

const exploreHandlers = {
  async exploreStart({ source, method, options, runId, lang }) {
    await engineReady;
    retire(exploration);
    exploration = null;
    // The clock runs only while the engine works on this run (not between steps or while paused).
    const clock = makeClock(timeBoundMs(options), false);
    const solve = solverForExploration(clock);
    const ex = new wasm.Exploration(source, method, { ...options, file: fileOf(source, lang) }, solve);
    exploration = {
      ex, runId, method, clock, treeCount: 0, paused: false, queries: 0, busy: false, retired: false, withoutZ3: solve === null,
      posted: 0, acked: 0, wake: null,
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
      const summary = run.ex.summary();
      return { ...batchOf(run, events, summary), over, ...(over ? answerOver(run, summary) : {}) };
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
    if (exploration && exploration.runId === runId) {
      exploration.paused = true;
      exploration.wake?.();
    }
    return true;
  },
  /** The page handled a batch (see runBatches). */
  async exploreAck({ runId }) {
    if (exploration && exploration.runId === runId) {
      exploration.acked += 1;
      exploration.wake?.();
    }
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
    run.wake?.();
    if (run.busy) return null;
    return busy(run, async () => {
      const { events, over } = await advance(run, () => false, Infinity);
      const summary = run.ex.summary();
      return { ...batchOf(run, events, summary), over, ...(over ? answerOver(run, summary) : {}) };
    });
  },
  /** The concrete replay of generated test `test` (its index), traced by the interpreter. */
  async exploreReplay({ runId, test }) {
    const run = currentRun(runId);
    return run.ex.replay(test);
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
  async compare({ source, method, options, strategies, lang }) {
    await engineReady;
    const rows = [];
    const registry = wasm.strategies();
    for (const strategy of strategies) {
      post({ type: 'compare', current: strategy, rows });
      // A registry row with its own driver (concolic) runs through concolicRun.
      if (registry.find((s) => s.name === strategy)?.driver === 'concolic_loop') {
        rows.push(await concolicRow(source, method, { ...options, strategy }, lang));
        continue;
      }
      // The same options as an exploration in the Explore tab, the precondition mode included,
      // so that a row and the Explore tab's run agree.
      const pre = options.pre ?? 'assume';
      const solve = solverForExploration(makeClock(timeBoundMs(options), true));
      // No tree and no heap views: a row never shows them (and a large run's tree would hit
      // the memory bound long before the CLI's run of the same row).
      const ex = new wasm.Exploration(source, method, { ...options, strategy, pre, file: fileOf(source, lang), tree: false }, solve);
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
async function concolicRow(source, method, options, lang) {
  const started = performance.now();
  const r = await wasm.concolicRun(source, method, { ...options, file: fileOf(source, lang) },
    solverForExploration(makeClock(timeBoundMs(options), true)));
  return { ...r.summary, solver: { sentToZ3: r.sent_to_z3 }, time_ms: Math.round(performance.now() - started) };
}

// ---- duels -------------------------------------------------------------------------------------

/**
 * A duel (heaplab duel): the product program of the student's method and the reference
 * (`duelProgram`) explored like any method, a slice at a time, with the count of differing paths
 * posted after each (`{ type: 'duel', runId, progress }`); after `maxClues` of them the
 * exploration stops, its tests are generated, and `duelVerdict` replays each input on the
 * original program in the interpreter. Without Z3, a query outside the Rust procedure stops the
 * duel with `NoZ3`, as an exploration does.
 */
async function duel({ source, method, reference, k, maxClues, runId }) {
  await engineReady;
  const product = wasm.duelProgram(source, method, reference);
  // The engine's run options (report-types.js Options): bounds go under `bounds`.
  const options = { strategy: 'lazier#', pre: 'assume', bounds: { k }, views: false, file: 'duel.hl' };
  const solve = solverForExploration(makeClock(timeBoundMs(options), true));
  const ex = new wasm.Exploration(product.source, product.target, options, solve);
  try {
    let stoppedEarly = false;
    let posted = -Infinity;
    for (;;) {
      // No tree nodes: a duel shows no tree. With a clue limit, a slice ends after each path
      // that ends, so the duel stops at its clue count on a fast engine as on a slow one.
      const slice = await ex.runSlice(BATCH_MS, 0x7fffffff, maxClues > 0);
      if (solve === null && ex.solverStats().unknownWithoutZ3 > 0) throw noZ3();
      const progress = wasm.duelProgress(ex, reference);
      const done = slice.over || (maxClues > 0 && progress.differ >= maxClues);
      // The page hears of progress and reads its messages once per BATCH_MS, not per path.
      if (done || performance.now() - posted >= BATCH_MS) {
        post({ type: 'duel', runId, progress });
        posted = performance.now();
        if (!done) await yieldToMessages();
      }
      if (slice.over) break;
      if (done) {
        stoppedEarly = true;
        ex.cancel();
        break;
      }
    }
    const summary = await ex.runToEnd(0);
    if (solve === null && ex.solverStats().unknownWithoutZ3 > 0) throw noZ3();
    const verdict = wasm.duelVerdict(ex, source, method, reference);
    // A slice can end many differing paths at once: the first few clues are shown.
    const clues = maxClues > 0 ? verdict.clues.slice(0, maxClues) : verdict.clues;
    return { ...verdict, clues, cluesFound: verdict.clues.length, stoppedEarly, k, summary, progress: wasm.duelProgress(ex, reference) };
  } finally {
    ex.free();
  }
}

// ---- warm-up --------------------------------------------------------------------------------------
//
// The first run after a page load cost 150–200 ms more than the next ones, while the browser
// compiled the engine's hot code for the first time (TreeMap `put` `lazier#` k = 3 in Chromium:
// 742 ms, then 573 and 550). So once the engine is ready, until the page asks for a run, the
// worker explores a small tree the way the Explore tab does (slices with tree nodes and views,
// then tests and downloads), under `lazier#` and `sl`, in slices of a few milliseconds with the
// message loop between them: a request is never kept waiting longer than one slice, and a run
// request stops the warm-up for good. No Z3 is involved (the Rust procedure decides it all).

const WARM_UP_SOURCE = `class Node { int key; Node left; Node right; }
class Tree {
  Node root;
  void insert(int x)
    requires exists int lo, int hi. ordered(this.root, lo, hi)
    ensures has(this.root, x)
  { this.root = insertAt(x, this.root); }
  Node insertAt(int x, Node t) {
    if (t == null) t = new Node { key: x, left: null, right: null };
    else if (x < t.key) t.left = insertAt(x, t.left);
    else if (x > t.key) t.right = insertAt(x, t.right);
    return t;
  }
}
pred ordered(Node t, int lo, int hi) :=
    t == null
  | exists int k, Node l, Node r.
      t -> Node { key: k, left: l, right: r } * ordered(l, lo, k) * ordered(r, k, hi) & lo < k & k < hi;
pure bool has(Node t, int x) {
  if (t == null) return false;
  if (t.key == x) return true;
  return x < t.key ? has(t.left, x) : has(t.right, x);
}
`;
const WARM_UP_SLICE_MS = 5;
// V8 optimizes a function over several runs: in node, AATree `remove` under symheap took 263 ms
// after one round of warm-up, 97 ms after three, 88 ms after six (about 40 to 60 ms natively);
// three rounds are about half a second of the worker's time while the page is idle.
const WARM_UP_ROUNDS = 3;
const warmUp = { stopped: false };

async function warmUpEngine() {
  await engineReady;
  // Every strategy the registry runs by stepping (concolic has a driver of its own), the
  // default first: V8 runs a wasm function in its baseline tier until it has been busy a while,
  // and a strategy's own code (symheap's guarded sets, its decision procedure's propagation)
  // stayed there until the user's first run of it, which took two to four times its later runs.
  const strategies = wasm.strategies().filter((s) => s.driver !== 'concolic_loop').map((s) => s.name)
    .sort((a, b) => (b === DEFAULT_STRATEGY) - (a === DEFAULT_STRATEGY));
  for (const strategy of Array.from({ length: WARM_UP_ROUNDS }, () => strategies).flat()) {
    let ex = null;
    try {
      await yieldToMessages();
      if (warmUp.stopped) return;
      ex = new wasm.Exploration(WARM_UP_SOURCE, 'Tree.insert', { strategy, pre: 'assume', bounds: { k: 2 }, file: 'warmup.hl' }, null);
      let nodes = 0;
      for (;;) {
        const slice = await ex.runSlice(WARM_UP_SLICE_MS, nodes);
        nodes += columnLength(slice.nodes);
        await yieldToMessages();
        if (warmUp.stopped) return;
        if (slice.over) break;
      }
      await ex.runToEnd(0);
      finished({ ex, method: 'Tree.insert' });
      downloadsOf({ ex, method: 'Tree.insert' });
    } catch {
      // A warm-up that fails costs nothing but its speed-up.
      return;
    } finally {
      ex?.free();
    }
  }
}

// ---- requests ---------------------------------------------------------------------------------

const handlers = {
  ...exploreHandlers,
  duel,
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
  async concolicRun({ source, method, options, runId, lang }) {
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
      return await wasm.concolicRun(source, method, { ...options, file: fileOf(source, lang) },
        solverForExploration(makeClock(timeBoundMs(options), true)), onEvent);
    } finally {
      flush();
    }
  },
  async methods({ source, lang }) {
    await engineReady;
    return wasm.methods(source, fileOf(source, lang));
  },
  async check({ source, lang }) {
    await engineReady;
    return wasm.check(source, fileOf(source, lang));
  },
  async runTests({ source, lang }) {
    await engineReady;
    return wasm.runTests(source, fileOf(source, lang));
  },
  /**
   * Satisfiability or enumeration of a formula. heaplab-logic decides most pure facts itself;
   * once Z3 is ready, the rest go to Z3: the search stops at a question Z3 has not answered yet
   * (`kind: 'pending'`), we ask Z3, and run the search again with the reply.
   */
  async sat({ source, formula, enumerate, maxObjects, lang }) {
    await engineReady;
    const options = { enumerate: Boolean(enumerate), maxObjects, file: fileOf(source, lang) };
    if (!z3Ready) return { ...wasm.satQuery(source, formula, options), solver: 'builtin', queries: 0 };
    const answers = {};
    for (let queries = 0; queries < MAX_Z3_ROUNDS; queries += 1) {
      const res = wasm.satQuery(source, formula, { ...options, answers });
      if (res.kind !== 'pending') return { ...res, solver: 'z3', queries };
      answers[res.script] = await askZ3(res.script);
      log('smt', `${res.script.trim()}\n;; => ${answers[res.script].trim()}`);
    }
    const res = wasm.satQuery(source, formula, options);
    return { ...res, solver: 'builtin', queries: MAX_Z3_ROUNDS, note: `Z3 was asked ${MAX_Z3_ROUNDS} questions; the rest was decided without it.` };
  },
  async syntax({ source }) {
    await engineReady;
    return wasm.syntaxDump(source);
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

// Requests that run an exploration: the warm-up gives way to them for good.
const RUNS = new Set(['exploreStart', 'compare', 'duel', 'concolicRun']);

warmUpEngine();

self.onmessage = async ({ data, ports }) => {
  if (data?.type === 'z3port') {
    attachZ3(ports[0]);
    return;
  }
  const { id, type } = data;
  const handler = handlers[type];
  if (RUNS.has(type)) warmUp.stopped = true;
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
