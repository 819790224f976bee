// The engine bench in Chromium, next to native and node, and issue 17's goals measured.
//
// Serves web/dist with `heaplab serve` (cross-origin isolated), opens the playground in headless
// Chromium (fresh profile) and runs the rows inside the page's own engine worker, through the
// worker protocol the page uses (web/src/worker.js):
//   - `compare` with one strategy: the Exploration's runToEnd, as the Compare tab runs a row and
//     as node (wasm-suite.mjs) and native (`heaplab bench`) time it: exploration + tests;
//   - for the goal rows also `exploreStart` + `exploreRun`: what the Explore tab's Run does
//     (every event stepped from JS, tree batches every 120 ms, then tests, coverage, downloads);
//     the page's own drawing is not counted.
// Times are taken in the page (performance.now around the request).
//
// Issue 32 adds, in the same run: the page's bytes over the wire before any Z3 query (a first
// visit fetches no Z3) and after the first query that needs Z3 (which fetches it in its own
// worker); the Explore tab's Run of the heaviest goal row (TreeMap.put, lazier#, k = 3) pressed
// as a person presses it, with the main thread's long tasks (PerformanceObserver `longtask`),
// the DOM size and the tab's memory afterwards, and how soon Pause and Cancel took effect; the
// same of the largest tree the default bounds allow (BST.insert of Object elements, lazy,
// k = 3: 200,000 states); and the wasm/native ratio of every row over 50 ms judged against 1.5×.
//
// Rows: every row of the native bench (bench/results.json, k = 2), with node's time from
// tests/artifacts/bench-wasm.json (written by wasm-suite.mjs) when present; and the goal rows at
// k = 3, which this script also runs natively (`heaplab run`) and in node. Prints markdown and
// appends it to bench/results.md.
//
// Usage: node tests/bench/browser-suite.mjs [bench/results.json] [tests/artifacts/bench-wasm.json]
//   BENCH_BROWSER_ROWS=goals       only the goal rows (default: goals and every bench row)
//   BENCH_BROWSER_CAP_MS=20000     cap per run (the explorer's timeout bound)
//   BENCH_BROWSER_APPEND=0         print only, do not append to bench/results.md
//   BENCH_BROWSER_GOAL_REPS=5      runs of each goal row under 3 s (engine and Run interleaved, fastest kept)
//   BENCH_BROWSER_CONFIRM_REPS=5   runs of each bench row over 50 ms, native, node and browser in turn

import { execFile } from 'node:child_process';
import { appendFile, readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { launch, ROOT, startServer } from '../browser/helpers.mjs';
import { totalBytes, transferred } from './page-bytes.mjs';
import { acknowledge, openExplore, runToEnd, tabMemory } from './page-run.mjs';

const nativePath = process.argv[2] ?? path.join(ROOT, 'bench/results.json');
const nodePath = process.argv[3] ?? path.join(ROOT, 'tests/artifacts/bench-wasm.json');
const capMs = Number(process.env.BENCH_BROWSER_CAP_MS ?? 20000);
const allRows = process.env.BENCH_BROWSER_ROWS !== 'goals';
const append = process.env.BENCH_BROWSER_APPEND !== '0';

const native = JSON.parse(await readFile(nativePath, 'utf8'));
// `heaplab bench --format json` rows are a run summary plus the memory columns.
native.rows = native.rows.map((r) => ({ ...r.summary, ...r }));
let nodeRows = new Map();
try {
  const node = JSON.parse(await readFile(nodePath, 'utf8'));
  if (node.k === native.k) nodeRows = new Map(node.rows.map((r) => [key(r), r]));
} catch {
  // No node run: the node column stays empty for the bench rows.
}

function key(r) {
  return `${r.file}|${r.method}|${r.strategy}|${r.k ?? native.k}`;
}

// ---- the goals (issue 17) --------------------------------------------------------------------

const BST_METHODS = ['insert', 'remove', 'find', 'findMin', 'findMax', 'isEmpty', 'makeEmpty'];
// Kiasan's k = 3 rows under lazier#, with the test counts Kiasan reports (Deng 2007; the table
// "Reference numbers" in docs/symbolic.md): the browser must find the same counts.
const KIASAN_K3 = [
  { file: 'examples/bst.hl', method: 'BST.insert', kiasan: 236 },
  { file: 'examples/bst.hl', method: 'BST.findMin', kiasan: 26 },
  { file: 'examples/treemap.hl', method: 'TreeMap.put', kiasan: 331 },
  { file: 'examples/avl.hl', method: 'AvlTree.insert', kiasan: 190 },
];
// Issue 32: `lazy` at k = 3 on AVL `insert` and TreeMap `put`, with the same tests as lazier#
// (an alias of a node the precondition claims ends where it is made), and on BST `insert` of
// Object elements, whose elements may alias any object: Kiasan's lazy row (2,161 tests, 1.4 h
// there) in 1.2 M states, past the default state bound.
const LAZY_K3 = [
  { file: 'examples/avl.hl', method: 'AvlTree.insert', kiasan: 190, strategy: 'lazy' },
  { file: 'examples/treemap.hl', method: 'TreeMap.put', kiasan: 331, strategy: 'lazy' },
  { file: 'examples/bstcmp.hl', method: 'BST.insert', kiasan: 2161, strategy: 'lazy', maxStates: 2000000 },
];
const K3 = [...KIASAN_K3, { file: 'examples/treemap.hl', method: 'TreeMap.remove' }]
  .map((r) => ({ ...r, strategy: 'lazier#', k: 3 }))
  .concat(LAZY_K3.map((r) => ({ ...r, k: 3, beyondGoals: true })));
/** A goal row's bounds: k, the cap, and its own state bound where it has one. */
function rowBounds(row) {
  return { k: row.k, timeout_ms: capMs, ...(row.maxStates ? { max_states: row.maxStates } : {}) };
}
const BST_SL = BST_METHODS.map((m) => ({ file: 'examples/bst.hl', method: `BST.${m}`, strategy: 'sl', k: native.k }));

const sources = new Map();
async function source(file) {
  if (!sources.has(file)) sources.set(file, await readFile(path.join(ROOT, file), 'utf8'));
  return sources.get(file);
}

// ---- native and node for the goal rows at k = 3 ----------------------------------------------

const run = promisify(execFile);
async function nativeRun(row) {
  const bin = path.join(ROOT, 'target/release/heaplab');
  const { stdout } = await run(bin, ['run', path.join(ROOT, row.file), '--method', row.method,
    '--strategy', row.strategy, '--k', String(row.k), '--format', 'json',
    '--timeout-ms', String(capMs), ...(row.maxStates ? ['--max-states', String(row.maxStates)] : [])],
  { maxBuffer: 1 << 26 });
  const s = JSON.parse(stdout);
  return { ms: s.time_ms, tests: s.tests, sent: s.solver_calls.sent, rust: s.solver_calls.decided_locally,
    cached: s.solver_calls.cached, timedOut: JSON.stringify(s.stopped_by ?? '').includes('time') };
}

const pkg = await import(path.join(ROOT, 'web/pkg/heaplab_wasm.js'));
await pkg.default({ module_or_path: await readFile(path.join(ROOT, 'web/pkg/heaplab_wasm_bg.wasm')) });
const bridge = await import(path.join(ROOT, 'web/src/z3-bridge.js'));
await bridge.solve('(check-sat)');
async function nodeRun(row) {
  const options = { strategy: row.strategy, bounds: rowBounds(row), file: row.file, tree: false };
  const started = performance.now();
  const ex = new pkg.Exploration(await source(row.file), row.method, JSON.stringify(options), bridge.solve);
  try {
    const summary = await ex.runToEnd(0);
    const ms = performance.now() - started;
    const st = ex.solverStats();
    return { ms, tests: summary.tests, sent: st.sentToZ3, rust: st.decidedInRust, cached: st.cacheHits,
      waitMs: st.z3WaitMs, timedOut: summary.bounds_hit.includes('timeout') };
  } finally {
    ex.free();
  }
}

const goalNative = new Map();
const goalNode = new Map();
for (const row of K3) {
  process.stderr.write(`native and node: ${row.method} ${row.strategy} k=${row.k}\n`);
  goalNative.set(key(row), await nativeRun(row));
  goalNode.set(key(row), await nodeRun(row));
}
for (const r of native.rows) {
  const c = r.solver_calls;
  goalNative.set(key({ ...r, k: native.k }), { ms: r.time_ms, tests: r.tests, sent: c.sent, rust: c.decided_locally,
    cached: c.cached, timedOut: r.timed_out });
}

// ---- the browser -----------------------------------------------------------------------------

const server = await startServer();
// No service worker: its answers carry no transfer size, and the bytes are what is measured.
const browser = await launch({ serviceWorkers: 'block' });
const { page } = browser;
await page.goto(server.url, { waitUntil: 'domcontentloaded' });
await page.getByText('Engine ready', { exact: true }).waitFor({ timeout: 180000 });
// Whatever the page fetches by itself once the engine is up (the examples' index...).
await page.waitForTimeout(2000);
const firstVisitBytes = totalBytes(await transferred(page));
const z3Before = await page.evaluate(() => globalThis.__heaplab.store.getState().z3.state);
// The first query that needs Z3 (nonlinear.hl's `factor`: a product of two unknowns, outside
// the Rust procedure) fetches Z3 in its own worker.
const z3Row = { file: 'crates/heaplab-cli/tests/data/nonlinear.hl', method: 'factor', strategy: 'lazier#', k: native.k };
const z3First = await page.evaluate(async ({ src }) => {
  const started = performance.now();
  const [r] = await globalThis.__heaplab.engine.request('compare', { source: src, method: 'factor', options: {}, strategies: ['lazier#'] });
  return { ms: performance.now() - started, sent: r.solver_calls.sent };
}, { src: await source(z3Row.file) });
await page.getByText('Z3 ready', { exact: true }).waitFor({ timeout: 180000 });
const afterZ3Bytes = totalBytes(await transferred(page));
const marks = await page.evaluate(() => globalThis.__heaplab.marks);

/** The Compare tab's request for one strategy, timed in the page. */
async function browserEngine(row) {
  const options = { bounds: rowBounds(row) };
  return page.evaluate(async ({ src, method, options, strategy }) => {
    const started = performance.now();
    const [r] = await globalThis.__heaplab.engine.request('compare', { source: src, method, options, strategies: [strategy] });
    const ms = performance.now() - started;
    return { ms, tests: r.tests, sent: r.solver_calls.sent, rust: r.solver_calls.decided_locally,
      cached: r.solver_calls.cached, waitMs: r.solver?.z3WaitMs ?? null,
      timedOut: (r.bounds_hit ?? []).includes('timeout') };
  }, { src: await source(row.file), method: row.method, options, strategy: row.strategy });
}

/** The Explore tab's Run: start, then run to the end, timed in the page. */
let runs = 0;
async function browserExplore(row) {
  runs += 1;
  const options = { strategy: row.strategy, bounds: rowBounds(row) };
  return page.evaluate(async ({ src, method, options, runId }) => {
    const engine = globalThis.__heaplab.engine;
    const started = performance.now();
    await engine.request('exploreStart', { source: src, method, options, runId });
    const r = await engine.request('exploreRun', { runId });
    const ms = performance.now() - started;
    return { ms, tests: r.tests.length, over: r.over, waitMs: r.solver?.z3WaitMs ?? null };
  }, { src: await source(row.file), method: row.method, options, runId: `bench-${runs}` });
}

// The goal rows are run GOAL_REPS times, engine and Run interleaved, and each keeps its fastest
// (issue 32's own measurements are the min of 3 interleaved runs); rows of 3 s or more LONG_REPS
// times: on this machine one run's Run / engine moved by ±0.05 from run to run (TreeMap put
// lazy: 1.08-1.19). On a row of a few milliseconds a single run's ratio is mostly the machine's
// noise. After each Run the worker makes its downloads (in a message of their own, see
// worker.js answerOver); the pause lets them finish outside the next measurement.
const GOAL_REPS = Number(process.env.BENCH_BROWSER_GOAL_REPS ?? 7);
const REPEAT_UNDER_MS = 3000;
const LONG_REPS = 3;
// Rows of a few milliseconds get more runs: there a millisecond of the machine's noise is a
// tenth of the ratio (BST isEmpty under sl read 3 vs 7 ms once, 3.6 vs 3.3 ms at best of 9).
const SHORT_MS = 200;
const SHORT_REPS = 3 * GOAL_REPS;
const afterDownloads = () => page.waitForTimeout(250);
const goalBrowser = new Map();
for (const row of [...BST_SL, ...K3]) {
  process.stderr.write(`browser: ${row.method} ${row.strategy} k=${row.k}\n`);
  let engine = await browserEngine(row);
  let explore = await browserExplore(row);
  await afterDownloads();
  const reps = engine.ms < SHORT_MS ? SHORT_REPS : engine.ms < REPEAT_UNDER_MS ? GOAL_REPS : LONG_REPS;
  for (let i = 1; i < reps; i++) {
    const e = await browserEngine(row);
    if (e.ms < engine.ms) engine = e;
    const x = await browserExplore(row);
    if (x.ms < explore.ms) explore = x;
    await afterDownloads();
  }
  goalBrowser.set(key(row), { engine, explore });
}
const benchBrowser = new Map();
if (allRows) {
  process.stderr.write(`browser: ${native.rows.length} bench rows\n`);
  for (const r of native.rows) {
    if (r.timed_out) continue;
    const row = { file: r.file, method: r.method, strategy: r.strategy, k: native.k };
    benchBrowser.set(key(row), goalBrowser.get(key(row))?.engine ?? await browserEngine(row));
  }
}
// Issue 32's target (within 1.5× of native on every row over 50 ms) is judged on those rows
// measured again, native, node and browser in turn, CONFIRM_REPS times, each keeping its
// fastest: the passes above run every row natively first, then in node, then in the browser,
// minutes apart, so a machine that slows down meanwhile (a loaded VM: the same native row read
// 315 ms in the bench and 366–419 ms minutes later) lands on one column. This is how issue 32's
// own numbers were taken (interleaved runs, min of 3).
const CONFIRM_REPS = Number(process.env.BENCH_BROWSER_CONFIRM_REPS ?? 5);
const confirmed = new Map();
if (allRows) {
  const heavyRows = native.rows.filter((r) => r.time_ms > 50 && !r.timed_out);
  process.stderr.write(`native, node and browser in turn: ${heavyRows.length} rows over 50 ms\n`);
  const faster = (a, b) => (a === undefined || b.ms < a.ms ? b : a);
  for (const r of heavyRows) {
    const row = { file: r.file, method: r.method, strategy: r.strategy, k: native.k };
    let best = {};
    for (let i = 0; i < CONFIRM_REPS; i++) {
      best = {
        native: faster(best.native, await nativeRun(row)),
        node: faster(best.node, await nodeRun(row)),
        browser: faster(best.browser, await browserEngine(row)),
      };
    }
    confirmed.set(key(row), best);
  }
}
await bridge.shutdown();

// The heaviest goal row through the Explore tab's buttons, in a fresh page (no Z3 needed).
const heavy = { file: 'treemap.hl', method: 'TreeMap.put', strategy: 'lazier#', k: 3 };
process.stderr.write(`browser: Explore tab, ${heavy.method} ${heavy.strategy} k=${heavy.k}\n`);
const uiPage = await browser.context.newPage();
await openExplore(uiPage, server.url, heavy);
const uiRun = await runToEnd(uiPage);
const uiMemory = await tabMemory(uiPage);
// A run that ends before the press (a warm engine explores TreeMap `put` in a few hundred ms)
// is run again with the press earlier.
let cancelAck = await acknowledge(uiPage, 'Cancel', 300);
for (const afterMs of [100, 30]) {
  if (cancelAck.ms !== null) break;
  cancelAck = { ...(await acknowledge(uiPage, 'Cancel', afterMs)), pressedAt: afterMs };
}
// Pause stops the exploration between two steps; pressed once the exploration is over (the
// run generating its tests, which a warm engine reaches within 300 ms of TreeMap `put`), it
// has nothing to pause and the run ends. Pressed then, it is pressed again earlier in a run.
let pauseAck = await acknowledge(uiPage, 'Pause', 300);
for (const afterMs of [100, 30]) {
  if (pauseAck.ms !== null && pauseAck.status !== 'done') break;
  pauseAck = { ...(await acknowledge(uiPage, 'Pause', afterMs)), pressedAt: afterMs };
}
// The largest tree the default bounds let a run make: `lazy` at k = 3 on BST `insert` of Object
// elements stops at its 200,000 states (the tree view lays such a tree out in a worker of its
// own).
const largest = { file: 'bstcmp.hl', method: 'BST.insert', strategy: 'lazy', k: 3 };
process.stderr.write(`browser: Explore tab, ${largest.method} ${largest.strategy} k=${largest.k}, default bounds\n`);
const bigPage = await browser.context.newPage();
await openExplore(bigPage, server.url, largest);
const bigRun = await runToEnd(bigPage);
const bigMemory = await tabMemory(bigPage);
await browser.close();
await server.stop();

// ---- tables ----------------------------------------------------------------------------------

const ms = (n) => (typeof n === 'number' ? n.toFixed(0) : '—');
const calls = (c) => (c ? `${c.sent} / ${c.rust} / ${c.cached}` : '—');
const label = (r) => `| ${path.basename(r.file)} | ${r.method} | ${r.strategy.replace('#', '\\#')} | ${r.k} |`;
const out = [];
const say = (line = '') => out.push(line);
const verdict = (ok) => (ok ? '**met**' : '**not met**');

say('');
say(`## Browser (Chromium, the page's engine worker), goals of issues 17 and 32`);
say('');
say(`Measured in one run: native (\`heaplab run\` / \`heaplab bench\`, z3 process), node (heaplab-wasm on Z3 wasm) and Chromium headless (\`heaplab serve\`, cross-origin isolated, the playground's own workers; Z3 started by the first query that needs it). "browser engine" is the Compare tab's request for one strategy (runToEnd: exploration and tests, as native and node are timed); "browser Run" is the Explore tab's Run (exploreStart + exploreRun: every event stepped from JS, tree batches, then tests and coverage, the downloads following in a message of their own; the page's drawing not counted). Each row whose engine run takes under ${REPEAT_UNDER_MS / 1000} s is run ${GOAL_REPS} times (under ${SHORT_MS} ms: ${SHORT_REPS} times; longer rows ${LONG_REPS} times), engine and Run interleaved, and both columns are the fastest of those. Z3 calls and wait are the browser's (the wait from the worker's \`solverStats\` where its answers carry them, — where they do not). Cap ${capMs} ms per run.`);
say('');
say('| file | method | strategy | k | native ms | node ms | browser engine ms | browser Run ms | Run / engine | tests native / node / browser | Z3 sent / decided in Rust / cached | Z3 wait ms |');
say('|---|---|---|---|---|---|---|---|---|---|---|---|');
const goalRow = (row) => {
  const n = goalNative.get(key(row));
  const w = goalNode.get(key(row)) ?? nodeRows.get(key(row));
  const b = goalBrowser.get(key(row));
  const nodeMs = w?.ms ?? w?.wasm_ms;
  const same = n && w && b && n.tests === w.tests && n.tests === b.engine.tests && n.tests === b.explore.tests;
  const kiasan = row.kiasan === undefined ? '' : (b.engine.tests === row.kiasan ? ` (Kiasan ${row.kiasan})` : ` (≠ Kiasan ${row.kiasan})`);
  say(`${label(row)} ${ms(n?.ms)} | ${ms(nodeMs)} | ${ms(b.engine.ms)}${b.engine.timedOut ? ' (cap)' : ''} | ${ms(b.explore.ms)} | ${(b.explore.ms / b.engine.ms).toFixed(2)}× | ${n?.tests ?? '—'} / ${w?.tests ?? '—'} / ${b.engine.tests}${same ? '' : ' ≠'}${kiasan} | ${calls(b.engine)} | ${b.engine.waitMs === null ? '—' : ms(b.engine.waitMs)} |`);
};
BST_SL.forEach(goalRow);
K3.forEach(goalRow);

const sum = (rows, f) => rows.reduce((a, r) => a + f(r), 0);
const bstEngine = sum(BST_SL, (r) => goalBrowser.get(key(r)).engine.ms);
const bstRun = sum(BST_SL, (r) => goalBrowser.get(key(r)).explore.ms);
const worst = (rows, f) => Math.max(...rows.map(f));
// Issue 17's goals are judged on its own rows, not on the lazy rows of issue 32.
const tmRows = K3.filter((r) => !r.beyondGoals && r.method.startsWith('TreeMap.'));
const tmRun = worst(tmRows, (r) => goalBrowser.get(key(r)).explore.ms);
const kiasanRows = K3.filter((r) => !r.beyondGoals && r.kiasan !== undefined);
const kiasanRun = worst(kiasanRows, (r) => goalBrowser.get(key(r)).explore.ms);
const kiasanCounts = kiasanRows.every((r) => goalBrowser.get(key(r)).engine.tests === r.kiasan);
const bothOk = (rows, f, limit) => rows.every((r) => {
  const b = goalBrowser.get(key(r));
  return f(b.engine) < limit && f(b.explore) < limit && !b.engine.timedOut && b.explore.over;
});

// wasm/native over the bench: every row that finished on both (native time from the bench).
let nativeTotal = 0;
let browserTotal = 0;
let nodeTotal = 0;
let nodeNative = 0;
let compared = 0;
let mismatches = 0;
let over50 = 0;
let over50Node = 0;
const over50Browser = [];
const benchLines = [];
for (const r of native.rows) {
  const k = key({ ...r, k: native.k });
  const b = benchBrowser.get(k);
  const w = nodeRows.get(k);
  if (w && !w.timed_out && !r.timed_out) {
    nodeTotal += w.wasm_ms;
    nodeNative += r.time_ms;
  }
  if (!b) continue;
  if (!b.timedOut) {
    nativeTotal += r.time_ms;
    browserTotal += b.ms;
    compared += 1;
  }
  const same = b.tests === r.tests && (!w || w.tests === r.tests);
  if (!same) mismatches += 1;
  const ratio = r.time_ms >= 5 ? `${(b.ms / r.time_ms).toFixed(1)}x` : '—';
  const nodeRatioRow = w && r.time_ms >= 5 ? `${(w.wasm_ms / r.time_ms).toFixed(1)}x` : '—';
  // Issue 32's target: within 1.5× of native on every row over 50 ms (both wasm engines),
  // judged on the row measured again in turn (see CONFIRM_REPS) where it was.
  const c = confirmed.get(k);
  if (c && !c.browser.timedOut) {
    over50 += 1;
    if (c.browser.ms > 1.5 * c.native.ms) over50Browser.push(r);
    if (c.node.ms > 1.5 * c.native.ms) over50Node += 1;
  } else if (r.time_ms > 50 && !b.timedOut) {
    over50 += 1;
    if (b.ms > 1.5 * r.time_ms) over50Browser.push(r);
    if (w && w.wasm_ms > 1.5 * r.time_ms) over50Node += 1;
  }
  benchLines.push(`${label({ ...r, k: native.k })} ${r.time_ms} | ${w ? ms(w.wasm_ms) : '—'} | ${nodeRatioRow} | ${ms(b.ms)}${b.timedOut ? ' (cap)' : ''} | ${ratio} | ${r.tests} / ${w?.tests ?? '—'} / ${b.tests}${same ? '' : ' ≠'} | ${calls(b)} | ${b.waitMs === null ? '—' : ms(b.waitMs)} | ${w ? ms(w.wait_ms) : '—'} |`);
}
const browserRatio = nativeTotal > 0 ? browserTotal / nativeTotal : NaN;
const nodeRatio = nodeNative > 0 ? nodeTotal / nodeNative : NaN;

say('');
say('| goal | measured | |');
say('|---|---|---|');
say(`| all of BST under \`sl\` (7 methods, k = ${native.k}) in < 1 s | engine ${ms(bstEngine)} ms, Run ${ms(bstRun)} ms in all | ${verdict(bstEngine < 1000 && bstRun < 1000)} |`);
say(`| TreeMap put and remove, lazier# k = 3, < 10 s each | slowest Run ${ms(tmRun)} ms | ${verdict(bothOk(tmRows, (b) => b.ms, 10000))} |`);
say(`| Kiasan's k = 3 rows (lazier#) < 5 s each, with Kiasan's test counts | slowest Run ${ms(kiasanRun)} ms; counts ${kiasanCounts ? 'equal' : 'differ'} | ${verdict(bothOk(kiasanRows, (b) => b.ms, 5000) && kiasanCounts)} |`);
if (allRows) {
  say(`| wasm/native ≤ 1.5× over the bench | browser ${browserRatio.toFixed(2)}× (${compared} rows: native ${nativeTotal} ms, browser ${ms(browserTotal)} ms)${Number.isFinite(nodeRatio) ? `; node ${nodeRatio.toFixed(2)}×` : ''} | ${verdict(browserRatio <= 1.5)} |`);
}
say(`| first visit ≤ 10 MB compressed | ${(firstVisitBytes / 2 ** 20).toFixed(2)} MiB over the wire, no Z3 | ${verdict(firstVisitBytes <= 10 * 2 ** 20)} |`);

// Issue 32.
const ratioOf = (a, b) => `${(a.ms / b.ms).toFixed(2)}×`;
const worstConfirmed = (column) => {
  const rows = [...confirmed.values()].filter((c) => !c.browser.timedOut);
  return rows.length ? `${Math.max(...rows.map((c) => c[column].ms / c.native.ms)).toFixed(2)}×` : '—';
};
const mib = (n) => `${(n / 2 ** 20).toFixed(2)} MiB`;
const goalRuns = [...BST_SL, ...K3].map((r) => goalBrowser.get(key(r)));
const worstRun = Math.max(...goalRuns.map((b) => b.explore.ms / b.engine.ms));
const longestOf = (run) => Math.max(0, ...run.tasks.map((t) => t.ms));
const longest = Math.max(longestOf(uiRun), longestOf(bigRun));
const tasksText = (run) => `${run.tasks.length} long tasks (> 50 ms), longest ${ms(longestOf(run))} ms, ${ms(run.tasks.reduce((a, t) => a + t.ms, 0))} ms in all`;
const ackText = (a) => (a.ms === null
  ? a.note
  : `${ms(a.ms)} ms, ${a.status} at ${ms(a.doneMs)} ms${a.pressedAt ? ` (pressed ${a.pressedAt} ms into the run: at 300 ms its exploration was over)` : ''}`);
say('');
say('#### Issue 32: Z3 only when asked, the page\'s Run, a page that never freezes');
say('');
say('| goal | measured | |');
say('|---|---|---|');
say(`| first visit < 1.5 MB compressed, no Z3 | ${mib(firstVisitBytes)} before any Z3 query (Z3 ${z3Before}); ${mib(afterZ3Bytes)} after the first query that needs Z3 (\`${z3Row.method}\` of ${path.basename(z3Row.file)}: ${z3First.sent} sent, ${ms(z3First.ms)} ms with Z3's download and start; Z3 ready at ${ms(marks.z3Ready)} ms from navigation, fetch started at ${ms(marks.z3Fetch)} ms) | ${verdict(firstVisitBytes < 1.5e6 && z3Before !== 'ready')} |`);
if (allRows) {
  say(`| wasm within 1.5× of native on every row over 50 ms | ${over50} rows over 50 ms natively, measured again native, node and browser in turn (fastest of ${CONFIRM_REPS}, table below): browser over 1.5× on ${over50Browser.length}, node on ${over50Node}; worst browser ${worstConfirmed('browser')}, node ${worstConfirmed('node')} | ${verdict(over50Browser.length === 0)} |`);
}
say(`| the page's Run within 1.1× of the bare engine request | Run / engine on the goal rows: worst ${worstRun.toFixed(2)}× | ${verdict(worstRun <= 1.1)} |`);
say(`| no main-thread task over 100 ms during the heaviest Explore run, and the largest | ${heavy.method} ${heavy.strategy} k = ${heavy.k} pressed in the Explore tab (${uiRun.nodes} nodes, ${uiRun.tests} tests, ${ms(uiRun.ms)} ms to the last batch drawn): ${tasksText(uiRun)}; ${largest.method} ${largest.strategy} k = ${largest.k} at the default bounds (${bigRun.nodes} nodes, ${bigRun.tests} tests, ${ms(bigRun.ms)} ms): ${tasksText(bigRun)} | ${verdict(longest <= 100)} |`);
say(`| Pause and Cancel acknowledged within 200 ms | Cancel ${ackText(cancelAck)}, Pause ${ackText(pauseAck)} | ${verdict([cancelAck, pauseAck].every((a) => a.ms !== null && a.ms <= 200))} |`);
const memoryOk = [uiMemory, bigMemory].every((m) => m !== null && m < 200 * 2 ** 20);
const memText = (m) => (m === null ? 'memory not measurable' : mib(m));
say(`| the tab under 200 MB after ${heavy.method} k = ${heavy.k}, the tree virtualised | ${memText(uiMemory)} (page and workers, measureUserAgentSpecificMemory), ${uiRun.dom} DOM elements; after ${largest.method} ${largest.strategy} (${bigRun.nodes} nodes): ${memText(bigMemory)}, ${bigRun.dom} DOM elements | ${verdict(memoryOk)} |`);
for (const [what, run] of [[heavy, uiRun], [largest, bigRun]]) {
  if (run.tasks.length) say(`\nLong tasks of ${what.method} ${what.strategy} (start ms: duration ms): ${run.tasks.map((t) => `${ms(t.start)}: ${ms(t.ms)}`).join(', ')}.`);
}
if (over50Browser.length) say(`\nRows over 50 ms where the browser took more than 1.5× native: ${over50Browser.map((r) => `${path.basename(r.file)} ${r.method} ${r.strategy}`).join('; ')}.`);
if (confirmed.size) {
  say('');
  say(`Rows over 50 ms natively in the bench, measured again: native (\`heaplab run\`), node and browser in turn, ${CONFIRM_REPS} times, the fastest of each.`);
  say('');
  say('| file | method | strategy | k | native ms | node ms | node/native | browser ms | browser/native | tests native / node / browser |');
  say('|---|---|---|---|---|---|---|---|---|---|');
  for (const [k, c] of confirmed) {
    const [file, method, strategy, kk] = k.split('|');
    const same = c.native.tests === c.node.tests && c.native.tests === c.browser.tests;
    say(`${label({ file, method, strategy, k: kk })} ${ms(c.native.ms)} | ${ms(c.node.ms)} | ${ratioOf(c.node, c.native)} | ${ms(c.browser.ms)}${c.browser.timedOut ? ' (cap)' : ''} | ${ratioOf(c.browser, c.native)} | ${c.native.tests} / ${c.node.tests} / ${c.browser.tests}${same ? '' : ' ≠'} |`);
  }
}

if (allRows) {
  say('');
  say(`### Every bench row, k = ${native.k}: native, node, browser engine`);
  say('');
  say(`wasm/native overall: browser ${browserRatio.toFixed(2)}× over ${compared} rows; node ${Number.isFinite(nodeRatio) ? `${nodeRatio.toFixed(2)}×` : '—'}.` +
    (mismatches > 0 ? ` ${mismatches} rows generated different test counts (marked ≠).` : ' Every row generated the same tests on all three.'));
  say('');
  say('| file | method | strategy | k | native ms | node ms | node/native | browser ms | browser/native | tests native / node / browser | Z3 sent / decided in Rust / cached (browser) | Z3 wait ms browser | Z3 wait ms node |');
  say('|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  benchLines.forEach((l) => say(l));
}
say('');

const text = out.join('\n');
process.stdout.write(text);
if (append) await appendFile(path.join(ROOT, 'bench/results.md'), text);
