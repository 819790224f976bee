// Words and access (issue 35, item 7), checked the way a screen reader and an accessibility
// audit meet the page: axe-core (the accessibility checker of npm's axe-core package, injected
// into the page) over the Explore, Tests, Compare and Logic tabs in the light and the dark
// theme must report no contrast and no label violation; the tree, the heap picture and the test
// cards have names that say what they show in the program's own words (no engine ids like
// `ref17`); the editor says how to leave it, and Escape then Tab does.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ROOT, session, waitForEngine } from './helpers.mjs';

const AXE = join(ROOT, 'web', 'node_modules', 'axe-core', 'axe.min.js');
// Rules about contrast and about names and labels (WCAG 1.4.3, 1.1.1, 4.1.2, 2.4.4, 3.3.2).
const WATCHED = /contrast|name|label|alt|title/;

async function audit(page, where) {
  if (!(await page.evaluate(() => typeof globalThis.axe === 'object'))) await page.addScriptTag({ path: AXE });
  const violations = await page.evaluate(async () => {
    const r = await globalThis.axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return r.violations.map((v) => ({ id: v.id, nodes: v.nodes.slice(0, 5).map((n) => `${n.target.join(' ')}: ${n.failureSummary.split('\n')[1] ?? ''}`) }));
  });
  const watched = violations.filter((v) => WATCHED.test(v.id));
  const others = violations.filter((v) => !WATCHED.test(v.id)).map((v) => v.id);
  if (others.length) console.log(`# ${where}: other axe findings (not contrast or labels): ${others.join(', ')}`);
  assert.deepEqual(watched, [], `${where}: ${JSON.stringify(watched, null, 1)}`);
}

for (const scheme of ['light', 'dark']) {
  test(`axe-core finds no contrast or label violation in Explore, Tests, Compare and Logic (${scheme} theme)`, async (t) => {
    const { page, server, browser } = await session(t, { viewport: { width: 1500, height: 1000 } });
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto(`${server.url}?tab=explore&method=BST.insert&k=2#example=bst.hl`);
    await waitForEngine(page);
    await page.waitForFunction(() => globalThis.__heaplab.store.getState().methods.length > 0);
    assert.equal(await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches), scheme === 'dark');
    // Explore: a few steps (the editor's current line is marked), then a whole run with a
    // state selected, its heap drawn.
    for (let i = 0; i < 6; i += 1) {
      await page.getByRole('button', { name: 'Step over' }).click();
      await page.waitForFunction(() => ['paused', 'done'].includes(globalThis.__heaplab.store.getState().explore.status));
    }
    await page.locator('.cm-line[data-current-line]').waitFor();
    await audit(page, `Explore while stepping (${scheme})`);
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.waitForFunction(() => globalThis.__heaplab.store.getState().explore.status === 'done', null, { timeout: 120000 });
    await page.evaluate(() => globalThis.__heaplab.store.dispatch({ type: 'explore/select', node: 5 }));
    await page.locator('.heap-graph svg').waitFor();
    await audit(page, `Explore (${scheme})`);
    await page.getByRole('tab', { name: 'Tests' }).click();
    await page.getByRole('button', { name: 'Run tests' }).click();
    await page.waitForFunction(() => globalThis.__heaplab.store.getState().tests.status === 'done');
    await audit(page, `Tests (${scheme})`);
    await page.getByRole('tab', { name: 'Compare' }).click();
    await page.getByRole('button', { name: 'Compare strategies' }).click();
    await page.waitForFunction(() => ['done', 'error'].includes(globalThis.__heaplab.store.getState().compare.status), null, { timeout: 180000 });
    await audit(page, `Compare (${scheme})`);
    await page.getByRole('tab', { name: 'Logic' }).click();
    await page.getByLabel('Formula').fill('bst(t, 0, 10)');
    await page.getByRole('button', { name: 'Enumerate models' }).click();
    await page.waitForFunction(() => globalThis.__heaplab.store.getState().logic.status === 'done', null, { timeout: 60000 });
    await audit(page, `Logic (${scheme})`);
    assert.deepEqual(browser.errors, []);
  });
}

test('the tree, the heap and the tests are named in the program\'s words; Esc then Tab leaves the editor', async (t) => {
  const { page, server, browser } = await session(t, { viewport: { width: 1500, height: 1000 } });
  await page.goto(`${server.url}?tab=explore&method=BST.insert&strategy=lazier%23&k=2#example=bst.hl`);
  await waitForEngine(page);
  await page.waitForFunction(() => globalThis.__heaplab.store.getState().methods.length > 0);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await page.waitForFunction(() => globalThis.__heaplab.store.getState().explore.status === 'done', null, { timeout: 120000 });
  // Every tree label says which variable or field it is about: none is an engine id.
  const labels = await page.evaluate(() => globalThis.__heaplab.store.getState().explore.tree.nodes.map((n) => n.label));
  const ENGINE_ID = /\b(ref|loc)\d+\b|\bo\d+\b/;
  assert.deepEqual(labels.filter((l) => ENGINE_ID.test(l)), [], 'labels without engine ids');
  assert.ok(labels.some((l) => /^this\.root(\.\w+)* is null$/.test(l)), labels.join(' | '));
  assert.ok(labels.some((l) => /^this\.root(\.\w+)* is an object$/.test(l)), labels.join(' | '));
  // A screen reader reads the tree's items by those words.
  const item = page.getByRole('treeitem', { name: /this\.root is null/ }).first();
  await item.waitFor();
  // The heap picture of a state below a choice about this.root.left: named by paths.
  const node = await page.evaluate(() => globalThis.__heaplab.store.getState().explore.tree.nodes
    .find((n) => /^this\.root\.left is an object$/.test(n.label))?.id);
  assert.ok(node !== undefined, 'a state where this.root.left is an object');
  await page.evaluate((n) => globalThis.__heaplab.store.dispatch({ type: 'explore/select', node: n }), node);
  const heap = page.locator('.heap-graph svg[role=img]');
  await page.waitForFunction(() => /this\.root\.left/.test(document.querySelector('.heap-graph svg')?.getAttribute('aria-label') ?? ''));
  const said = await heap.getAttribute('aria-label');
  assert.match(said, /^Heap: this is a BST, root this\.root; .*\bthis\.root is a Node, key (the input )?this\.root\.key, left this\.root\.left/, said);
  assert.doesNotMatch(said, ENGINE_ID, said);
  assert.match(await page.locator('.heap-change').textContent(), /this\.root\.left/);
  // Test cards: the test, how it ends, its input's validity; their pictures worded the same way.
  const cards = page.getByRole('listitem', { name: /^Test gen_insert_\d+: returns void, input assumed$/ });
  assert.ok(await cards.count() > 0);
  // Pictures are drawn once their card is seen.
  await page.locator('.gt-card').first().scrollIntoViewIfNeeded();
  const picture = page.locator('.gt-card .gt-heap svg[role=img]').first();
  await picture.waitFor();
  assert.match(await picture.getAttribute('aria-label'), /^Heap: this is a BST, root (null|this\.root)/);
  // The editor says how to leave it, and Escape then Tab does.
  await page.locator('.cm-content').click();
  await page.getByText('to leave the editor', { exact: false }).waitFor();
  assert.equal(await page.locator('.cm-content').getAttribute('aria-describedby'), 'editor-hint');
  await page.keyboard.press('Escape');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => Boolean(document.activeElement?.closest('.cm-editor'))), false, 'the focus left the editor');
  // The gallery speaks plainly too.
  const titles = await page.evaluate(() => globalThis.__heaplab.store.getState().examples.map((e) => `${e.title} ${e.description}`).join('\n'));
  assert.doesNotMatch(titles, /Paper \d|digest|seed-\d|§/);
  assert.deepEqual(browser.errors, []);
});
