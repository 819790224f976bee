// Issue 32 in the browser: Z3 only when asked (its own worker, fetched by the first query that
// needs it), and a run that answers Pause and Cancel at its next batch. Counts and states only:
// the times themselves are the bench's (tests/bench/browser-suite.mjs).

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import test from 'node:test';
import { promisify } from 'node:util';
import { readFile } from 'node:fs/promises';
import { chooseInExplore, ROOT, session, typeProgram, waitForEngine } from './helpers.mjs';

const run = promisify(execFile);
// Products of two unknowns: the Rust procedure leaves them to Z3.
const NONLINEAR = 'crates/heaplab-cli/tests/data/nonlinear.hl';

/** The CLI's test count for `method` of `file` (under examples/ unless a path is given). */
async function cliTests(file, method, strategy) {
  const where = file.includes('/') ? join(ROOT, file) : join(ROOT, 'examples', file);
  const { stdout } = await run(join(ROOT, 'target', 'release', 'heaplab'),
    ['run', where, '--method', method, '--strategy', strategy, '--format', 'json']);
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
  await page.goto(server.url);
  await waitForEngine(page);
  await typeProgram(page, await readFile(join(ROOT, NONLINEAR), 'utf8'));
  await chooseInExplore(page, 'factor', 'lazier#');
  // A run HeapLab decides alone (BST.insert would be the same) leaves Z3 alone; this method's
  // product of two unknowns needs Z3, and the run starts before Z3 exists.
  assert.equal(await page.evaluate(() => globalThis.__heaplab.engine.z3Started), false);
  assert.deepEqual((await downloads(page)).z3, []);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await page.waitForFunction(() => globalThis.__heaplab.store.getState().explore.status === 'done', null, { timeout: 180000 });
  const done = await explore(page);
  assert.equal(done.error, '');
  assert.equal(done.tests, await cliTests(NONLINEAR, 'factor', 'lazier#'), 'the CLI\'s tests');
  const solver = await page.evaluate(() => globalThis.__heaplab.store.getState().explore.solver);
  assert.ok(solver.sentToZ3 > 0, JSON.stringify(solver));
  await page.getByText('Z3 ready', { exact: true }).waitFor();
  // Z3's files came through the Z3 worker; the engine worker fetched only the engine.
  const got = await downloads(page);
  assert.ok(got.z3.includes('z3-built.wasm'), JSON.stringify(got));
  assert.ok(!got.engine.some((n) => n.startsWith('z3-')), JSON.stringify(got));
  assert.deepEqual(browser.errors, []);
});

/** The file names of every request the page and its workers made so far, in order. */
function watchRequests(context) {
  const names = [];
  context.on('request', (request) => names.push(new URL(request.url()).pathname.split('/').pop()));
  return names;
}

// Z3's worker script and its Emscripten glue and wasm.
const isZ3File = (name) => name.startsWith('z3-');

test('a run HeapLab decides alone requests no Z3 file; x * y == 391 then fetches Z3 and gets its test', async (t) => {
  const { server, browser, page } = await session(t, { serviceWorkers: 'block' });
  const requested = watchRequests(browser.context);
  // Each time an exploration waits for Z3 (the Explore tab says "Loading Z3…" then).
  const countWaits = () => page.evaluate(() => {
    globalThis.__z3Waits = 0;
    globalThis.__heaplab.store.subscribe((state, action) => {
      if (action.type === 'z3/waiting' && action.waiting) globalThis.__z3Waits += 1;
    });
  });

  // BST.insert: every question is decided by the engine's own procedure.
  await openExplore(page, server.url, 'bst.hl', 'BST.insert', 'lazier#');
  await countWaits();
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await page.waitForFunction(() => globalThis.__heaplab.store.getState().explore.status === 'done', null, { timeout: 180000 });
  const decided = await explore(page);
  assert.equal(decided.error, '');
  assert.equal(decided.tests, await cliTests('bst.hl', 'BST.insert', 'lazier#'), 'the CLI\'s tests');
  const alone = await page.evaluate(() => globalThis.__heaplab.store.getState().explore.solver);
  assert.equal(alone.sentToZ3 ?? 0, 0, JSON.stringify(alone));
  // The requests seen include the engine worker's own (so a request by a worker is seen), and
  // none of Z3's files; the Z3 worker was never started.
  assert.ok(requested.includes('heaplab_wasm_bg.wasm'), JSON.stringify(requested));
  assert.deepEqual(requested.filter(isZ3File), []);
  assert.equal(await page.evaluate(() => globalThis.__heaplab.engine.z3Started), false);
  assert.equal(await page.evaluate(() => globalThis.__z3Waits), 0);
  await page.getByText('Z3 not loaded', { exact: true }).waitFor();

  // A product of two unknowns is Z3's: its first query starts Z3, the run waits for it, and the
  // path that needs the factors 17 and 23 gets its test.
  const nonlinear = await readFile(join(ROOT, NONLINEAR), 'utf8');
  await typeProgram(page, nonlinear);
  await chooseInExplore(page, 'factor', 'lazier#');
  assert.deepEqual(requested.filter(isZ3File), [], 'typing the program fetches no Z3');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await page.waitForFunction(() => globalThis.__heaplab.store.getState().explore.status === 'done', null, { timeout: 180000 });
  // The downloads follow the results in a message of their own.
  await page.waitForFunction(() => globalThis.__heaplab.store.getState().explore.downloads !== null);
  const state = await page.evaluate(() => {
    const e = globalThis.__heaplab.store.getState().explore;
    return { error: e.error, summary: e.summary, hl: e.downloads?.hl ?? '' };
  });
  assert.equal(state.error, '');
  assert.equal(state.summary.paths_unknown, 0, JSON.stringify(state.summary));
  assert.ok(state.summary.solver_calls.sent > 0, JSON.stringify(state.summary.solver_calls));
  assert.match(state.hl, /assert r == 1;/, state.hl);
  // The run waited for Z3 (the page said so) and Z3 came through the Z3 worker, fetched once.
  assert.ok(await page.evaluate(() => globalThis.__z3Waits) >= 1);
  assert.equal(requested.filter((n) => n === 'z3-built.wasm').length, 1, JSON.stringify(requested.filter(isZ3File)));
  assert.equal(requested.filter((n) => n === 'z3-worker.js').length, 1, JSON.stringify(requested));
  const got = await downloads(page);
  assert.ok(got.z3.includes('z3-built.wasm'), JSON.stringify(got));
  assert.ok(!got.engine.some(isZ3File), JSON.stringify(got));
  await page.getByText('Z3 ready', { exact: true }).waitFor();
  assert.deepEqual(browser.errors, []);
});

test('a query that waits for a Z3 that never arrives ends the run at its time bound, named, with the tree kept', async (t) => {
  const { server, browser, page } = await session(t, { serviceWorkers: 'block' });
  // Z3's wasm is requested but never answered: only the run's time bound can end the wait.
  let wasmRequests = 0;
  await page.route('**/z3-built.wasm', () => { wasmRequests += 1; });
  await page.goto(server.url);
  await waitForEngine(page);
  await typeProgram(page, await readFile(join(ROOT, NONLINEAR), 'utf8'));
  await chooseInExplore(page, 'factor', 'lazier#');
  const bound = page.getByRole('spinbutton', { name: 'Bound time (ms)' });
  await bound.fill('3000');
  await bound.press('Tab');
  await page.evaluate(() => {
    globalThis.__z3Waits = 0;
    globalThis.__heaplab.store.subscribe((state, action) => {
      if (action.type === 'z3/waiting' && action.waiting) globalThis.__z3Waits += 1;
    });
  });
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await page.waitForFunction(() => globalThis.__heaplab.store.getState().explore.status === 'error', null, { timeout: 120000 });
  const state = await page.evaluate(() => {
    const { explore: e, z3 } = globalThis.__heaplab.store.getState();
    return { error: e.error, nodes: e.tree.nodes.filter(Boolean).length, z3: z3.state };
  });
  assert.match(state.error, /still loading when the run's time bound \(timeout_ms = 3000 ms\) ran out/, state.error);
  assert.ok(state.nodes > 0, 'the tree explored so far stays');
  assert.notEqual(state.z3, 'ready');
  assert.ok(wasmRequests >= 1);
  assert.ok(await page.evaluate(() => globalThis.__z3Waits) >= 1);
  await page.getByText(/still loading when the run's time bound/).first().waitFor();
});

test('Pause and Cancel take effect at the run\'s next batch', async (t) => {
  const { server, browser, page } = await session(t, { serviceWorkers: 'block' });
  // k = 4: some 20 s of work (it stops at the path bound), so neither press can come after the
  // run's end however fast the engine; at k = 3 (0.2 s natively, a handful of slices) a loaded
  // machine saw Cancel arrive after the exploration was over.
  await openExplore(page, server.url, 'treemap.hl', 'TreeMap.put', 'lazier#', 4);
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
  // after the press. A run that ignored Pause would post a hundred more or end as done.
  assert.ok(paused.batches <= 3, JSON.stringify(paused));
  const stopped = await pressAfterBatches('cancel');
  assert.equal(stopped.status, 'done');
  assert.ok(stopped.batches <= 3, JSON.stringify(stopped));
  // Cancel keeps the tests of the paths found so far (the whole run makes 10,000), marked partial.
  assert.ok(stopped.tests > 0 && stopped.tests < 10000, JSON.stringify(stopped));
  assert.equal(await page.evaluate(() => globalThis.__heaplab.store.getState().explore.partial), true);
  assert.deepEqual(browser.errors, []);
});

// A large tree (the default bound lets a `lazy` run make 200,000 states; BST insert of Object
// elements at k = 3 takes 1.2 M) is laid out in the layout worker, off the main thread; its
// nodes are then drawn as a small tree's are.
test('a large tree is laid out in its own worker and drawn to its last node', async (t) => {
  const { server, browser, page } = await session(t, { serviceWorkers: 'block' });
  await openExplore(page, server.url, 'bstcmp.hl', 'BST.insert', 'lazy', 3);
  await page.getByRole('spinbutton', { name: 'Bound states' }).fill('30000');
  await page.getByRole('spinbutton', { name: 'Bound states' }).press('Tab');
  const layoutWorkers = () => page.workers()
    .filter((w) => w.url().endsWith('/layout-worker.js')).length;
  assert.equal(layoutWorkers(), 0, 'no layout worker before a large tree');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await page.waitForFunction(() => globalThis.__heaplab.store.getState().explore.status === 'done', null, { timeout: 180000 });
  const nodes = await page.evaluate(() => globalThis.__heaplab.store.getState().explore.tree.nodes.length);
  assert.ok(nodes > 20000, `${nodes} nodes`);
  // The last node, selected once it is laid out, is drawn (a node outside the layout is not).
  const last = nodes - 1;
  const select = () => page.evaluate((node) => {
    globalThis.__heaplab.store.dispatch({ type: 'explore/select', node: null });
    globalThis.__heaplab.store.dispatch({ type: 'explore/select', node });
  }, last);
  for (let i = 0; i < 100 && (await page.locator(`#tree-node-${last}`).count()) === 0; i++) {
    await select();
    await page.waitForTimeout(100);
  }
  assert.equal(await page.locator('.tree-svg').getAttribute('aria-activedescendant'), `tree-node-${last}`);
  assert.equal(layoutWorkers(), 1, 'the layout worker laid it out');
  assert.deepEqual(browser.errors, []);
});
