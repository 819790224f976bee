// The Rust decision procedure in wasm against Z3 wasm, on a sample of the query corpus
// (crates/heaplab-smt/tests/corpus/queries.jsonl, every distinct query the example suite sends);
// and an exploration with no Z3 at all (a page without SharedArrayBuffer) against one with Z3.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { engineAndBridge, ROOT } from './helpers.mjs';

const lab = engineAndBridge();

/** Every `step`-th query of the corpus (about `n` of them). */
async function sample(n) {
  const text = await readFile(path.join(ROOT, 'crates/heaplab-smt/tests/corpus/queries.jsonl'), 'utf8');
  const all = text.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
  const step = Math.max(1, Math.floor(all.length / n));
  return all.filter((_, i) => i % step === 0);
}

test('the Rust procedure agrees with Z3 wasm on a sample of the query corpus', async (t) => {
  const queries = await sample(150);
  assert.ok(queries.length >= 100, `${queries.length} queries`);
  const rust = new lab.engine.Z3Solver(null);
  const z3 = new lab.engine.Z3Solver(lab.bridge.solve, { procedure: false });
  let decided = 0;
  for (const [i, q] of queries.entries()) {
    const r = await rust.check(q);
    const z = await z3.check(q);
    if (r.status === 'unknown') {
      assert.match(r.reason, /^outside the Rust procedure's fragment/);
      continue;
    }
    decided += 1;
    assert.equal(r.status, z.status, `query ${i} (${q.from}): Rust ${r.status}, Z3 ${z.status}`);
    if (r.status === 'sat') assert.equal(r.rechecked, true, `query ${i}: model re-checked`);
  }
  const stats = rust.stats();
  assert.equal(stats.z3, false);
  assert.equal(stats.solverCalls, 0);
  assert.equal(stats.unknownWithoutZ3, queries.length - decided);
  t.diagnostic(`Rust procedure decided ${decided} of ${queries.length} sampled queries; Z3 wasm agreed on all`);
  assert.ok(decided >= 0.9 * queries.length, `decided ${decided} of ${queries.length}`);
});

test('without Z3, raw scripts are refused and outside queries are unknown, never guessed', async () => {
  const rust = new lab.engine.Z3Solver(null);
  await assert.rejects(rust.solve('(check-sat)'), (e) => e.kind === 'WasmLoad');
  const outside = await rust.check({ vars: { x: 'Int' }, assert: ['(= (div x 0) 3)'] });
  assert.equal(outside.status, 'unknown');
  assert.match(outside.reason, /^outside the Rust procedure's fragment/);
  const inside = await rust.check({ vars: { x: 'Int', y: 'Int' }, assert: ['(= (+ (* 2 x) (* 3 y)) 17)', '(> x 5)', '(> y 0)'] });
  assert.deepEqual([inside.status, inside.model], ['sat', { x: 7, y: 1 }]);
});

// [file, method, strategy, k]
const RUNS = [
  ['examples/bst.hl', 'BST.insert', 'sl', 2],
  ['examples/bst.hl', 'BST.insert', 'lazier#', 2],
  ['examples/treemap.hl', 'TreeMap.put', 'lazier#', 2],
  ['examples/avl.hl', 'AvlTree.insert', 'sl', 2],
];

for (const [file, method, strategy, k] of RUNS) {
  test(`${method} ${strategy} k=${k} without Z3 gives the tests it gives with Z3`, async () => {
    const source = await readFile(path.join(ROOT, file), 'utf8');
    const options = JSON.stringify({ strategy, bounds: { k }, file });
    const withZ3 = new lab.engine.Exploration(source, method, options, lab.bridge.solve);
    const a = await withZ3.runToEnd(0);
    const alone = new lab.engine.Exploration(source, method, options, null);
    const b = await alone.runToEnd(0);
    for (const key of ['paths', 'paths_feasible', 'paths_infeasible', 'paths_bounded', 'tests', 'errors', 'branches_covered']) {
      assert.equal(b[key], a[key], key);
    }
    const stats = alone.solverStats();
    assert.equal(stats.z3, false);
    assert.equal(stats.sentToZ3, 0);
    assert.equal(stats.unknownWithoutZ3, 0, 'every query was in the fragment');
    assert.equal(stats.decidedInRust, b.solver_calls.decided_locally);
    const z = withZ3.solverStats();
    assert.equal(z.z3, true);
    assert.equal(z.sentToZ3, a.solver_calls.sent);
  });
}

test('with the procedure off, Z3 wasm answers and the end-of-run models go in batched calls', async () => {
  // Sums of two digits: the engine's own models (difference constraints) leave the tests'
  // integers to the solver here.
  const file = 'examples/addlists.hl';
  const source = await readFile(path.join(ROOT, file), 'utf8');
  const base = { strategy: 'lazier#', bounds: { k: 2 }, file };
  const rust = new lab.engine.Exploration(source, 'add', base, lab.bridge.solve);
  const a = await rust.runToEnd(0);
  const z3 = new lab.engine.Exploration(source, 'add', { ...base, procedure: false }, lab.bridge.solve);
  const b = await z3.runToEnd(0);
  for (const key of ['paths', 'paths_feasible', 'tests', 'errors', 'branches_covered']) assert.equal(b[key], a[key], key);
  const stats = z3.solverStats();
  assert.ok(stats.sentToZ3 > 0, JSON.stringify(stats));
  assert.equal(stats.decidedByProcedure, 0);
  assert.ok(stats.batchedCalls >= 1, JSON.stringify(stats));
  assert.equal(rust.solverStats().sentToZ3, 0);
});
