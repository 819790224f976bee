// Fixes of issue 35 item 5, as a teacher meets them: the heap picture saved for slides shows the
// heap the screen shows, and under `sl` every step and path end is on a line of code. Oracles:
// the live page's own geometry (each object's position in the drawn SVG, read with
// getScreenCTM) and the source text.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { session, waitForEngine } from './helpers.mjs';

const WIDE = { viewport: { width: 1500, height: 1000 } };

async function openExplore(t, query) {
  const s = await session(t, WIDE);
  await s.page.goto(`${s.server.url}?tab=explore&${query}#example=bst.hl`);
  await waitForEngine(s.page);
  await s.page.waitForFunction(() => globalThis.__heaplab.store.getState().methods.length > 0);
  return s;
}

async function runToEnd(page) {
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await page.waitForFunction(() => ['done', 'error'].includes(globalThis.__heaplab.store.getState().explore.status), null, { timeout: 180000 });
  const ex = await page.evaluate(() => globalThis.__heaplab.store.getState().explore);
  assert.equal(ex.status, 'done', ex.error);
}

test('the heap picture saved as SVG has its objects where the screen shows them', async (t) => {
  const { page, browser } = await openExplore(t, 'method=BST.insert&strategy=sl&k=3');
  await runToEnd(page);
  // The first state whose heap has six objects.
  const node = await page.evaluate(async () => {
    const { store, engine } = globalThis.__heaplab;
    const { runId, tree } = store.getState().explore;
    for (const n of tree.nodes) {
      const view = await engine.request('exploreView', { runId, node: n.id });
      if (view?.objects?.length === 6) return n.id;
    }
    return null;
  });
  assert.notEqual(node, null, 'a state with six objects');
  await page.evaluate((n) => globalThis.__heaplab.store.dispatch({ type: 'explore/select', node: n }), node);
  await page.waitForFunction((n) => {
    const ex = globalThis.__heaplab.store.getState().explore;
    return ex.viewNode === n && ex.view && document.querySelectorAll('.heap-graph svg g[data-key^="obj:"]').length === 6;
  }, node);
  // Positions animate between pictures: wait until they stay put.
  const onScreen = async () => page.evaluate(() => {
    const svg = document.querySelector('.heap-graph svg');
    const toSvg = svg.getScreenCTM().inverse();
    return Object.fromEntries([...svg.querySelectorAll('g[data-key^="obj:"]')].map((g) => {
      const m = toSvg.multiply(g.getScreenCTM());
      return [g.dataset.key, [m.e, m.f]];
    }));
  });
  let screen = await onScreen();
  for (let i = 0; i < 20; i += 1) {
    await page.waitForTimeout(100);
    const again = await onScreen();
    if (JSON.stringify(again) === JSON.stringify(screen)) break;
    screen = again;
  }
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Save the heap as SVG' }).click()]);
  const svg = await readFile(await download.path(), 'utf8');
  const saved = {};
  for (const [tag] of svg.matchAll(/<g\b[^>]*data-key="obj:[^"]*"[^>]*>/g)) {
    const key = /data-key="([^"]*)"/.exec(tag)[1];
    const at = /transform="translate\(([-\d.e]+)[ ,]+([-\d.e]+)\)"/.exec(tag);
    assert.ok(at, `${key} has a position in the saved file: ${tag}`);
    saved[key] = [Number(at[1]), Number(at[2])];
  }
  assert.deepEqual(Object.keys(saved).sort(), Object.keys(screen).sort(), 'the same six objects');
  assert.equal(Object.keys(saved).length, 6);
  for (const [key, [x, y]] of Object.entries(screen)) {
    assert.ok(Math.abs(saved[key][0] - x) < 0.6 && Math.abs(saved[key][1] - y) < 0.6,
      `${key}: saved at ${saved[key]}, shown at ${[x, y]}`);
  }
  const distinct = new Set(Object.values(saved).map((p) => p.join(',')));
  assert.equal(distinct.size, 6, 'six different places');
  assert.deepEqual(browser.errors, []);
});

test('under sl every state and path end is on a line of code, a returned path on its return', async (t) => {
  const { page, browser } = await openExplore(t, 'method=BST.find&strategy=sl&k=2');
  await runToEnd(page);
  const { nodes, source } = await page.evaluate(() => {
    const s = globalThis.__heaplab.store.getState();
    return { nodes: s.explore.tree.nodes.map((n) => ({ line: n.line, outcome: n.outcome ?? null })), source: s.source };
  });
  const lines = source.split('\n');
  let returned = 0;
  for (const [i, n] of nodes.entries()) {
    if (i === 0) continue;
    const text = (lines[n.line - 1] ?? '').trim();
    assert.ok(text !== '' && !text.startsWith('//'), `node ${i} (${n.outcome ?? 'inner'}) is on line ${n.line}: "${text}"`);
    if (n.outcome === 'returned') {
      returned += 1;
      assert.match(text, /\breturn\b/, `a returned path ends at its return, not at line ${n.line}: "${text}"`);
    }
  }
  assert.ok(returned > 0);
  assert.deepEqual(browser.errors, []);
});
