// Wasm half of `./build.sh bench`: runs the batch written by the native bench through the wasm
// engine's Z3Solver on Z3 wasm, then prints the comparison table.
// Usage: node tests/bench/wasm.mjs BATCH.json NATIVE_RESULT_JSON
import { readFile } from 'node:fs/promises';
import { loadEngine, loadBridge } from '../node/helpers.mjs';

const [batchPath, nativeJson] = process.argv.slice(2);
const batch = JSON.parse(await readFile(batchPath, 'utf8'));
const native = JSON.parse(nativeJson);

const engine = await loadEngine();
const bridge = await loadBridge();
await bridge.initZ3(); // Loading Z3 wasm (about a second) is not part of the measurement.
const solver = new engine.Z3Solver(bridge.solve);

let sat = 0;
let unsat = 0;
const start = performance.now();
for (const q of batch) {
  const res = await solver.check(q);
  if (res.status === 'sat') sat += 1;
  else if (res.status === 'unsat') unsat += 1;
  else throw new Error(`unexpected ${res.status}: ${JSON.stringify(q)}`);
}
const totalMs = performance.now() - start;
const s = solver.stats();
await bridge.shutdown();

const wasm = {
  backend: 'wasm (node, z3-solver)',
  queries: batch.length,
  sat,
  unsat,
  totalMs,
  solverCalls: s.solverCalls,
  decidedLocally: s.decidedLocally,
  cacheHits: s.cacheHits,
  solverTimeMs: s.solverTimeMs,
};

if (sat !== native.sat || unsat !== native.unsat) {
  console.error(`backends disagree: native ${native.sat}/${native.unsat}, wasm ${sat}/${unsat} (sat/unsat)`);
  process.exitCode = 1;
}

const f = (x, d = 2) => Number(x).toFixed(d);
const row = (r) =>
  `| ${r.backend} | ${r.queries} | ${r.sat}/${r.unsat} | ${r.solverCalls} | ${r.decidedLocally} | ` +
  `${f((r.queries * 1000) / r.totalMs, 0)} | ${f(r.totalMs / r.queries, 3)} | ` +
  `${f(r.solverCalls ? r.solverTimeMs / r.solverCalls : 0, 3)} |`;
console.log('| backend | queries | sat/unsat | z3 calls | decided locally | calls/second | mean latency ms | mean z3 call ms |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
console.log(row(native));
console.log(row(wasm));
console.log('');
console.log(`wasm/native ratio (mean latency): ${f(wasm.totalMs / native.totalMs, 2)}x`);
