// One engine, two front ends: for every example method with a `requires`, the playground's
// exploration (the page's own worker: wasm engine + Z3 wasm, through the same requests the
// Explore panel sends) generates exactly as many tests as `heaplab run` at the same bounds.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT, session, waitForEngine, waitForZ3 } from './helpers.mjs';

const run = promisify(execFile);
const HEAPLAB = join(ROOT, 'target', 'release', 'heaplab');
// The strategies whose page and CLI counts are compared on every example.
const STRATEGIES = ['lazy', 'lazier', 'lazier#', 'sl'];
// Every strategy the page's picker shows: `symheap` (issue 15) is offered too, but its runs on
// some examples are stopped by the time bound, whose cut differs between the two front ends, so
// it is not in the count comparison yet. `concolic` (issue 16) is run by `concolicRun`
// (tests/node/concolic.test.mjs compares it with the CLI).
const PICKER = [...STRATEGIES, 'symheap', 'concolic'];
// Small bounds that every example finishes within (no timeout, whose cut would differ).
const BOUNDS = { k: 2, depth: 8, max_paths: 400 };

async function cliTests(file, method, strategy) {
  const { stdout } = await run(HEAPLAB, ['run', file, '--method', method, '--strategy', strategy,
    '--k', String(BOUNDS.k), '--depth', String(BOUNDS.depth), '--max-paths', String(BOUNDS.max_paths),
    '--format', 'json'], { maxBuffer: 1 << 26 });
  return JSON.parse(stdout);
}

test('the playground and the CLI generate the same number of tests for every example', async (t) => {
  const { server, browser, page } = await session(t);
  await page.goto(server.url);
  await waitForEngine(page);
  await waitForZ3(page);

  const files = (await readdir(join(ROOT, 'examples'))).filter((f) => f.endsWith('.hl')).sort();
  let compared = 0;
  let runId = 1000;
  const mismatches = [];
  for (const file of files) {
    const source = await readFile(join(ROOT, 'examples', file), 'utf8');
    const methods = await page.evaluate((src) => globalThis.__heaplab.engine.request('methods', { source: src }), source);
    for (const { name } of methods.filter((m) => m.requires)) {
      for (const strategy of STRATEGIES) {
        runId += 1;
        const web = await page.evaluate(async ({ src, method, options, id }) => {
          const engine = globalThis.__heaplab.engine;
          await engine.request('exploreStart', { source: src, method, options, runId: id });
          return (await engine.request('exploreRun', { runId: id })).summary;
        }, { src: source, method: name, options: { strategy, bounds: BOUNDS }, id: runId })
          .catch((err) => assert.fail(`${file} ${name} ${strategy}: ${err.message}\n${browser.errors.join('\n')}`));
        const cli = await cliTests(join(ROOT, 'examples', file), name, strategy);
        compared += 1;
        if (web.tests !== cli.tests || web.paths !== cli.paths) {
          mismatches.push(`${file} ${name} ${strategy}: page ${web.tests} tests / ${web.paths} paths, CLI ${cli.tests} / ${cli.paths}`);
        }
      }
    }
  }
  const picker = await page.evaluate(() => globalThis.__heaplab.store.getState().strategies.map((s) => s.name));
  assert.deepEqual(picker, PICKER, 'the page offers every strategy of the engine');
  assert.ok(compared >= 80, `only ${compared} example methods with a requires were compared`);
  assert.deepEqual(mismatches, []);
  assert.deepEqual(browser.errors, []);
});
