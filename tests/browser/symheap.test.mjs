// The `symheap` heap view (#15 item 5): stepping paper 003's Figure 1 (`LinkedList.run1` of
// heapsummary.hl: `contains` reads `node.elem`, which may be null, a new Data or the Data
// `this.data0` denotes) must draw a reference circle with more than one guarded location, each
// pair its own arrow; "Show one concrete world" must then highlight one heap: exactly one arrow
// out of every drawn reference, and "Next world" a different one. Oracles: the engine's view
// (the arrows drawn are its entries), and the rule that a world picks one entry per reference.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT, session, waitForEngine } from './helpers.mjs';

const WIDE = { viewport: { width: 1500, height: 1000 } };

/** For each drawn reference circle: its id and the arrows drawn out of it. */
function drawnRefs(page) {
  return page.evaluate(() => [...document.querySelectorAll('.heap-graph g[data-ref]')].map((g) => {
    const paths = [...document.querySelectorAll(`.heap-graph path[data-ref="${g.dataset.ref}"]`)];
    return { id: g.dataset.ref, entries: Number(g.dataset.entries), arrows: paths.length, on: paths.filter((p) => p.dataset.world === 'on').map((p) => p.dataset.edge) };
  }));
}

/** The heap picture at its natural size (the panel scrolls it), as a test artifact. */
async function shootPicture(page, name) {
  await page.evaluate(() => {
    const box = document.createElement('div');
    box.id = 'symheap-shot';
    box.style.cssText = 'position: fixed; left: 0; top: 0; z-index: 99999; background: #fff; padding: 8px';
    box.append(document.querySelector('.heap-graph svg').cloneNode(true));
    box.firstChild.style.width = '';
    document.body.append(box);
  });
  await page.locator('#symheap-shot').screenshot({ path: join(ROOT, 'tests', 'artifacts', name) });
  await page.evaluate(() => document.getElementById('symheap-shot').remove());
}

/**
 * Steps the exploration until `find(view)` (evaluated in the page on the selected node's view)
 * returns something, or the run ends; returns what it found, or null.
 */
async function stepUntil(page, find, limit) {
  const step = page.getByRole('button', { name: 'Step', exact: true });
  for (let i = 0; i < limit; i += 1) {
    await step.click();
    await page.waitForFunction(() => ['paused', 'done'].includes(globalThis.__heaplab.store.getState().explore.status));
    await page.waitForFunction(() => {
      const ex = globalThis.__heaplab.store.getState().explore;
      return ex.selected === null || (ex.viewNode === ex.selected);
    }, null, { timeout: 10000 });
    const found = await page.evaluate(find);
    if (found) return found;
    if ((await page.evaluate(() => globalThis.__heaplab.store.getState().explore.status)) === 'done') return null;
  }
  return null;
}

test('symheap: a reference with several guarded locations, and one concrete world highlighted', async (t) => {
  const { page, server, browser } = await session(t, WIDE);
  await page.goto(`${server.url}?tab=explore&method=LinkedList.run1&strategy=symheap&k=3#example=heapsummary.hl`);
  await waitForEngine(page);
  await page.waitForFunction(() => globalThis.__heaplab.store.getState().methods.length > 0);
  const strategies = await page.evaluate(() => [...document.querySelectorAll('[data-strategy] option')].map((o) => o.value));
  assert.ok(strategies.includes('symheap'), `the strategy menu lists symheap: ${strategies}`);

  const aliased = await stepUntil(page, () => globalThis.__heaplab.store.getState().explore.view?.symheap?.refs
    .find((r) => r.entries.filter((e) => e.loc !== null).length >= 2) ?? null, 300);
  assert.ok(aliased, 'stepping reached a reference that may denote two locations');

  // (a) The circle is drawn with one arrow per (guard, location) pair, each labelled with its guard.
  await page.locator(`.heap-graph g[data-ref="${aliased.id}"]`).waitFor({ timeout: 10000 });
  const refs = await drawnRefs(page);
  const circle = refs.find((r) => r.id === aliased.id);
  assert.equal(circle.arrows, aliased.entries.length, JSON.stringify(circle));
  assert.ok(circle.arrows >= 3, `null and two locations: ${JSON.stringify(aliased)}`);
  for (const r of refs) assert.equal(r.arrows, r.entries, `every entry of ${r.id} is an arrow`);
  const guards = await page.locator(`.heap-graph path[data-ref="${aliased.id}"]`).evaluateAll((ps) => ps.map((p) => p.dataset.guard));
  assert.deepEqual(guards, aliased.entries.map((e) => e.guard));
  assert.ok(guards.some((g) => / == null$/.test(g)), `a null guard in source names: ${guards}`);
  const labels = await page.locator(`.heap-graph [data-label^="${aliased.id}#"]`).count();
  assert.equal(labels, aliased.entries.filter((e) => e.guard !== 'always').length, 'each guard is written on its arrow');

  await mkdir(join(ROOT, 'tests', 'artifacts'), { recursive: true });
  await shootPicture(page, 'symheap-guards.png');

  // (b) One concrete world: exactly one arrow out of every reference highlighted.
  await page.getByRole('button', { name: 'Show one concrete world' }).click();
  await page.locator('.heap-graph svg[data-world="on"]').waitFor({ timeout: 20000 });
  const first = await drawnRefs(page);
  assert.ok(first.length > 0);
  for (const r of first) assert.equal(r.on.length, 1, `one true entry of ${r.id}: ${JSON.stringify(r)}`);
  assert.match(await page.locator('.heap-world-status').textContent(), /^world 1 of \d+\+?/);
  assert.match(await page.locator('.heap-world-desc').textContent(), /^In this world: this → o1/);
  await mkdir(join(ROOT, 'tests', 'artifacts'), { recursive: true });
  await page.locator('#panel-explore').screenshot({ path: join(ROOT, 'tests', 'artifacts', 'symheap-world.png') });
  await shootPicture(page, 'symheap-graph.png');

  // Another world highlights a different heap, again one arrow per reference.
  const next = page.getByRole('button', { name: 'Next world' });
  assert.ok(await next.isVisible(), 'this state has more than one world');
  await next.click();
  await page.waitForFunction(() => /^world 2 of/.test(document.querySelector('.heap-world-status')?.textContent ?? ''));
  const second = await drawnRefs(page);
  for (const r of second) assert.equal(r.on.length, 1, `one true entry of ${r.id}: ${JSON.stringify(r)}`);
  assert.notDeepEqual(second.map((r) => r.on[0]), first.map((r) => r.on[0]), 'a different world');

  // Back to every guard: nothing highlighted.
  await page.getByRole('button', { name: 'Show all guards' }).click();
  await page.locator('.heap-graph svg[data-world="off"]').waitFor({ timeout: 5000 });
  assert.deepEqual(browser.errors, []);
});

// Arrays under symheap (#15): an array is a location box listing its `length` and one row per
// accessed cell; a reference cell's row points to its reference's circle. Oracle: the engine's
// view of the selected node (every cell row of its array locations is drawn, each reference
// cell with its arrow), and no page error.
test('symheap: an array location lists its cells, a reference cell points to its reference', async (t) => {
  const { page, server, browser } = await session(t, WIDE);
  await page.goto(`${server.url}?tab=explore&method=insertionSort&strategy=symheap&k=2#example=isortcmp.hl`);
  await waitForEngine(page);
  await page.waitForFunction(() => globalThis.__heaplab.store.getState().methods.length > 0);
  const array = await stepUntil(page, () => globalThis.__heaplab.store.getState().explore.view?.symheap?.locs
    .find((l) => l.class === 'Comparable[]' && l.fields.filter((f) => f.value?.kind === 'symref').length >= 2) ?? null, 200);
  assert.ok(array, 'stepping reached an array with two reference cells');
  assert.equal(array.fields[0].name, 'length');
  const box = page.locator(`.heap-graph g[data-loc="${array.id}"]`);
  await box.waitFor({ timeout: 10000 });
  const text = await box.textContent();
  for (const f of array.fields) assert.ok(text.includes(f.name), `row ${f.name} in ${text}`);
  for (const f of array.fields.filter((c) => c.value?.kind === 'symref')) {
    const edge = `loc:${array.id}.${f.name}`;
    assert.equal(await page.locator(`.heap-graph path[data-edge="${edge}"]`).count(), 1, `an arrow from ${edge}`);
    assert.equal(await page.locator(`.heap-graph g[data-ref="${f.value.id}"]`).count(), 1, `${f.value.id} is drawn`);
  }
  await mkdir(join(ROOT, 'tests', 'artifacts'), { recursive: true });
  await shootPicture(page, 'symheap-array.png');
  assert.deepEqual(browser.errors, []);
});

test('the Compare tab lists symheap', async (t) => {
  const { page, server, browser } = await session(t, WIDE);
  await page.goto(`${server.url}?tab=compare&method=LinkedList.run1#example=heapsummary.hl`);
  await waitForEngine(page);
  await page.waitForFunction(() => globalThis.__heaplab.store.getState().strategies.length > 0);
  const names = await page.evaluate(() => globalThis.__heaplab.store.getState().strategies.map((s) => s.name));
  assert.ok(names.includes('symheap'), names.join(', '));
  await page.getByRole('button', { name: 'Compare strategies' }).click();
  await page.waitForFunction(() => globalThis.__heaplab.store.getState().compare.status === 'done', null, { timeout: 120000 });
  const rows = await page.evaluate(() => globalThis.__heaplab.store.getState().compare.rows.map((r) => r.strategy));
  assert.ok(rows.includes('symheap'), `a symheap row: ${rows}`);
  assert.deepEqual(browser.errors, []);
});

// All-heaps mode in the page (#15 item 4): "every input heap", shown for symheap only, makes a
// test of every distinct input heap of a path. Oracle: lazy's runs of the same method, whose
// paths each have one input heap (paper 003, Figure 1): as many tests as symheap has heaps.
test('symheap: "every input heap" makes a test of each input heap, as many as lazy has paths', async (t) => {
  const { page, server, browser } = await session(t, WIDE);
  await page.goto(`${server.url}?tab=explore&method=LinkedList.run1&strategy=symheap&k=2#example=heapsummary.hl`);
  await waitForEngine(page);
  await page.waitForFunction(() => globalThis.__heaplab.store.getState().methods.length > 0);
  const box = page.getByLabel('Every input heap');
  const run = async () => {
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.waitForFunction(() => globalThis.__heaplab.store.getState().explore.status === 'done', null, { timeout: 180000 });
    return page.evaluate(() => {
      const ex = globalThis.__heaplab.store.getState().explore;
      return { summary: ex.summary, tests: ex.tests.length };
    });
  };
  const strategy = page.locator('[data-strategy]');
  await strategy.selectOption('lazy');
  assert.equal(await box.isVisible(), false, 'the box is for symheap only');
  const lazy = await run();
  await strategy.selectOption('symheap');
  assert.equal(await box.isVisible(), true);
  const onePerPath = await run();
  assert.equal(onePerPath.tests, onePerPath.summary.paths_feasible);
  await box.check();
  const all = await run();
  assert.equal(all.summary.all_heaps.heaps, lazy.tests, 'symheap heaps = lazy tests');
  assert.equal(all.tests, lazy.tests);
  assert.ok(all.tests > onePerPath.tests, `${all.tests} heaps from ${onePerPath.tests} paths`);
  const progress = await page.locator('.explore-progress').textContent();
  assert.match(progress, new RegExp(`${lazy.tests} input heaps from ${all.summary.paths_feasible} feasible paths`), progress);
  assert.deepEqual(browser.errors, []);
});
