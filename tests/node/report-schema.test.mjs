// The report vocabulary (issue 28): every command's `--format json` and what the wasm engine
// returns validate against the committed JSON Schema (docs/report.schema.json, generated from
// heaplab-report's types), with an independent validator (ajv). `heaplab run` has the same keys
// for all six strategies, and the wasm summary has the CLI's.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtemp, readFile, rm, copyFile, mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadEngine, loadBridge, ROOT } from './helpers.mjs';

const run = promisify(execFile);
const HEAPLAB = path.join(ROOT, 'target/release/heaplab');
const require = createRequire(path.join(ROOT, 'web/package.json'));
const Ajv2020 = require('ajv/dist/2020').default;

let schema;
let ajv;
let engine;
let bridge;
let tmp;

before(async () => {
  schema = JSON.parse(await readFile(path.join(ROOT, 'docs/report.schema.json'), 'utf8'));
  ajv = new Ajv2020({ allErrors: true, strict: false });
  // schemars marks integer widths (`format: uint64`); they are not JSON Schema formats ajv knows.
  for (const f of ['uint', 'uint8', 'uint16', 'uint32', 'uint64', 'int32', 'int64', 'double']) ajv.addFormat(f, true);
  ajv.addSchema(schema, 'report');
  engine = await loadEngine();
  bridge = await loadBridge();
  tmp = await mkdtemp(path.join(tmpdir(), 'heaplab-schema-'));
});

after(async () => {
  await bridge?.shutdown();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

/** Asserts `doc` is a valid `def` of the schema. */
function valid(def, doc, what) {
  const check = ajv.getSchema(`report#/$defs/${def}`);
  assert.ok(check, `the schema defines ${def}`);
  assert.ok(check(doc), `${what}: ${ajv.errorsText(check.errors)}\n${JSON.stringify(doc).slice(0, 2000)}`);
}

async function cliJson(args) {
  // Commands that find a failure (a failing test, an error outcome) exit 1 and still print.
  const out = await run(HEAPLAB, [...args, '--format', 'json'], { cwd: ROOT, maxBuffer: 1 << 26 })
    .catch((e) => (e.stdout ? e : Promise.reject(e)));
  return JSON.parse(out.stdout);
}

test('heaplab run --format json: the same keys for every strategy of the registry, each a valid RunSummary', async () => {
  const names = engine.strategies().map((s) => s.name);
  assert.equal(names.length, 6);
  const keys = [];
  for (const strategy of names) {
    const doc = await cliJson(['run', 'examples/sll.hl', '--method', 'SLL.remove', '--strategy', strategy]);
    valid('RunSummary', doc, strategy);
    assert.equal(doc.schema_version, 1);
    assert.equal(doc.strategy, strategy);
    keys.push(Object.keys(doc).join(','));
  }
  assert.equal(new Set(keys).size, 1, keys.join('\n'));
});

test('check, test, exec, sat, compare and bench print valid documents', async () => {
  valid('CheckReport', await cliJson(['check', 'examples/bst.hl']), 'check');
  valid('TestReport', await cliJson(['test', 'examples/sll.hl']), 'test');
  valid('ExecReport', await cliJson(['exec', 'examples/bst.hl', '--call', 'size(null)']), 'exec');
  valid('SatReport', await cliJson(['sat', 'examples/bst.hl', '--formula', 'bst(x, 0, 100) & x != null']), 'sat');
  valid('SatReport', await cliJson(['sat', 'examples/bst.hl', '--formula', 'bst(x, 5, 1) & x != null']), 'sat unsat');
  valid('EnumerationReport', await cliJson(['sat', 'examples/bst.hl', '--formula', 'bst(x, 0, 100)', '--enumerate', '2']), 'enumerate');
  const compare = await cliJson(['compare', 'examples/sll.hl', '--method', 'SLL.length', '--strategies', 'lazy,sl,concolic']);
  valid('CompareReport', compare, 'compare');
  assert.deepEqual(compare.strategies.map((r) => r.strategy), ['lazy', 'sl', 'concolic']);
  const suite = path.join(tmp, 'suite');
  await mkdir(suite);
  await copyFile(path.join(ROOT, 'examples/sll.hl'), path.join(suite, 'sll.hl'));
  const bench = await run(HEAPLAB, ['bench', '--suite', suite, '--strategies', 'lazy,sl', '--timeout-ms', '2000', '--format', 'json'],
    { cwd: ROOT, maxBuffer: 1 << 26 });
  valid('BenchReport', JSON.parse(bench.stdout), 'bench');
});

test('the wasm engine returns valid run summaries with the CLI\'s keys, for an exploration and concolicRun', async () => {
  const source = await readFile(path.join(ROOT, 'examples/sll.hl'), 'utf8');
  const ex = new engine.Exploration(source, 'SLL.remove', { strategy: 'sl', file: 'examples/sll.hl' }, bridge.solve);
  const summary = await ex.runToEnd(0);
  valid('RunSummary', summary, 'Exploration.summary');
  const native = await cliJson(['run', 'examples/sll.hl', '--method', 'SLL.remove', '--strategy', 'sl']);
  assert.deepEqual(Object.keys(summary), Object.keys(native));
  for (const key of ['paths', 'paths_feasible', 'tests', 'branches_covered', 'sl']) assert.deepEqual(summary[key], native[key], key);
  const r = await engine.concolicRun(source, 'SLL.remove', { bounds: { timeout_ms: 0 } }, bridge.solve);
  valid('RunSummary', r.summary, 'concolicRun summary');
  assert.deepEqual(Object.keys(r.summary), Object.keys(native));
  // The options the page sends are the schema's `Options`.
  valid('Options', { strategy: 'sl', pre: 'ignore', bounds: { k: 3, timeout_ms: 0 } }, 'options');
  assert.throws(() => new engine.Exploration(source, 'SLL.remove', { bounds: { kk: 1 } }, bridge.solve), /kk/);
});
