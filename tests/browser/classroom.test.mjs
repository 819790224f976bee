// What a class sees: results that say when they no longer describe the program, a Pause that
// stops the clock of the time bound, a Cancel that keeps the tests found so far, Explore and
// Compare agreeing with each other and with `heaplab run`, and the editor's current line
// following the exploration. Oracles: the CLI's counts, the downloaded file, the source text.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT, session, waitForEngine, waitForZ3 } from './helpers.mjs';

const run = promisify(execFile);
const HEAPLAB = join(ROOT, 'target', 'release', 'heaplab');
const WIDE = { viewport: { width: 1500, height: 1000 } };
const state = (page) => page.evaluate(() => {
  const s = globalThis.__heaplab.store.getState();
  return { explore: { ...s.explore, tree: { count: s.explore.tree.nodes.length } }, compare: s.compare, tests: s.tests, source: s.source };
});

async function cliRun(file, method, strategy, extra = []) {
  const { stdout } = await run(HEAPLAB, ['run', join(ROOT, 'examples', file), '--method', method, '--strategy', strategy,
    '--format', 'json', ...extra], { maxBuffer: 1 << 26 });
  return JSON.parse(stdout);
}

/** The page on an example with the Explore tab set up by a course link. */
async function openLinked(t, query, example) {
  const s = await session(t, WIDE);
  await s.page.goto(`${s.server.url}?tab=explore&${query}#example=${example}`);
  await waitForEngine(s.page);
  await s.page.waitForFunction(() => globalThis.__heaplab.store.getState().methods.length > 0);
  return s;
}

const runButton = (page) => page.getByRole('button', { name: 'Run', exact: true });
const waitStatus = (page, statuses, timeout = 180000) => page.waitForFunction(
  (wanted) => wanted.includes(globalThis.__heaplab.store.getState().explore.status), statuses, { timeout });

/** Types at the end of the program (a comment: the program stays valid). */
async function edit(page) {
  await page.locator('.cm-content').click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('\n// edited in class\n');
}

test('an edit marks Explore, Tests and Compare results stale, and downloads keep the program that produced them', async (t) => {
  const { page, browser } = await openLinked(t, 'method=BST.insert&strategy=lazier%23&k=2', 'bst.hl');
  await waitForZ3(page);
  const original = (await state(page)).source;
  await runButton(page).click();
  await waitStatus(page, ['done']);
  await page.getByRole('tab', { name: 'Compare' }).click();
  await page.getByRole('button', { name: 'Compare strategies' }).click();
  await page.waitForFunction(() => globalThis.__heaplab.store.getState().compare.status === 'done', null, { timeout: 180000 });
  await page.getByRole('tab', { name: 'Tests' }).click();
  await page.getByRole('button', { name: 'Run tests' }).click();
  await page.waitForFunction(() => globalThis.__heaplab.store.getState().tests.status === 'done');
  // Nothing is stale yet.
  for (const panel of ['#panel-tests', '#panel-explore', '#panel-compare']) {
    assert.equal(await page.locator(`${panel} [data-stale-note]`).isVisible(), false, panel);
  }

  await edit(page);
  await page.getByText('The program changed since these results').waitFor();
  await page.getByRole('tab', { name: 'Explore' }).click();
  await page.getByText('The program changed since this exploration').waitFor();
  assert.ok(await page.locator('#panel-explore').evaluate((el) => el.classList.contains('stale')));
  // The download holds the program the tests came from, not the edited one.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download .hl' }).click()]);
  const text = await readFile(await download.path(), 'utf8');
  assert.ok(text.startsWith(original.trimEnd()), 'the .hl download starts with the explored program');
  assert.ok(!text.includes('edited in class'), 'the edit is not in the download');
  await page.getByRole('tab', { name: 'Compare' }).click();
  await page.getByText('The program or the settings changed since this comparison').waitFor();

  // Running again clears the mark.
  await page.getByRole('tab', { name: 'Explore' }).click();
  await runButton(page).click();
  await waitStatus(page, ['done']);
  assert.equal(await page.locator('#panel-explore [data-stale-note]').isVisible(), false);
  assert.deepEqual(browser.errors, []);
});

test('time spent paused does not count against the time bound', async (t) => {
  // AvlTree.insert under lazy at k = 5, with no state bound, does not end in minutes, far longer
  // than the 10 s bound. The bound is long enough that the Pause below lands before it on a
  // loaded machine too (load 20, simulated by a CPU quota: a 2.5 s bound ran out first), and
  // short enough that the run cannot reach the memory bound first (about 800 bytes a state:
  // 20 s of a fast engine came within it).
  const { page, browser } = await openLinked(t, 'method=AvlTree.insert&strategy=lazy&k=5&max_states=100000000&timeoutMs=10000', 'avl.hl');
  await waitForZ3(page);
  const wall = Date.now();
  await runButton(page).click();
  await page.waitForFunction(() => globalThis.__heaplab.store.getState().explore.tree.nodes.length > 50, null, { timeout: 60000 });
  await page.getByRole('button', { name: 'Pause' }).click();
  await waitStatus(page, ['paused', 'done']);
  assert.equal((await state(page)).explore.status, 'paused', 'paused before the bound');
  const atPause = (await state(page)).explore.tree.count;
  // A class discussion longer than the whole bound.
  await page.waitForTimeout(4000);
  await runButton(page).click();
  await waitStatus(page, ['done']);
  const end = await state(page);
  const elapsed = Date.now() - wall;
  assert.ok(end.explore.tree.count > atPause, `the run went on after Resume (${atPause} -> ${end.explore.tree.count} states)`);
  assert.ok(end.explore.summary.bounds_hit.includes('timeout'), `the time bound ended the run: ${end.explore.summary.bounds_hit}`);
  assert.ok(end.explore.summary.time_ms < elapsed - 3000,
    `the reported time (${end.explore.summary.time_ms} ms) leaves out the pause (${elapsed} ms in all)`);
  assert.ok(end.explore.summary.time_ms >= 10000, 'the bound counts the time worked');
  assert.deepEqual(browser.errors, []);
});

test('Cancel keeps the tests found so far, marked partial', async (t) => {
  // At k = 4 the exploration runs for seconds (at k = 3 it ended within the click's own 50 ms
  // of the fifth path), so the press lands while it runs.
  const { page, browser } = await openLinked(t, 'method=TreeMap.put&strategy=lazier%23&k=4', 'treemap.hl');
  await waitForZ3(page);
  await runButton(page).click();
  await page.waitForFunction(() => (globalThis.__heaplab.store.getState().explore.summary?.paths_feasible ?? 0) >= 5, null, { timeout: 120000 });
  await page.locator('#panel-explore').getByRole('button', { name: 'Cancel' }).click();
  await waitStatus(page, ['done', 'error'], 60000);
  const end = await state(page);
  assert.equal(end.explore.status, 'done', end.explore.error);
  assert.equal(end.explore.partial, true);
  assert.ok(end.explore.tests.length >= 5, `kept ${end.explore.tests.length} tests`);
  const full = await cliRun('treemap.hl', 'TreeMap.put', 'lazier#', ['--k', '4']);
  assert.ok(end.explore.tests.length < full.tests, 'fewer tests than a whole run: the run really stopped');
  await page.getByRole('status').filter({ hasText: 'partial: the exploration was cancelled' }).waitFor();
  await page.getByText('Cancelled: partial results.').waitFor();
  assert.deepEqual(browser.errors, []);
});

test('Explore and Compare run the same explorations as heaplab run, in both precondition modes', async (t) => {
  const { page, browser } = await openLinked(t, 'method=BST.insert&k=2', 'bst.hl');
  await waitForZ3(page);
  const strategies = ['lazy', 'lazier', 'lazier#', 'sl'];
  for (const [mode, label] of [['assume', 'only inputs that satisfy requires'], ['ignore', 'every input, then check requires']]) {
    await page.getByRole('tab', { name: 'Compare' }).click();
    await page.locator('#panel-compare').getByRole('combobox', { name: 'Precondition' }).selectOption({ label });
    await page.getByRole('button', { name: 'Compare strategies' }).click();
    await page.waitForFunction(() => globalThis.__heaplab.store.getState().compare.status === 'done', null, { timeout: 180000 });
    const rows = (await state(page)).compare.rows;
    // One setting: the Explore tab shows the mode chosen in Compare.
    await page.getByRole('tab', { name: 'Explore' }).click();
    assert.equal(await page.locator('#panel-explore').getByRole('combobox', { name: 'Precondition' }).inputValue(), mode);
    for (const strategy of strategies) {
      const cli = await cliRun('bst.hl', 'BST.insert', strategy, ['--k', '2', '--pre', mode]);
      const row = rows.find((r) => r.strategy === strategy);
      assert.equal(row.pre, mode, `${strategy}: the row used the chosen mode`);
      assert.equal(row.tests, cli.tests, `${mode} ${strategy}: Compare's tests = heaplab run's`);
      assert.equal(row.invalid_inputs, cli.invalid_inputs, `${mode} ${strategy}: invalid inputs`);
      assert.equal(row.branches_covered, cli.branches_covered, `${mode} ${strategy}: branches`);
    }
    for (const strategy of ['lazier#', 'sl']) {
      await page.getByRole('combobox', { name: 'Strategy' }).selectOption(strategy);
      await runButton(page).click();
      await waitStatus(page, ['done']);
      const ex = (await state(page)).explore;
      const row = rows.find((r) => r.strategy === strategy);
      assert.equal(ex.summary.tests, row.tests, `${mode} ${strategy}: Explore's tests = Compare's`);
      assert.equal(ex.summary.pre, mode);
    }
  }
  assert.deepEqual(browser.errors, []);
});

test('stepping highlights the line of each event in the editor', async (t) => {
  const { page, browser } = await openLinked(t, 'method=BST.insert&strategy=lazier%23&k=2', 'bst.hl');
  const lines = (await state(page)).source.split('\n');
  const stepOver = page.getByRole('button', { name: 'Step over' });
  let checked = 0;
  for (let i = 0; i < 60 && checked < 6; i += 1) {
    await stepOver.click();
    await waitStatus(page, ['paused', 'done']);
    const event = await page.evaluate(() => globalThis.__heaplab.store.getState().explore.lastEvent);
    if (!event?.line) continue;
    // The highlighted editor line is the event's line (the editor shows the source as it is).
    const shown = page.locator('.cm-line[data-current-line]');
    await shown.waitFor();
    assert.equal((await shown.textContent()).trim(), lines[event.line - 1].trim(), `${event.kind} at line ${event.line}`);
    assert.match(await page.getByLabel('Last event').textContent(), new RegExp(`^line ${event.line}: `));
    checked += 1;
    if ((await state(page)).explore.status === 'done') break;
  }
  assert.ok(checked >= 4, `events with a line were checked (${checked})`);
  assert.deepEqual(browser.errors, []);
});

test('a case of a predicate shows its formula, instantiated', async (t) => {
  const { page, browser } = await openLinked(t, 'method=BST.insert&strategy=sl&k=2', 'bst.hl');
  await waitForZ3(page);
  await runButton(page).click();
  await waitStatus(page, ['done']);
  const cases = await page.evaluate(() => globalThis.__heaplab.store.getState().explore.tree.nodes
    .filter((n) => n?.change?.kind === 'disjunct').map((n) => n.id).slice(0, 4));
  assert.ok(cases.length >= 2, 'sl unfolds bst into its cases');
  const said = [];
  for (const id of cases) {
    await page.evaluate((node) => globalThis.__heaplab.store.dispatch({ type: 'explore/select', node }), id);
    await page.waitForFunction((node) => {
      const ex = globalThis.__heaplab.store.getState().explore;
      return ex.viewNode === node && ex.view;
    }, id);
    const text = await page.locator('.heap-change').textContent();
    assert.match(text, /^This step took case \d+ of the predicate's definition: /);
    said.push(text);
  }
  // The engine's instantiated disjuncts: the empty tree, and a node with its key range and the
  // two subtrees' instances.
  assert.ok(said.some((s) => /: \S+ == null & emp$/.test(s) || /: emp & \S+ == null$/.test(s)), said.join('\n'));
  assert.ok(said.some((s) => /-> Node \{.*\* bst\(.*\* bst\(/.test(s)), said.join('\n'));
  assert.deepEqual(browser.errors, []);
});

test('Cancel after stepping keeps the tests of the paths stepped through', async (t) => {
  const { page, browser } = await openLinked(t, 'method=BST.insert&strategy=lazier%23&k=2', 'bst.hl');
  await waitForZ3(page);
  const stepOver = page.getByRole('button', { name: 'Step over' });
  for (let i = 0; i < 60; i += 1) {
    await stepOver.click();
    await waitStatus(page, ['paused', 'done']);
    if (((await state(page)).explore.summary?.paths_feasible ?? 0) >= 2) break;
  }
  const feasible = (await state(page)).explore.summary.paths_feasible;
  assert.ok(feasible >= 2, `stepped through ${feasible} feasible paths`);
  await page.locator('#panel-explore').getByRole('button', { name: 'Cancel' }).click();
  await waitStatus(page, ['done', 'error'], 30000);
  const end = (await state(page)).explore;
  assert.equal(end.status, 'done', end.error);
  assert.equal(end.partial, true);
  assert.equal(end.tests.length, feasible, 'one test per feasible path found before Cancel');
  assert.deepEqual(browser.errors, []);
});
