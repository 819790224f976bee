// Symbolic exploration in wasm (heaplab-wasm's Exploration over Z3 wasm) against the native CLI:
// the same summary as `heaplab run --format json`, and generated tests that `heaplab test` passes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadEngine, loadBridge, ROOT } from './helpers.mjs';

const run = promisify(execFile);
const HEAPLAB = path.join(ROOT, 'target/release/heaplab');

let engine;
let bridge;
let tmp;
let solve;
let garbled = [];

// The bridge once passed scripts to Z3 on the wasm stack, where a long script could be
// overwritten while Z3's thread parsed it (parse errors, a lost `(pop 1)`, stale declarations
// and wrong answers afterwards). Replies showing that damage are recorded, and the last test
// requires that there were none.
function watched(inner) {
  return async (text) => {
    const reply = await inner(text);
    if (/\(error "[^"]*(already declared|invalid command|unexpected character|unknown constant)/.test(reply)) {
      garbled.push(reply.slice(0, 200));
    }
    return reply;
  };
}

before(async () => {
  engine = await loadEngine();
  bridge = await loadBridge();
  solve = watched(bridge.solve);
  tmp = await mkdtemp(path.join(tmpdir(), 'heaplab-explore-'));
});

after(async () => {
  await bridge.shutdown();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

async function cli(file, method, strategy, k) {
  const { stdout } = await run(
    HEAPLAB,
    ['run', file, '--method', method, '--strategy', strategy, '--k', String(k), '--format', 'json'],
    { cwd: ROOT, maxBuffer: 1 << 26 },
  );
  return JSON.parse(stdout);
}

async function wasm(file, method, strategy, k) {
  const source = await readFile(path.join(ROOT, file), 'utf8');
  const ex = new engine.Exploration(source, method, JSON.stringify({ strategy, k, file }), solve);
  const summary = await ex.runToEnd(0);
  return { ex, summary };
}

// [file, method, strategy, k, tests]
const CASES = [
  ['examples/bst.hl', 'BST.insert', 'lazier#', 1, 4],
  ['examples/bst.hl', 'BST.insert', 'lazier#', 2, 21],
  ['examples/swap.hl', 'Node.swap', 'lazy', 2, 20],
  ['examples/swap.hl', 'Node.swap', 'lazier', 2, 6],
  ['examples/swap.hl', 'Node.swap', 'lazier#', 2, 2],
  ['examples/treemap.hl', 'TreeMap.put', 'lazier#', 2, 28],
  // `sl` completes the input formula when a path ends, asking the solver there too: a pending
  // answer at that point must undo the whole step (getFirst once explored 36 paths in wasm).
  ['examples/bst.hl', 'BST.insert', 'sl', 2, 21],
  ['examples/cdll.hl', 'LinkedList.getFirst', 'sl', 2, 2],
];

for (const [file, method, strategy, k, tests] of CASES) {
  test(`${method} ${strategy} k=${k}: ${tests} tests, as the CLI, and they pass`, async () => {
    const [{ ex, summary }, native] = await Promise.all([wasm(file, method, strategy, k), cli(file, method, strategy, k)]);
    assert.equal(summary.tests, tests);
    assert.equal(native.tests, tests);
    for (const key of Object.keys(native)) {
      if (key === 'time_ms' || key === 'solver_calls') continue;
      assert.deepEqual(summary[key], native[key], `summary key ${key}`);
    }
    assert.deepEqual(Object.keys(summary.solver_calls).sort(), Object.keys(native.solver_calls).sort());
    assert.equal(summary.solver_calls.failed, 0);
    assert.equal(typeof summary.time_ms, 'number');

    const generated = ex.tests();
    assert.equal(generated.length, tests);
    for (const t of generated) {
      assert.match(t.name, /^gen_/);
      assert.ok(['returned', 'error'].includes(t.outcome));
      assert.ok(t.hl.includes(`test ${t.name}`), t.hl);
      assert.ok(Array.isArray(t.input.objects));
      if (method.includes('.')) assert.match(t.input.receiver, /^o\d+$/);
    }
    const hl = ex.testsHl();
    const out = path.join(tmp, `${path.basename(file, '.hl')}_${method.replace('.', '_')}_${strategy.replace('#', 'sharp')}_${k}.hl`);
    await writeFile(out, hl);
    const { stdout } = await run(HEAPLAB, ['test', out], { cwd: ROOT, maxBuffer: 1 << 26 });
    assert.match(stdout, / 0 failed/, stdout);
    for (const t of generated) assert.ok(stdout.includes(t.name), `${t.name} ran`);
  });
}

test('step() yields the event stream, tree() the states, then null', async () => {
  const source = await readFile(path.join(ROOT, 'examples/swap.hl'), 'utf8');
  const ex = new engine.Exploration(source, 'Node.swap', { strategy: 'lazier' }, solve);
  const first = await ex.step();
  assert.equal(first.kind, 'start');
  assert.equal(first.parent, null);
  assert.equal(typeof first.node, 'number');
  const kinds = new Set([first.kind]);
  let ends = 0;
  for (;;) {
    const e = await ex.step();
    if (e === null) break;
    kinds.add(e.kind);
    assert.equal(typeof e.label, 'string');
    assert.equal(typeof e.details, 'object');
    if (e.kind === 'pathEnd') {
      ends += 1;
      assert.ok(['returned', 'error', 'bounded', 'discarded', 'internal'].includes(e.details.outcome));
    }
  }
  assert.ok(kinds.has('pathEnd'));
  assert.ok(ends >= 6);
  assert.equal(ex.done, true);
  assert.equal(ex.tests().length, 6);
  assert.equal(await ex.step(), null);
  const tree = ex.tree();
  const ids = new Set(tree.map((n) => n.id));
  for (const n of tree) if (n.parent !== null) assert.ok(ids.has(n.parent), `parent of ${n.id}`);
  const leaves = tree.filter((n) => n.path !== null);
  assert.ok(leaves.length >= 6);
  for (const n of leaves) assert.ok(n.colour && n.outcome && n.text);
  assert.equal(ex.summary().tests, 6);
});

test('runToEnd(maxEvents) resumes; cancel() stops with a summary', async () => {
  const source = await readFile(path.join(ROOT, 'examples/bst.hl'), 'utf8');
  const ex = new engine.Exploration(source, 'BST.insert', '{"k": 2}', solve);
  assert.equal(await ex.runToEnd(5), null);
  let summary = null;
  while (summary === null) summary = await ex.runToEnd(50);
  assert.equal(summary.tests, 21);

  const cancelled = new engine.Exploration(source, 'BST.insert', { k: 3 }, solve);
  const pending = cancelled.runToEnd(0);
  cancelled.cancel();
  const partial = await pending;
  assert.ok(partial.tests < 236);
  assert.equal(cancelled.done, true);
});

test('errors are JS Errors with a kind', async () => {
  const source = await readFile(path.join(ROOT, 'examples/bst.hl'), 'utf8');
  const kindOf = (f) => {
    try {
      f();
    } catch (e) {
      assert.ok(e instanceof Error);
      return e.kind;
    }
    return 'no error';
  };
  assert.equal(kindOf(() => new engine.Exploration(source, 'BST.nope', {}, solve)), 'UnknownMethod');
  assert.equal(kindOf(() => new engine.Exploration(source, 'BST.insert', { strategy: 'eager' }, solve)), 'BadOptions');
  assert.equal(kindOf(() => new engine.Exploration(source, 'BST.insert', { kk: 1 }, solve)), 'BadOptions');
  assert.equal(kindOf(() => new engine.Exploration(source, 'BST.insert', '{', solve)), 'BadOptions');
  assert.equal(kindOf(() => new engine.Exploration('class {', 'A.b', {}, solve)), 'ProgramHasErrors');
  const broken = new engine.Exploration(source, 'BST.insert', {}, () => Promise.reject(new Error('no z3')));
  await assert.rejects(broken.runToEnd(0), (e) => e instanceof Error && e.kind === 'Io' && /no z3/.test(e.message));
  const busy = new engine.Exploration(source, 'BST.insert', {}, solve);
  const a = busy.runToEnd(0);
  await assert.rejects(busy.step(), (e) => e.kind === 'Busy');
  assert.equal((await a).tests, 21);
});

test('no Z3 reply was garbled by the bridge', () => {
  assert.deepEqual(garbled, []);
});
