// A path only Z3 decides, in a real browser (issue 30): `x * y == 391` needs two factors above
// 1. With Z3 wasm ready, Run finds that path's test (the Rust procedure leaves products to
// Z3); the downloaded `.hl` replays in the CLI's interpreter, so the factors are real ones.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chooseInExplore, ROOT, session, typeProgram, waitForEngine, waitForZ3 } from './helpers.mjs';

const run = promisify(execFile);
const HEAPLAB = join(ROOT, 'target', 'release', 'heaplab');
const FILE = join(ROOT, 'crates', 'heaplab-cli', 'tests', 'data', 'nonlinear.hl');

test('x * y == 391 gets its test in the page with Z3, and the test replays', async (t) => {
  const { server, page, browser } = await session(t, { viewport: { width: 1500, height: 1000 } });
  const tmp = await mkdtemp(join(tmpdir(), 'heaplab-nonlinear-'));
  t.after(() => rm(tmp, { recursive: true, force: true }));
  await page.goto(server.url);
  await waitForEngine(page);
  await waitForZ3(page);
  await typeProgram(page, await readFile(FILE, 'utf8'));

  await chooseInExplore(page, 'factor', 'lazier#');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await page.waitForFunction(() => globalThis.__heaplab.store.getState().explore.status === 'done', null, { timeout: 120000 });
  const summary = await page.evaluate(() => globalThis.__heaplab.store.getState().explore.summary);
  assert.equal(summary.paths_unknown, 0, JSON.stringify(summary));
  assert.ok(summary.solver_calls.sent > 0, `the product went to Z3: ${JSON.stringify(summary.solver_calls)}`);

  // The downloads follow the results in a message of their own.
  await page.waitForFunction(() => globalThis.__heaplab.store.getState().explore.downloads !== null);
  const hl = await page.evaluate(() => globalThis.__heaplab.store.getState().explore.downloads?.hl ?? '');
  assert.match(hl, /assert r == 1;/, hl);
  const file = join(tmp, 'factor_tests.hl');
  await writeFile(file, hl);
  const { stdout } = await run(HEAPLAB, ['test', file]);
  assert.match(stdout, / 0 failed/, stdout);
  assert.deepEqual(browser.errors, []);
});
