// Issue 32 in the browser: Z3 only when asked (its own worker, fetched by the first query that
// needs it), and a run that answers Pause and Cancel at its next batch. Counts and states only:
// the times themselves are the bench's (tests/bench/browser-suite.mjs).

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import test from 'node:test';
import { promisify } from 'node:util';
import { ROOT, session, waitForEngine } from './helpers.mjs';

const run = promisify(execFile);

async function cliTests(file, method, strategy) {
  const { stdout } = await run(join(ROOT, 'target', 'release', 'heaplab'),
    ['run', join(ROOT, 'examples', file), '--method', method, '--strategy', strategy, '--format', 'json']);
  return JSON.parse(stdout).tests;
}

/** The Explore tab at `file`, `method` under `strategy` (k: the default unless given). */
async function openExplore(page, url, file, method, strategy, k) {
  await page.goto(`${url}#example=${file}`);
  await waitForEngine(page);
  await page.getByRole('tab', { name: 'Explore' }).click();
  const select = page.getByRole('combobox', { name: 'Method' });
  await select.locator('option', { hasText: method }).first().waitFor({ state: 'attached' });
  await select.selectOption(method);
  await page.getByRole('combobox', { name: 'Strategy' }).selectOption(strategy);
  if (k !== undefined) {
    await page.getByRole('spinbutton', { name: 'Bound k' }).fill(String(k));
    await page.getByRole('spinbutton', { name: 'Bound k' }).press('Tab');
  }
}

const explore = (page) => page.evaluate(() => {
  const e = globalThis.__heaplab.store.getState().explore;
  return { status: e.status, tests: e.tests.length, error: e.error };
});

/** What the page downloaded so far, by the worker that fetched it. */
const downloads = (page) => page.evaluate(async () => {
  const { engine } = globalThis.__heaplab;
  const names = (list) => list.map((r) => r.name.split('/').pop());
  return {
    engine: names(await engine.request('resources')),
    z3: engine.z3Started ? names(await engine.request('z3Resources')) : [],
  };
});

test('Z3 is fetched, in its own worker, only by the first query that needs it', async (t) => {
  const { server, browser, page } = await session(t, { serviceWorkers: 'block' });
  await openExplore(page, server.url, 'hash32.hl', 'IntList.negativeAfterAbs', 'lazier#');
  // A run HeapLab decides alone (BST.insert would be the same) leaves Z3 alone; this method's
  // 32-bit wrapping needs Z3, and the run starts before Z3 exists.
  assert.equal(await page.evaluate(() => globalThis.__heaplab.engine.z3Started), false);
  assert.deepEqual((await downloads(page)).z3, []);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await page.waitForFunction(() => globalThis.__heaplab.store.getState().explore.status === 'done', null, { timeout: 180000 });
  const done = await explore(page);
  assert.equal(done.error, '');
  assert.equal(done.tests, await cliTests('hash32.hl', 'IntList.negativeAfterAbs', 'lazier#'), 'the CLI\'s tests');
  const solver = await page.evaluate(() => globalThis.__heaplab.store.getState().explore.solver);
  assert.ok(solver.sentToZ3 > 0, JSON.stringify(solver));
  await page.getByText('Z3 ready', { exact: true }).waitFor();
  // Z3's files came through the Z3 worker; the engine worker fetched only the engine.
  const got = await downloads(page);
  assert.ok(got.z3.includes('z3-built.wasm'), JSON.stringify(got));
  assert.ok(!got.engine.some((n) => n.startsWith('z3-')), JSON.stringify(got));
  assert.deepEqual(browser.errors, []);
});

test('Pause and Cancel take effect at the run\'s next batch', async (t) => {
  const { server, browser, page } = await session(t, { serviceWorkers: 'block' });
  await openExplore(page, server.url, 'treemap.hl', 'TreeMap.put', 'lazier#', 3);
  // Batches the page receives, counted from the store's actions.
  await page.evaluate(() => {
    globalThis.__batches = 0;
    globalThis.__heaplab.store.subscribe((state, action) => {
      if (action.type === 'explore/batch') globalThis.__batches += 1;
    });
  });
  const pressAfterBatches = async (button) => {
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    const at = await page.evaluate(() => globalThis.__batches + 2);
    await page.waitForFunction((n) => globalThis.__batches >= n, at, { timeout: 60000 });
    // Batches are counted from the moment the page handles the click itself.
    await page.evaluate(() => document.addEventListener('click', () => { globalThis.__atClick = globalThis.__batches; },
      { capture: true, once: true }));
    await page.locator(`#explore-controls button[data-action="explore/${button}"]`).click();
    await page.waitForFunction(() => globalThis.__heaplab.store.getState().explore.status !== 'running', null,
      { timeout: 60000 });
    return { batches: await page.evaluate(() => globalThis.__batches - globalThis.__atClick), ...(await explore(page)) };
  };
  const paused = await pressAfterBatches('pause');
  assert.equal(paused.status, 'paused');
  // The worker stops after the slice running when Pause arrives; it keeps at most one batch the
  // page has not handled (flow control), so at most that one and the pause's own answer come
  // after the press. A run that ignored Pause would post a dozen more (TreeMap.put at k = 3 is
  // about 15 slices of work) or end as done.
  assert.ok(paused.batches <= 3, JSON.stringify(paused));
  const stopped = await pressAfterBatches('cancel');
  assert.equal(stopped.status, 'done');
  assert.ok(stopped.batches <= 3, JSON.stringify(stopped));
  // Cancel keeps the tests of the paths found so far, marked partial.
  assert.ok(stopped.tests > 0 && stopped.tests < 331, JSON.stringify(stopped));
  assert.equal(await page.evaluate(() => globalThis.__heaplab.store.getState().explore.partial), true);
  assert.deepEqual(browser.errors, []);
});
