// The engine bench through the wasm engine: every row of the native bench (bench/results.json,
// written by `heaplab bench --format json`) runs again in node with heaplab-wasm's Exploration
// over Z3 wasm, at the same strategy and k. Prints a markdown table with the wasm/native time
// ratio per row and overall, and the wasm linear memory after each run (it only grows), and
// appends it to bench/results.md. The rows also go to tests/artifacts/bench-wasm.json, where
// tests/bench/browser-suite.mjs reads them to print native, node and browser side by side.
//
// Usage: node tests/bench/wasm-suite.mjs [bench/results.json]
//   BENCH_WASM_STRATEGIES=lazier#   only these strategies (comma-separated; default: all rows)
//   BENCH_WASM_CAP_MS=20000         cap per wasm run (the explorer's timeout bound)
//   BENCH_WASM_PROCEDURE=0          without the Rust decision procedure (every query the engine
//                                   leaves goes to Z3 wasm): the numbers before it
import { readFile, appendFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ROOT } from '../node/helpers.mjs';

const input = process.argv[2] ?? path.join(ROOT, 'bench/results.json');
const native = JSON.parse(await readFile(input, 'utf8'));
// `heaplab bench --format json` rows are a run summary plus the memory columns.
native.rows = native.rows.map((r) => ({ ...r.summary, ...r }));
const only = process.env.BENCH_WASM_STRATEGIES?.split(',').map((s) => s.trim()).filter(Boolean);
const capMs = Number(process.env.BENCH_WASM_CAP_MS ?? 20000);
const procedure = process.env.BENCH_WASM_PROCEDURE !== '0';

const pkg = await import(path.join(ROOT, 'web/pkg/heaplab_wasm.js'));
const exports = await pkg.default({ module_or_path: await readFile(path.join(ROOT, 'web/pkg/heaplab_wasm_bg.wasm')) });
const bridge = await import(path.join(ROOT, 'web/src/z3-bridge.js'));
const t0 = performance.now();
await bridge.solve('(check-sat)');
const z3LoadMs = performance.now() - t0;

const sources = new Map();
// A warm-up, untimed: each strategy three times on a small method. V8 optimizes a wasm function
// over several runs, so the first rows of each strategy paid for its code's optimization
// (AATree `insert`, the first `symheap` row, read 4×, its later runs 2×); the page's engine
// worker warms up the same way (worker.js warmUpEngine).
const WARM_UP = { file: 'examples/bst.hl', method: 'BST.insert' };
const warmUpSource = await readFile(path.join(ROOT, WARM_UP.file), 'utf8');
const WARM_UP_ROUNDS = 3;
for (const strategy of Array.from({ length: WARM_UP_ROUNDS }, () => [...new Set(native.rows.map((r) => r.strategy))]).flat()) {
  if (only && !only.includes(strategy)) continue;
  const options = { strategy, bounds: { k: native.k, timeout_ms: capMs }, file: WARM_UP.file, procedure, tree: false };
  const ex = new pkg.Exploration(warmUpSource, WARM_UP.method, JSON.stringify(options), bridge.solve);
  await ex.runToEnd(0);
  ex.free?.();
}
const lines = [];
let nativeTotal = 0;
let wasmTotal = 0;
let compared = 0;
let mismatches = 0;
const calls = { sent: 0, rust: 0, cached: 0, waitMs: 0 };
const rows = [];
for (const row of native.rows) {
  if (only && !only.includes(row.strategy)) continue;
  const label = `| ${path.basename(row.file)} | ${row.method} | ${row.strategy.replace('#', '\\#')} |`;
  if (row.timed_out) {
    lines.push(`${label} ${row.time_ms} (cap) | — | — | ${row.tests} / — | — | — | — |`);
    continue;
  }
  if (!sources.has(row.file)) sources.set(row.file, await readFile(path.join(ROOT, row.file), 'utf8'));
  // No heap views, as native `heaplab bench` keeps none (the Compare tab's rows neither).
  const options = { strategy: row.strategy, bounds: { k: native.k, timeout_ms: capMs }, file: row.file, procedure, tree: false };
  const started = performance.now();
  let summary;
  let st;
  try {
    const ex = new pkg.Exploration(sources.get(row.file), row.method, JSON.stringify(options), bridge.solve);
    summary = await ex.runToEnd(0);
    st = ex.solverStats();
    ex.free?.();
  } catch (err) {
    lines.push(`${label} ${row.time_ms} | error: ${String(err.message ?? err).slice(0, 60)} | — | ${row.tests} / — | — | — | — |`);
    continue;
  }
  calls.sent += st.sentToZ3;
  calls.rust += st.decidedInRust;
  calls.cached += st.cacheHits;
  calls.waitMs += st.z3WaitMs;
  const wasmMs = performance.now() - started;
  const memMb = (exports.memory.buffer.byteLength / 2 ** 20).toFixed(1);
  const same = summary.tests === row.tests;
  if (!same) mismatches += 1;
  const timedOut = summary.bounds_hit?.includes?.('timeout');
  rows.push({
    file: row.file, method: row.method, strategy: row.strategy, k: native.k, wasm_ms: wasmMs,
    timed_out: Boolean(timedOut), tests: summary.tests, sent: st.sentToZ3, rust: st.decidedInRust,
    cached: st.cacheHits, wait_ms: st.z3WaitMs,
  });
  // Runs of a few milliseconds give meaningless ratios; they still count in the totals.
  const ratio = row.time_ms >= 5 ? (wasmMs / row.time_ms).toFixed(1) + 'x' : '—';
  if (!timedOut) {
    nativeTotal += row.time_ms;
    wasmTotal += wasmMs;
    compared += 1;
  }
  lines.push(
    `${label} ${row.time_ms} | ${wasmMs.toFixed(0)}${timedOut ? ' (cap)' : ''} | ${ratio} | ${row.tests} / ${summary.tests}${same ? '' : ' ≠'} | ${st.sentToZ3} / ${st.decidedInRust} / ${st.cacheHits} | ${st.z3WaitMs.toFixed(0)} | ${memMb} |`,
  );
}
await bridge.shutdown();

const overall = nativeTotal > 0 ? (wasmTotal / nativeTotal).toFixed(1) + 'x' : '—';
const out = [
  '',
  `## Wasm engine (node, Z3 wasm), k = ${native.k}`,
  '',
  `The same rows through heaplab-wasm's Exploration on Z3 wasm (z3-solver), ${capMs} ms cap per run${procedure ? '' : ', without the Rust decision procedure'}; Z3 wasm took ${z3LoadMs.toFixed(0)} ms to load first. Memory is the wasm linear memory after the run (it never shrinks). Rows the native run cut at its cap are not rerun. Each strategy ran ${WARM_UP_ROUNDS} times, untimed, on ${WARM_UP.method} before the rows (V8 optimizes a wasm function once it has been busy a while).`,
  '',
  '| file | method | strategy | native ms | wasm ms | wasm/native | tests native / wasm | Z3 sent / decided in Rust / cached | Z3 wait ms | wasm memory MB |',
  '|---|---|---|---|---|---|---|---|---|---|',
  ...lines,
  '',
  `Overall over ${compared} rows that finished on both: native ${nativeTotal} ms, wasm ${wasmTotal.toFixed(0)} ms, wasm/native ${overall}.` +
    (mismatches > 0 ? ` ${mismatches} rows generated a different number of tests (marked ≠).` : ' Every row generated the same tests count on both.') +
    ` Solver queries in wasm: ${calls.sent} sent to Z3 wasm, ${calls.rust} decided in Rust, ${calls.cached} cached; ${calls.waitMs.toFixed(0)} ms waiting for Z3 wasm.`,
  '',
].join('\n');
process.stdout.write(out);
await appendFile(path.join(ROOT, 'bench/results.md'), out);
await mkdir(path.join(ROOT, 'tests/artifacts'), { recursive: true });
await writeFile(path.join(ROOT, 'tests/artifacts/bench-wasm.json'),
  JSON.stringify({ k: native.k, cap_ms: capMs, z3_load_ms: z3LoadMs, rows }, null, 1));
