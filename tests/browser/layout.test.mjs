// The page on a phone and in dark mode, and the pictures a teacher takes for slides. Oracles:
// the document's own widths (no horizontal overflow at 390 px), computed colours, the editor's
// text after typing, the zoom the tree reports, and the files the export buttons save.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT, session, waitForEngine, waitForZ3 } from './helpers.mjs';

const ARTIFACTS = join(ROOT, 'tests', 'artifacts');

/** Elements wider than the viewport (the page must not scroll sideways). */
const overflow = (page) => page.evaluate(() => {
  const width = document.documentElement.clientWidth;
  const wide = [];
  if (document.documentElement.scrollWidth > width) wide.push(`document ${document.documentElement.scrollWidth}px`);
  for (const el of document.querySelectorAll('body *')) {
    const r = el.getBoundingClientRect();
    if (r.width > 0 && r.right > width + 1 && getComputedStyle(el).position !== 'fixed' && !el.closest('.cm-scroller, .tree-canvas, .heap-graph, .cmp-table-wrap, .tabs, [hidden], dialog')) {
      wide.push(`${el.tagName.toLowerCase()}.${el.className} right=${Math.round(r.right)}`);
    }
  }
  return wide.slice(0, 8);
});

test('at 390 px wide no tab scrolls sideways', async (t) => {
  const { page, server, browser } = await session(t, { viewport: { width: 390, height: 844 } });
  await page.goto(`${server.url}?tab=explore&method=BST.insert&strategy=lazier%23&k=2#example=bst.hl`);
  await waitForEngine(page);
  await waitForZ3(page);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await page.waitForFunction(() => globalThis.__heaplab.store.getState().explore.status === 'done', null, { timeout: 120000 });
  for (const tab of ['Explore', 'Tests', 'Compare', 'Logic', 'Debug']) {
    await page.getByRole('tab', { name: tab }).click();
    assert.deepEqual(await overflow(page), [], `${tab} fits in 390 px`);
  }
  await page.getByRole('tab', { name: 'Explore' }).click();
  await mkdir(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, 'phone-390.png'), fullPage: false });
  assert.deepEqual(browser.errors, []);
});

test('dark mode follows the system setting', async (t) => {
  const { page, server, browser } = await session(t, { viewport: { width: 1360, height: 860 } });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto(`${server.url}?tab=explore&method=BST.insert&strategy=lazier%23&k=2#example=bst.hl`);
  await waitForEngine(page);
  await waitForZ3(page);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await page.waitForFunction(() => globalThis.__heaplab.store.getState().explore.status === 'done', null, { timeout: 120000 });
  await page.evaluate(() => globalThis.__heaplab.store.dispatch({ type: 'explore/select', node: 3 }));
  await page.locator('#explore-heap svg[role="img"]').first().waitFor();
  const luminance = (rgb) => {
    const [r, g, b] = rgb.match(/\d+/g).map(Number);
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const colours = await page.evaluate(() => ({
    body: getComputedStyle(document.body).backgroundColor,
    ink: getComputedStyle(document.body).color,
    editor: getComputedStyle(document.querySelector('.cm-editor')).backgroundColor,
    panel: getComputedStyle(document.querySelector('.side-pane')).backgroundColor,
  }));
  assert.ok(luminance(colours.body) < 60, `dark background: ${colours.body}`);
  assert.ok(luminance(colours.editor) < 60, `dark editor: ${colours.editor}`);
  assert.ok(luminance(colours.panel) < 60, `dark panels: ${colours.panel}`);
  assert.ok(luminance(colours.ink) > 180, `light text: ${colours.ink}`);
  await page.emulateMedia({ colorScheme: 'light' });
  assert.ok(luminance(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)) > 200, 'and light again');
  await page.emulateMedia({ colorScheme: 'dark' });
  await mkdir(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, 'dark-mode.png') });
  assert.deepEqual(browser.errors, []);
});

test('the editor indents after a brace and dedents a closing one', async (t) => {
  const { page, server } = await session(t);
  await page.goto(server.url);
  await waitForEngine(page);
  await page.locator('.cm-content').click();
  await page.keyboard.press('Control+a');
  await page.keyboard.press('Delete');
  const source = () => page.evaluate(() => globalThis.__heaplab.store.getState().source);
  // Typing `{` also closes it; Enter indents the new line one step deeper.
  await page.keyboard.type('class A {\nint f(int x) {\nreturn x;');
  assert.equal((await source()).replace(/[ \t]+$/gm, ''), 'class A {\n  int f(int x) {\n    return x;\n  }\n}');
  // A `}` typed on an indented line moves back to the level of its `{`.
  await page.keyboard.press('Control+a');
  await page.keyboard.press('Delete');
  await page.keyboard.type('class B {\nint x;\n');
  await page.keyboard.type('}');
  assert.deepEqual((await source()).split('\n').slice(0, 3), ['class B {', '  int x;', '}']);
});

test('Fit keeps labels readable, test pictures grow on demand, and pictures export as SVG and PNG', async (t) => {
  const { page, server, browser } = await session(t, { viewport: { width: 1500, height: 1000 } });
  await page.goto(`${server.url}?tab=explore&method=TreeMap.put&strategy=lazier%23&k=2#example=treemap.hl`);
  await waitForEngine(page);
  await waitForZ3(page);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await page.waitForFunction(() => globalThis.__heaplab.store.getState().explore.status === 'done', null, { timeout: 120000 });
  const scale = () => page.locator('#explore-tree .tree-viewport').evaluate((g) => Number(/scale\(([\d.e-]+)\)/.exec(g.getAttribute('transform'))[1]));
  await page.getByRole('button', { name: 'Whole' }).click();
  await page.waitForTimeout(400);
  const whole = await scale();
  await page.getByRole('button', { name: 'Fit' }).click();
  await page.waitForTimeout(400);
  const fitted = await scale();
  assert.ok(whole < 0.8, `this tree is too big to show whole at a readable size (${whole})`);
  assert.ok(fitted >= 0.8, `Fit keeps labels readable (${fitted})`);
  assert.ok(await page.locator('#explore-tree .tn-label').first().isVisible(), 'labels are drawn');

  // A test picture, bigger on demand.
  const card = page.locator('.gt-card').first();
  // Pictures are drawn when their card scrolls into view.
  await card.scrollIntoViewIfNeeded();
  await card.locator('.gt-heap svg').waitFor();
  const before = (await card.locator('.gt-heap svg').boundingBox()).width;
  await card.getByRole('button', { name: /^Enlarge the picture of test/ }).click();
  await page.waitForTimeout(200);
  const after = (await card.locator('.gt-heap svg').boundingBox()).width;
  assert.ok(after > before * 1.2, `the picture grew (${Math.round(before)} -> ${Math.round(after)} px)`);

  // Exports: the tree and the heap of a selected state, as SVG and PNG files.
  await page.locator('#explore-tree [data-node]').nth(2).click();
  await page.locator('#explore-heap svg[role="img"]').first().waitFor();
  for (const [where, name] of [['#explore-tree', 'the tree'], ['#explore-heap', 'the heap']]) {
    const [svgFile] = await Promise.all([page.waitForEvent('download'), page.locator(where).getByRole('button', { name: `Save ${name} as SVG` }).click()]);
    const svg = await readFile(await svgFile.path(), 'utf8');
    assert.match(svg, /^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/, `${name}: a standalone SVG`);
    assert.match(svg, /<text/, `${name}: with its labels`);
    const [pngFile] = await Promise.all([page.waitForEvent('download'), page.locator(where).getByRole('button', { name: `Save ${name} as PNG` }).click()]);
    const png = await readFile(await pngFile.path());
    assert.deepEqual([...png.subarray(0, 8)], [137, 80, 78, 71, 13, 10, 26, 10], `${name}: a PNG file`);
    assert.ok(png.readUInt32BE(16) > 100 && png.readUInt32BE(20) > 50, `${name}: a real picture (${png.readUInt32BE(16)}×${png.readUInt32BE(20)})`);
  }
  assert.deepEqual(browser.errors, []);
});
