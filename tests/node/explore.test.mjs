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
import { nodesOfColumns } from '../../web/src/tree-columns.js';

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
  const ex = new engine.Exploration(source, method, JSON.stringify({ strategy, bounds: { k }, file }), solve);
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
  // Kiasan's object version: Comparable elements, compared by keys (lazier 12 / 94, lazy 13).
  ['examples/bstcmp.hl', 'BST.insert', 'lazier', 2, 94],
  ['examples/bstcmp.hl', 'BST.insert', 'lazy', 1, 13],
  // Kiasan's object TreeMap: lazier splits the Object values (put 10 / 78, remove 5 / 43).
  ['examples/treemapcmp.hl', 'TreeMap.put', 'lazier', 2, 78],
  ['examples/treemapcmp.hl', 'TreeMap.remove', 'lazier', 2, 43],
  // Kiasan's insertion sort on Comparable[] (Σ_{i=0..k} i!): array cells, no fork at compare.
  ['examples/isortcmp.hl', 'insertionSort', 'lazier#', 3, 10],
  // `sl` completes the input formula when a path ends, asking the solver there too: a pending
  // answer at that point must undo the whole step (getFirst once explored 36 paths in wasm).
  ['examples/bst.hl', 'BST.insert', 'sl', 2, 21],
  ['examples/cdll.hl', 'LinkedList.getFirst', 'sl', 2, 2],
  // Path-end inputs from models of the remaining formula: some paths have none (discarded) or
  // only deeper ones (bounded by k); the red-black tree's completions ask Z3 from inside the
  // logic's search, where a pending answer must undo the step too. `sl_models`, `sl_no_model`
  // and `sl_run_completions` are compared with the CLI's like every other key.
  ['examples/avl.hl', 'AvlTree.find', 'sl', 2, 20],
  ['examples/treemap.hl', 'TreeMap.get', 'sl', 2, 16],
  // The peers' subjects of issue 19: Object elements no `requires` claims (StackLi, the DLL,
  // MyLinkedList), arrays with exceptions (StackAr, Vector), Comparable arrays and objects
  // (partition, the object AVL tree and merge).
  ['examples/stackli.hl', 'StackLi.contains', 'lazier', 3, 50],
  ['examples/stackli.hl', 'StackLi.contains', 'sl', 2, 12],
  ['examples/dll.hl', 'LinkedList.indexOf', 'sl', 2, 6],
  ['examples/mylist.hl', 'MyLinkedList.find', 'lazy', 2, 3],
  ['examples/stackar.hl', 'StackAr.push', 'lazy', 2, 4],
  ['examples/vector.hl', 'Vector.insertElementAt', 'lazier#', 2, 8],
  ['examples/partition.hl', 'partition', 'lazier', 2, 3],
  ['examples/mergecmp.hl', 'LinkedList.merge', 'lazier', 2, 5],
  ['examples/avlcmp.hl', 'AvlTree.insert', 'lazier#', 1, 4],
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
    // The page's summary lists the same findings as the CLI's (one builder in heaplab-report).
    assert.deepEqual(summary.findings ?? [], native.findings ?? [], 'findings');
    assert.deepEqual(Object.keys(summary.solver_calls).sort(), Object.keys(native.solver_calls).sort());
    assert.equal(summary.solver_calls.failed, 0);
    assert.equal(typeof summary.time_ms, 'number');

    const generated = ex.tests();
    assert.equal(generated.length, tests);
    assert.deepEqual((native.findings ?? []).map((f) => f.test).sort(),
      generated.filter((t) => t.outcome === 'error').map((t) => t.name).sort(),
      'the CLI lists as findings the tests that end in an error');
    for (const t of generated) {
      assert.match(t.name, /^gen_/);
      assert.ok(['returned', 'error'].includes(t.outcome));
      assert.ok(t.hl.includes(`test ${t.name}`), t.hl);
      assert.ok(Array.isArray(t.input.objects));
      if (method.includes('.')) assert.match(t.input.receiver, /^o\d+$/);
    }
    // The page's tests come without their blocks, which testBlocks() gives in the same order.
    const bare = ex.tests(false);
    assert.deepEqual(bare.map((t) => t.hl), generated.map(() => undefined));
    assert.deepEqual(bare, generated.map(({ hl: _, ...rest }) => rest));
    assert.deepEqual(ex.testBlocks(), generated.map((t) => t.hl));
    // The worker posts them as text (testsText), which the page parses into the same tests.
    assert.deepEqual(JSON.parse(ex.testsText(false)), bare);
    const hl = ex.testsHl();
    const out = path.join(tmp, `${path.basename(file, '.hl')}_${method.replace('.', '_')}_${strategy.replace('#', 'sharp')}_${k}.hl`);
    await writeFile(out, hl);
    const { stdout } = await run(HEAPLAB, ['test', out], { cwd: ROOT, maxBuffer: 1 << 26 });
    assert.match(stdout, / 0 failed/, stdout);
    for (const t of generated) assert.ok(stdout.includes(t.name), `${t.name} ran`);
  });
}

// symheap's all-heaps mode in wasm (the page's "every input heap"): a test for each distinct
// input heap of a path. Oracles: the CLI's `--all-heaps` summary, and lazy, whose paths each
// have one input heap, so that it has as many tests as symheap has heaps (paper 003, Figure 1).
test('symheap all-heaps mode: one test per input heap, as the CLI and as lazy has paths', async () => {
  const file = 'examples/heapsummary.hl';
  const method = 'LinkedList.run1';
  const source = await readFile(path.join(ROOT, file), 'utf8');
  const ex = new engine.Exploration(source, method, { strategy: 'symheap', bounds: { k: 2 }, all_heaps: true, file }, solve);
  const summary = await ex.runToEnd(0);
  const { stdout } = await run(
    HEAPLAB,
    ['run', file, '--method', method, '--strategy', 'symheap', '--k', '2', '--all-heaps', '--format', 'json'],
    { cwd: ROOT, maxBuffer: 1 << 26 },
  );
  const native = JSON.parse(stdout);
  for (const key of Object.keys(native)) {
    if (key === 'time_ms' || key === 'solver_calls' || key === 'findings') continue;
    assert.deepEqual(summary[key], native[key], `summary key ${key}`);
  }
  const lazy = await cli(file, method, 'lazy', 2);
  assert.equal(summary.all_heaps.heaps, lazy.tests);
  assert.equal(summary.all_heaps.paths_cut, 0);
  assert.equal(summary.tests, summary.all_heaps.heaps);
  assert.ok(summary.tests > summary.paths_feasible, `${summary.tests} heaps from ${summary.paths_feasible} paths`);
  // Without the option: one test per path, and no all_heaps key (as the CLI without the flag).
  const plain = new engine.Exploration(source, method, { strategy: 'symheap', bounds: { k: 2 }, file }, solve);
  const one = await plain.runToEnd(0);
  assert.equal(one.tests, one.paths_feasible);
  assert.equal(one.all_heaps, null);
  // Every heap's test passes when the interpreter runs it.
  const out = path.join(tmp, 'heapsummary_run1_allheaps.hl');
  await writeFile(out, ex.testsHl());
  const replay = await run(HEAPLAB, ['test', out], { cwd: ROOT, maxBuffer: 1 << 26 });
  assert.match(replay.stdout, / 0 failed/, replay.stdout);
  for (const t of ex.tests()) assert.ok(replay.stdout.includes(t.name), `${t.name} ran`);
});

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
  const ex = new engine.Exploration(source, 'BST.insert', '{"bounds": {"k": 2}}', solve);
  assert.equal(await ex.runToEnd(5), null);
  let summary = null;
  while (summary === null) summary = await ex.runToEnd(50);
  assert.equal(summary.tests, 21);

  const cancelled = new engine.Exploration(source, 'BST.insert', { bounds: { k: 3 } }, solve);
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
  // The method picker's list: every method that is not pure, with its parameters, in order.
  const methods = engine.methods(source);
  assert.deepEqual(methods.find((m) => m.name === 'BST.insert'), { name: 'BST.insert', requires: true, params: ['x'], line: 13 });
  assert.ok(methods.every((m) => !/contains|isBst/.test(m.name)), 'pure helpers are not offered');
  // The message says where: line and column of the first error, as the editor shows it.
  assert.throws(() => new engine.Exploration('class A {\n  int f(int x) { return y; }\n}', 'A.f', {}, solve),
    (e) => e.kind === 'ProgramHasErrors' && /first: 2:25: unknown variable `y`/.test(e.message));
  // With the Rust procedure off, so queries reach the failing solve (Rust decides them all).
  const broken = new engine.Exploration(source, 'BST.insert', { procedure: false }, () => Promise.reject(new Error('no z3')));
  await assert.rejects(broken.runToEnd(0), (e) => e instanceof Error && e.kind === 'Io' && /no z3/.test(e.message));
  // A run that awaits Z3 (the procedure off): with Rust deciding every query, runToEnd(0) never
  // waits, so nothing could overlap it.
  const busy = new engine.Exploration(source, 'BST.insert', { procedure: false }, solve);
  const a = busy.runToEnd(0);
  await assert.rejects(busy.step(), (e) => e.kind === 'Busy');
  assert.equal((await a).tests, 21);
});

// `heaplab run --help` states the strategy names and every default bound: the page's menus
// must offer the same.
test('strategies() and bounds() are the CLI\'s', async () => {
  const { stdout: help } = await run(HEAPLAB, ['run', '--help'], { cwd: ROOT });
  const option = (flag) => {
    const at = help.indexOf(`      ${flag} `);
    assert.ok(at >= 0, flag);
    return help.slice(at, help.indexOf('\n      --', at + 1));
  };
  // Every registry row: the explorer's run in an `Exploration`, the concolic driver's in
  // `concolicRun` (tests/node/concolic.test.mjs).
  const possible = option('--strategy').match(/\[possible values: ([^\]]*)\]/)[1].split(', ');
  const rows = engine.strategies();
  assert.deepEqual(rows.map((r) => r.name), possible);
  for (const r of rows) {
    assert.ok(r.source.length > 0 && r.description.length > 0 && r.learn.length > 0, r.name);
    if (r.driver === 'explorer') {
      new engine.Exploration('class A { int f(int x) { return x; } }', 'A.f', { strategy: r.name }, solve);
    }
  }
  const cliDefault = (flag) => Number(option(flag).match(/\[default: (\d+)\]/)[1]);
  const bounds = engine.bounds();
  assert.ok(bounds.length >= 8, JSON.stringify(bounds));
  for (const b of bounds) assert.equal(b.default, cliDefault(`--${b.name.replaceAll('_', '-')}`), b.name);
  const defaultOf = (name) => bounds.find((b) => b.name === name).default;
  const source = await readFile(path.join(ROOT, 'examples/bst.hl'), 'utf8');
  const ex = new engine.Exploration(source, 'BST.isEmpty', { strategy: 'sl', bounds: { depth: 1 } }, solve);
  const summary = await ex.runToEnd(0);
  const native = await run(HEAPLAB, ['run', 'examples/bst.hl', '--method', 'BST.isEmpty', '--strategy', 'sl', '--depth', '1', '--format', 'json'], { cwd: ROOT });
  assert.equal(summary.paths, JSON.parse(native.stdout).paths);
  assert.equal(summary.k, defaultOf('k'));
});

// Issue 21: the module counts its allocations, so a memory bound stops an exploration that
// would grow past it (the page's worker trapped instead) and names the bound.
test('max_memory_mb stops an exploration on the memory bound', async () => {
  // BST insert of Object elements at k = 4: under lazy an element may alias any object, which
  // no bound of this size holds.
  const source = await readFile(path.join(ROOT, 'examples/bstcmp.hl'), 'utf8');
  const bounds = { k: 4, max_states: 100000000, timeout_ms: 0, max_memory_mb: 16 };
  const ex = new engine.Exploration(source, 'BST.insert', { strategy: 'lazy', bounds }, solve);
  const summary = await ex.runToEnd(0);
  assert.deepEqual(summary.bounds_hit.includes('memory'), true, JSON.stringify(summary.bounds_hit));
  // A small run stays under the same bound.
  const bst = await readFile(path.join(ROOT, 'examples/bst.hl'), 'utf8');
  const small = new engine.Exploration(bst, 'BST.isEmpty', { strategy: 'lazy', bounds: { max_memory_mb: 16 } }, solve);
  const done = await small.runToEnd(0);
  assert.deepEqual(done.bounds_hit, [], JSON.stringify(done));
});

const fieldOf = (view, obj, name) => {
  const o = view.objects.find((x) => x.id === obj);
  assert.ok(o, `${obj} in view of ${view.node}`);
  return o.fields.find((f) => f.name === name).value;
};

test('view(): a lazy-initialization child shows the field it initialized', async () => {
  const source = await readFile(path.join(ROOT, 'examples/bst.hl'), 'utf8');
  const ex = new engine.Exploration(source, 'BST.insert', { strategy: 'lazy', bounds: { k: 1 } }, solve);
  let checked = 0;
  for (;;) {
    const e = await ex.step();
    if (e === null) break;
    if (e.kind !== 'lazyInit' || e.details.fork !== 'lazyInit' || !e.label.includes('.')) continue;
    const [obj, name] = e.label.split('.');
    const parent = ex.view(e.node);
    assert.equal(parent.at, 'fork');
    assert.deepEqual(fieldOf(parent, obj, name), { kind: 'unread' });
    e.details.options.forEach((option, i) => {
      const child = ex.view(e.details.children[i]);
      assert.equal(child.node, e.details.children[i]);
      assert.equal(child.at, 'live');
      const id = option.replace('fresh ', '');
      assert.deepEqual(fieldOf(child, obj, name), option === 'null' ? { kind: 'null' } : { kind: 'obj', id });
      if (option.startsWith('fresh ')) {
        const fresh = child.objects.find((o) => o.id === id);
        assert.equal(fresh.origin, 'input');
        assert.deepEqual(fresh.fields.map((f) => f.name), ['key', 'left', 'right']);
      }
    });
    checked += 1;
  }
  assert.ok(checked > 0);
  const tree = ex.tree();
  for (const n of tree) {
    const v = ex.view(n.id);
    assert.ok(v, `view of ${n.id}`);
    assert.equal(v.node, n.id);
    assert.equal(v.label, n.label);
    assert.deepEqual(v.roots, [
      { name: 'this', value: { kind: 'obj', id: 'o1' } },
      { name: 'x', value: { kind: 'int', text: 'x' } },
    ].slice(0, v.roots.length));
    if (n.outcome !== null) {
      assert.equal(v.at, 'end');
      assert.equal(v.outcome.kind, n.outcome);
    }
  }
  assert.equal(ex.view(tree.length + 10), null);
});

test('view(): lazier# resolutions, path conditions by name, sl predicates', async () => {
  const source = await readFile(path.join(ROOT, 'examples/bst.hl'), 'utf8');
  const ex = new engine.Exploration(source, 'BST.insert', { strategy: 'lazier#', bounds: { k: 2 } }, solve);
  let resolved = 0;
  for (;;) {
    const e = await ex.step();
    if (e === null) break;
    if (e.kind !== 'lazyInit' || e.details.fork !== 'resolve' || !e.label.startsWith('ref')) continue;
    const open = (v) => v.symbolic.map((s) => s.id);
    assert.ok(open(ex.view(e.node)).includes(e.label));
    const [isNull, isLoc] = e.details.children.map((c) => ex.view(c));
    assert.ok(!open(isNull).includes(e.label) && !open(isLoc).includes(e.label));
    assert.ok(open(isLoc).includes(e.details.options[1]));
    resolved += 1;
  }
  assert.ok(resolved > 0);
  let named = 0;
  for (const n of ex.tree().filter((t) => t.outcome === 'returned')) {
    const pc = ex.view(n.id).pathCondition;
    for (const fact of pc) {
      assert.doesNotMatch(fact, /\b[xb]\d+\b/, 'variables are named by origin');
      assert.doesNotMatch(fact, /9223372036854775807/, 'no range facts');
    }
    if (pc.some((f) => /\bx\b/.test(f) && /\bo\d+\.key\b/.test(f))) named += 1;
  }
  assert.ok(named > 0);

  const sl = new engine.Exploration(source, 'BST.insert', { strategy: 'sl', bounds: { k: 1 } }, solve);
  const instances = [];
  for (;;) {
    const e = await sl.step();
    if (e === null) break;
    if (e.kind === 'lazyInit' && e.details.fork === 'disjunct' && e.label.startsWith('unfold ')) {
      const parent = sl.view(e.node);
      const child = sl.view(e.details.children[0]);
      assert.equal(child.predicates.length + 1, parent.predicates.length);
      instances.push(...parent.predicates);
    }
  }
  assert.ok(instances.length > 0);
  assert.deepEqual(instances[0], { text: 'bst(ref0, lo, hi)', name: 'bst', root: 'ref0', depth: 1 });
});

test('treeSince(start) gives the nodes from start on, as tree()', async () => {
  const source = await readFile(path.join(ROOT, 'examples/swap.hl'), 'utf8');
  const ex = new engine.Exploration(source, 'Node.swap', { strategy: 'lazy' }, solve);
  const seen = [];
  for (;;) {
    const e = await ex.step();
    for (const n of ex.treeSince(seen.length)) {
      assert.equal(n.id, seen.length);
      seen.push(n);
    }
    if (e === null) break;
  }
  const tree = ex.tree();
  assert.deepEqual(seen.map((n) => [n.id, n.parent, n.label]), tree.map((n) => [n.id, n.parent, n.label]));
  assert.deepEqual(ex.treeSince(0), tree);
  assert.deepEqual(ex.treeSince(5), tree.slice(5));
  assert.deepEqual(ex.treeSince(tree.length + 3), []);
});

// The page's Run takes each slice's new nodes as columns (web/src/tree-columns.js makes the
// objects) and its events as JSON text; the nodes are tree()'s, but for a path end folded into
// its node, whose line is the end's (its event is gone from the slice).
test('runSlice nodes, as columns, are tree()\'s nodes with the ends folded in', async () => {
  const source = await readFile(path.join(ROOT, 'examples/bst.hl'), 'utf8');
  const ex = new engine.Exploration(source, 'BST.remove', { strategy: 'lazy', bounds: { k: 2 } }, null);
  const seen = [];
  const endLines = new Map();
  for (;;) {
    const slice = await ex.runSlice(1, seen.length);
    assert.ok(slice.nodes.rows instanceof Int32Array && slice.nodes.ends instanceof Uint32Array);
    assert.equal(slice.nodes.first, seen.length);
    const nodes = nodesOfColumns(slice.nodes);
    seen.push(...nodes);
    for (const e of JSON.parse(slice.eventsJson)) if (e.kind === 'pathEnd') endLines.set(e.node, e.line);
    if (slice.over) break;
  }
  await ex.runToEnd(0);
  const tree = ex.tree();
  assert.ok(tree.length > 100, `${tree.length} nodes`);
  assert.equal(seen.length, tree.length);
  let moved = 0;
  seen.forEach((n, i) => {
    assert.equal(n.id, i);
    const t = tree[i];
    if (n.line !== t.line) {
      assert.ok(n.outcome !== null && !endLines.has(n.id), `node ${i} moved to a line without an end folded in`);
      moved += 1;
    }
    // A node made in one slice and ended in a later one is still open in its columns.
    const ended = n.outcome === null && t.outcome !== null;
    assert.deepEqual({ ...n, line: t.line, ...(ended ? { outcome: t.outcome, colour: t.colour, text: t.text, path: t.path } : {}) }, t, `node ${i}`);
    if (ended) assert.ok(endLines.has(n.id), `node ${i} ended in a later slice, by an event`);
  });
  assert.ok(moved > 0, 'some ends are at another line than their node was made');
  ex.free();
});

test('coverage() and tests\' lines: statements the replay ran, branches as the summary', async () => {
  const source = await readFile(path.join(ROOT, 'examples/bst.hl'), 'utf8');
  const lineOf = (after, needle) => {
    const at = source.indexOf(needle, source.indexOf(after));
    assert.ok(at >= 0, needle);
    return source.slice(0, at).split('\n').length;
  };
  const ex = new engine.Exploration(source, 'BST.insert', { bounds: { k: 2 } }, solve);
  assert.equal(ex.coverage(), null);
  const summary = await ex.runToEnd(0);
  const cov = ex.coverage();
  const sorted = (xs) => xs.every((x, i) => i === 0 || xs[i - 1] < x);
  assert.ok(sorted(cov.executable) && sorted(cov.covered));
  for (const l of cov.covered) assert.ok(cov.executable.includes(l), `covered line ${l} is executable`);
  assert.ok(cov.executable.includes(lineOf('void insert', 'this.root = insertAt')));
  assert.ok(!cov.executable.includes(lineOf('Node findAt', 'return findAt(x, t.left)')), 'find is not called');
  const taken = cov.branches.reduce((n, b) => n + b.covered.filter(Boolean).length, 0);
  assert.equal(taken, summary.branches_covered);
  assert.equal(cov.branches.length * 2, summary.branches_total);

  const tests = ex.tests();
  const union = [...new Set(tests.flatMap((t) => t.lines))].sort((a, b) => a - b);
  assert.deepEqual(union, cov.covered);
  const nullTest = lineOf('Node insertAt', 'if (t == null)');
  const goLeft = lineOf('Node insertAt', 't.left = insertAt');
  const empty = tests.find((t) => {
    const receiver = t.input.objects.find((o) => o.id === t.input.receiver);
    return receiver.fields.root === null;
  });
  assert.ok(empty, 'a test on the empty tree');
  assert.ok(empty.lines.includes(nullTest), `${empty.lines} has line ${nullTest}`);
  assert.ok(!empty.lines.includes(goLeft));
  const site = cov.branches.find((b) => b.line === nullTest);
  assert.deepEqual(site.covered, [true, true]);
});

test('testsJunit(stem) writes what `heaplab run --emit junit` writes', async () => {
  const source = await readFile(path.join(ROOT, 'examples/bst.hl'), 'utf8');
  const ex = new engine.Exploration(source, 'BST.insert', { bounds: { k: 1 } }, solve);
  assert.equal(ex.testsJunit('bst'), null);
  await ex.runToEnd(0);
  const out = await mkdtemp(path.join(tmp, 'junit-'));
  await run(HEAPLAB, ['run', 'examples/bst.hl', '--method', 'BST.insert', '--k', '1', '--emit', 'junit', '--out', out], { cwd: ROOT });
  const junit = ex.testsJunit('bst');
  assert.deepEqual(junit.warnings, []);
  assert.ok(junit.files.some((f) => f.name === 'bst/BSTInsertTest.java'));
  for (const f of junit.files) {
    assert.equal(f.text, await readFile(path.join(out, f.name), 'utf8'), f.name);
  }
  const { stdout: listing } = await run('find', [out, '-type', 'f'], {});
  assert.equal(listing.trim().split('\n').length, junit.files.length);

  const assumes = 'class C { int v; int f(int x) { assume x > 0; return x; } }';
  const bad = new engine.Exploration(assumes, 'C.f', {}, solve);
  await bad.runToEnd(0);
  // `assume e;` in a method body becomes a check that fails the test, as a false `assume`
  // fails a HeapLab test's replay.
  const assumed = bad.testsJunit('c');
  assert.deepEqual(assumed.warnings, []);
  assert.ok(assumed.files.some((f) => /if \(!\(x > 0L\)\) \{\s*throw new AssertionError\("assumption violated/.test(f.text)), assumed.files.map((f) => f.text).join('\n'));
});

test('no Z3 reply was garbled by the bridge', () => {
  assert.deepEqual(garbled, []);
});

// Past the states whose views the engine keeps (5000), an `sl` path end's event carries no
// formula text (Sink::detailed_at); the last event's words still read as a sentence.
test('the last event of an sl path end reads with and without its formula', async () => {
  const { describeEvent } = await import('../../web/src/views/explore-controls.js');
  const event = (formula) => ({ kind: 'slModel', line: 7, details: { formula, model: 'o1.root = null' } });
  assert.equal(describeEvent(event('tree(o1.root)')),
    'line 7: the rest of the input is built from a solution of tree(o1.root): o1.root = null');
  assert.equal(describeEvent(event('')),
    'line 7: the rest of the input is built from a solution of the formula left: o1.root = null');
});

// A lazy initialization's options are written for the first 5000 states only (Sink::detailed_at:
// the page's views stop there, and the children's labels say them); stepped past those, its
// event still reads as a sentence.
test('a lazy initialization past the kept views has no option texts and reads without them', async () => {
  const { describeEvent } = await import('../../web/src/views/explore-controls.js');
  // BST insert of Object elements at k = 3 (1.2 M states to its end).
  const source = await readFile(path.join(ROOT, 'examples/bstcmp.hl'), 'utf8');
  const ex = new engine.Exploration(source, 'BST.insert', { strategy: 'lazy', bounds: { k: 3, max_states: 8000 } }, null);
  let within = null;
  let past = null;
  for (let e = await ex.step(); e !== null && past === null; e = await ex.step()) {
    if (e.kind !== 'lazyInit') continue;
    if (e.node < 5000) within ??= e;
    else past = e;
  }
  ex.free();
  assert.ok(within && past, 'lazy initializations on both sides of the limit');
  assert.equal(within.details.options.length, within.details.children.length);
  assert.match(describeEvent(within), /^line \d+: read [^:]+ for the first time: \S/);
  assert.deepEqual(past.details.options, []);
  assert.match(describeEvent(past), /^line \d+: read [^:]+ for the first time$/);
});
