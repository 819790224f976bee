// Java in the page's gallery, language switch and links (issue 29, item 5): a course class
// chosen from the Examples menu opens in Java mode (the Language menu says so, the editor uses
// Java's grammar, the method list names Java signatures and the methods that cannot be explored
// with their reason), one of its methods explores, and a share link of it reopens the same Java
// program in Java mode in a fresh browser. A class the detection reads as HeapLab is switched to
// Java by hand, and the link keeps that choice. The oracles are the example files themselves,
// the engine's own diagnostics (no errors once read as Java), and the exploration's tests.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT, launch, session, waitForEngine } from './helpers.mjs';

const AXE = join(ROOT, 'web', 'node_modules', 'axe-core', 'axe.min.js');

const state = (page) => page.evaluate(() => {
  const s = globalThis.__heaplab.store.getState();
  return { source: s.source, lang: s.lang, langAuto: s.langAuto, methods: s.methods, leftOut: s.leftOut, diagnostics: s.diagnostics.list };
});

/** Waits until the methods of the editor's program, read as `lang`, are listed. */
async function methodsListed(page, lang) {
  await page.waitForFunction((want) => {
    const s = globalThis.__heaplab.store.getState();
    return s.lang === want && s.methods.length > 0 && s.methods.every((m) => (want === 'java') === ('signature' in m));
  }, lang, { timeout: 30000 });
}

async function shareLink(page) {
  await page.getByRole('button', { name: 'Share' }).click();
  await page.getByRole('button', { name: 'Copy link' }).click();
  const link = page.getByRole('status').getByRole('link', { name: /Link copied|Share link ready/ });
  await link.waitFor();
  return link.getAttribute('href');
}

const errorsOf = (s) => s.diagnostics.filter((d) => d.severity === 'error');


/** A share link opened in a fresh browser, once its Java methods are listed: that browser and the page's state. */
async function reopen(t, url) {
  const other = await launch();
  t.after(() => other.close());
  await other.page.goto(url);
  await waitForEngine(other.page);
  await methodsListed(other.page, 'java');
  return { other, reopened: await state(other.page) };
}

test('a Java course class from the gallery opens in Java mode, explores, and its share link reopens it as Java', async (t) => {
  const { server, page, browser } = await session(t, { viewport: { width: 1500, height: 1000 } });
  const source = await readFile(join(ROOT, 'examples', 'java', 'course', 'LinkedStack.java'), 'utf8');
  await page.goto(server.url);
  await waitForEngine(page);

  await page.getByRole('button', { name: 'Examples' }).click();
  // The menu's groups are valid ARIA (a menu of groups of menu items, axe-core's aria-* rules)
  // and named. (axe's label-content-name-mismatch flags every item, .hl ones included, since
  // the gallery's items began: an item is named by its title and described by its description.)
  await page.addScriptTag({ path: AXE });
  const violations = await page.evaluate(async () => {
    const r = await globalThis.axe.run('#examples', { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return r.violations.filter((v) => /^aria-/.test(v.id)).map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
  assert.deepEqual(violations, []);
  assert.deepEqual(await page.getByRole('menu', { name: 'Examples' }).getByRole('group').evaluateAll((gs) => gs.map((g) => g.getAttribute('aria-label'))),
    ['HeapLab', 'Duels', 'Java', 'Java course classes']);
  const group = page.getByRole('group', { name: 'Java course classes' });
  await group.getByRole('menuitem', { name: 'LinkedStack.java' }).click();
  await page.waitForFunction((text) => globalThis.__heaplab.store.getState().source === text, source);
  assert.match(page.url(), /#example=java\/course\/LinkedStack\.java$/);

  // The language is shown, as detected, and the editor colours Java (`public` is a keyword of
  // Java's grammar; HeapLab's highlighter has no such word).
  const language = page.getByRole('combobox', { name: 'Language' });
  assert.equal(await language.inputValue(), 'auto');
  assert.equal((await language.locator('option:checked').textContent()).trim(), 'Java (detected)');
  await page.waitForFunction(() => [...document.querySelectorAll('.cm-line span')].some((e) => e.textContent === 'public'),
    null, { timeout: 5000 });

  await methodsListed(page, 'java');
  const s = await state(page);
  assert.deepEqual(errorsOf(s), [], 'read as Java, the class has no errors');
  const push = s.methods.find((m) => m.name === 'LinkedStack.push');
  assert.ok(push, JSON.stringify(s.methods.map((m) => m.name)));
  assert.match(push.signature, /^LinkedStack\.push\(\w+\)$/);
  assert.ok(s.leftOut.some((m) => m.signature === 'LinkedStack.iterator()'), JSON.stringify(s.leftOut));

  await page.getByRole('tab', { name: 'Explore' }).click();
  const method = page.getByRole('combobox', { name: 'Method' });
  assert.ok((await method.locator('option').allTextContents()).includes(push.signature), 'the picker shows the Java signature');
  // The left-out methods: greyed out in the picker, and below it with the checker's reason.
  assert.equal(await method.locator('optgroup[label="Cannot be explored"] option[disabled]', { hasText: 'LinkedStack.iterator()' }).count(), 1);
  const leftOut = page.locator('[data-left-out]');
  await leftOut.locator('summary').click();
  const reason = s.leftOut.find((m) => m.signature === 'LinkedStack.iterator()').leftOut;
  assert.match(await leftOut.innerText(), new RegExp(`LinkedStack\\.iterator\\(\\).*${reason.replace(/[.*+?^${}()|[\]\\`]/g, '\\$&')}`));

  await method.selectOption('LinkedStack.push');
  await page.getByRole('combobox', { name: 'Strategy' }).selectOption('lazier#');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await page.waitForFunction(() => globalThis.__heaplab.store.getState().explore.status === 'done', null, { timeout: 120000 });
  const summary = await page.evaluate(() => globalThis.__heaplab.store.getState().explore.summary);
  assert.ok(summary.tests > 0, JSON.stringify(summary));
  console.log(`# LinkedStack.push under lazier#: ${summary.paths} paths, ${summary.tests} tests`);

  // The Compare tab names the method as Java does.
  await page.getByRole('tab', { name: 'Compare' }).click();
  await page.getByText(`Runs every strategy on ${push.signature} with`).waitFor({ timeout: 5000 });
  await page.getByRole('button', { name: 'Compare strategies' }).click();
  await page.waitForFunction(() => ['done', 'error'].includes(globalThis.__heaplab.store.getState().compare.status), null, { timeout: 180000 });
  const compared = await page.evaluate(() => globalThis.__heaplab.store.getState().compare);
  assert.equal(compared.status, 'done', compared.error);
  console.log(`# LinkedStack.push compared: ${compared.rows.map((r) => `${r.strategy} ${r.paths} paths/${r.tests} tests`).join(', ')}`);
  assert.ok(compared.rows.length >= 6 && compared.rows.every((r) => !r.error), JSON.stringify(compared.rows.map((r) => r.error ?? r.strategy)));
  await page.getByRole('tab', { name: 'Explore' }).click();

  const url = await shareLink(page);
  assert.match(url, /#p=[A-Za-z0-9_-]+$/);
  const { other, reopened } = await reopen(t, url);
  assert.equal(reopened.source, source);
  assert.equal(reopened.lang, 'java');
  assert.deepEqual(errorsOf(reopened), []);
  assert.equal((await other.page.getByRole('combobox', { name: 'Language' }).locator('option:checked').textContent()).trim(), 'Java (detected)');
  assert.ok(reopened.methods.some((m) => m.signature === push.signature));

  // The embed snippet's frame opens the same class as Java, in the Explore tab.
  await page.getByRole('button', { name: 'Copy embed code' }).click();
  const snippet = page.getByRole('textbox', { name: 'Embed code' });
  await snippet.waitFor();
  const src = /src="([^"]+)"/.exec(await snippet.inputValue())[1].replaceAll('&quot;', '"').replaceAll('&amp;', '&');
  assert.match(src, /\?embed=explore#p=/);
  await other.page.goto(src);
  await waitForEngine(other.page);
  await methodsListed(other.page, 'java');
  const embedded = await state(other.page);
  assert.equal(embedded.source, source);
  assert.deepEqual(errorsOf(embedded), []);
  assert.deepEqual(browser.errors, []);
  assert.deepEqual(other.errors, []);
});

test('a class read as HeapLab is switched to Java by hand, and its link keeps Java; #example= opens a Java example', async (t) => {
  const { server, page, browser } = await session(t);
  // No modifier, no package: the text alone reads as HeapLab (where implicit `this` and `++`
  // are errors); in Java it is a plain class.
  const counter = 'class Counter {\n  int n;\n\n  void inc() {\n    n++;\n  }\n}\n';
  await page.goto(server.url);
  await waitForEngine(page);
  await page.evaluate((text) => globalThis.__heaplab.store.dispatch({ type: 'editor/replace', source: text }), counter);
  await page.waitForFunction(() => globalThis.__heaplab.store.getState().diagnostics.list.some((d) => d.severity === 'error'),
    null, { timeout: 30000 });
  const language = page.getByRole('combobox', { name: 'Language' });
  assert.equal((await language.locator('option:checked').textContent()).trim(), 'HeapLab (detected)');

  // Results for the text read as HeapLab (here: the tests refused, it has errors) are dropped
  // when it is read as Java.
  await page.getByRole('button', { name: 'Run tests' }).click();
  await page.waitForFunction(() => globalThis.__heaplab.store.getState().tests.status === 'error');

  // Chosen from the keyboard: Tab-reachable, and the arrow keys go Detect → HeapLab → Java.
  await language.focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  assert.equal(await language.inputValue(), 'java');
  await methodsListed(page, 'java');
  await page.waitForFunction(() => globalThis.__heaplab.store.getState().diagnostics.list.every((d) => d.severity !== 'error'),
    null, { timeout: 30000 });
  let s = await state(page);
  assert.deepEqual([s.lang, s.langAuto], ['java', false]);
  assert.equal(await page.evaluate(() => globalThis.__heaplab.store.getState().tests.status), 'idle');
  assert.deepEqual(s.methods.map((m) => m.signature), ['Counter.inc()']);
  // An edit keeps the choice.
  await page.getByRole('textbox', { name: 'Program editor' }).click();
  await page.keyboard.press('ControlOrMeta+End');
  await page.keyboard.type('// edited\n');
  await page.waitForFunction(() => globalThis.__heaplab.store.getState().source.includes('// edited'));
  s = await state(page);
  assert.deepEqual([s.lang, s.langAuto], ['java', false]);

  // The header, with the Language menu, wraps rather than scrolling sideways at a middle width.
  for (const width of [1000, 900, 700]) {
    await page.setViewportSize({ width, height: 800 });
    assert.deepEqual(await page.evaluate(() => [document.documentElement.scrollWidth, innerWidth]), [width, width]);
  }
  await page.setViewportSize({ width: 1360, height: 860 });

  const url = await shareLink(page);
  const { other, reopened } = await reopen(t, url);
  assert.deepEqual([reopened.lang, reopened.langAuto], ['java', false]);
  assert.equal(await other.page.getByRole('combobox', { name: 'Language' }).inputValue(), 'java');
  assert.deepEqual(errorsOf(reopened), []);

  // `#example=java/BST.java` opens that Java example in Java mode.
  const bst = await readFile(join(ROOT, 'examples', 'java', 'BST.java'), 'utf8');
  const third = await launch();
  t.after(() => third.close());
  await third.page.goto(`${server.url}#example=java/BST.java`);
  await waitForEngine(third.page);
  await methodsListed(third.page, 'java');
  const opened = await state(third.page);
  assert.equal(opened.source, bst);
  assert.equal(opened.lang, 'java');
  assert.deepEqual(errorsOf(opened), []);
  assert.ok(opened.methods.some((m) => m.signature?.startsWith('BST.insert(')), JSON.stringify(opened.methods.map((m) => m.signature)));
  assert.deepEqual(browser.errors, []);
  assert.deepEqual(other.errors, []);
  assert.deepEqual(third.errors, []);
});
