// The solver conformance corpus on Z3 wasm, through the same Rust code path as the native
// backend (heaplab-wasm's Z3Solver over the z3-bridge.js transport).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine, loadBridge, loadCorpus } from './helpers.mjs';

let engine;
let bridge;
let solver;

before(async () => {
  engine = await loadEngine();
  bridge = await loadBridge();
  solver = new engine.Z3Solver(bridge.solve);
});

after(async () => {
  await bridge.shutdown();
});

test('version() is the crate version', () => {
  assert.match(engine.version(), /^\d+\.\d+\.\d+/);
});

test('solve() returns Z3 output text', async () => {
  const out = await solver.solve('(declare-fun x () Int)(assert (> x 1))(check-sat)');
  assert.equal(out.trim(), 'sat');
});

test('conformance corpus', async (t) => {
  const cases = await loadCorpus();
  assert.ok(cases.length >= 20);
  for (const c of cases) {
    await t.test(c.name, async () => {
      let res;
      let err;
      try {
        res = await solver.check(c);
      } catch (e) {
        err = e;
      }
      switch (c.expect) {
        case 'sat':
          assert.equal(err, undefined, `unexpected error ${err?.message}`);
          assert.equal(res.status, 'sat');
          assert.equal(res.rechecked, true, 'model re-checked by the Rust evaluator');
          for (const name of Object.keys(c.vars)) assert.ok(name in res.model, `value for ${name}`);
          for (const [name, value] of Object.entries(c.model ?? {})) assert.equal(res.model[name], value, name);
          break;
        case 'unsat':
          assert.equal(err, undefined, `unexpected error ${err?.message}`);
          assert.equal(res.status, 'unsat');
          break;
        case 'unknown':
          if (err) assert.equal(err.kind, 'Timeout', err.message);
          else assert.equal(res.status, 'unknown');
          break;
        case 'error':
          assert.ok(err instanceof Error, `expected an error, got ${JSON.stringify(res)}`);
          assert.equal(err.kind, c.error, err.message);
          assert.ok(err.message.length > 0);
          break;
        default:
          assert.fail(`unknown expectation ${c.expect}`);
      }
    });
  }
  const stats = solver.stats();
  assert.ok(stats.decidedLocally > 0, JSON.stringify(stats));
  assert.ok(stats.decidedByProcedure > 0, JSON.stringify(stats));
  assert.equal(stats.z3, true);
});

test('check() accepts JSON text and caches repeated queries', async () => {
  // Without the Rust procedure, so the query reaches Z3 (with it, Rust decides this one).
  const solver = new engine.Z3Solver(bridge.solve, { procedure: false });
  const q = JSON.stringify({ vars: { x: 'Int', y: 'Int' }, assert: ['(< x y)', '(> x 10)'] });
  const a = await solver.check(q);
  const b = await solver.check(q);
  assert.deepEqual(a, b);
  const stats = solver.stats();
  assert.equal(stats.solverCalls, 1);
  assert.equal(stats.cacheHits, 1);
});

test('a Z3 load failure becomes a WasmLoad error', async () => {
  const broken = new engine.Z3Solver(() => {
    const e = new Error('Z3 wasm failed to load: no SharedArrayBuffer');
    e.name = 'Z3LoadError';
    return Promise.reject(e);
  });
  // Division by zero is outside the Rust procedure's fragment, so the query goes to Z3.
  await assert.rejects(broken.check({ vars: { x: 'Int' }, assert: ['(= (div x 0) 3)'] }), (e) => {
    assert.equal(e.kind, 'WasmLoad');
    assert.match(e.message, /SharedArrayBuffer/);
    return true;
  });
});

test('malformed input is a typed error, not a crash', async () => {
  await assert.rejects(solver.check('{not json'), (e) => e.kind === 'Malformed');
  await assert.rejects(solver.check({ vars: { x: 'Float' }, assert: [] }), (e) => e.kind === 'Malformed');
  await assert.rejects(solver.check({ vars: {}, assert: ['((((('] }), (e) => e.kind === 'Malformed');
});
