// Messages a student reads, each checked where it appears: the Logic tab names an unknown
// predicate and keeps its caret diagnostic on separate lines; a predicate without a base case is
// said to have no finite model (no "a larger bound may find one"); an unsatisfiable precondition
// is named as such in Explore; the SMT console counts error lines per query and stops at its
// time limit; a link naming an unknown strategy says so.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { session, waitForEngine, waitForZ3 } from './helpers.mjs';

async function openWith(t, query, source) {
  const s = await session(t, { viewport: { width: 1400, height: 950 } });
  await s.page.goto(`${s.server.url}${query}`);
  await waitForEngine(s.page);
  if (source !== undefined) {
    await s.page.evaluate((text) => globalThis.__heaplab.store.dispatch({ type: 'editor/replace', source: text }), source);
    await s.page.waitForFunction(() => globalThis.__heaplab.store.getState().methods !== null);
  }
  return s;
}

async function askLogic(page, formula, mode = 'Check satisfiability') {
  await page.getByRole('tab', { name: 'Logic' }).click();
  await page.getByLabel('Formula').fill(formula);
  await page.getByRole('button', { name: mode }).click();
  await page.waitForFunction(() => ['done', 'error'].includes(globalThis.__heaplab.store.getState().logic.status));
  return page.locator('.logic-output');
}

test('the Logic tab names an unknown predicate, with its caret on its own line', async (t) => {
  const { page, browser } = await openWith(t, '#example=bst.hl');
  const out = await askLogic(page, 'exists int lo, int hi. bts(t, lo, hi)');
  const text = await out.locator('pre.error').textContent();
  assert.match(text, /unknown predicate `bts`/);
  assert.doesNotMatch(text, /cannot infer the type/);
  assert.match(text, /the program's predicates: .*bst/);
  // The caret line points under `bts` in the line above it.
  const lines = text.split('\n');
  const formulaLine = lines.findIndex((l) => l.includes('bts(t, lo, hi)'));
  assert.ok(formulaLine >= 0 && /\^\^\^/.test(lines[formulaLine + 1]), text);
  const column = (line, what) => line.indexOf(what);
  assert.equal(column(lines[formulaLine + 1], '^'), column(lines[formulaLine], 'bts'), text);
  assert.deepEqual(browser.errors, []);
});

test('a predicate without a base case is proved to have no finite model', async (t) => {
  const program = 'class Node { Node next; }\n\npred inf(Node x) := exists Node y. x -> Node { next: y } * inf(y);\n';
  const { page, browser } = await openWith(t, '', program);
  const out = await askLogic(page, 'inf(x)');
  const verdict = await out.locator('.verdict-line').textContent();
  assert.match(verdict, /^unsat/);
  const all = await out.textContent();
  assert.match(all, /no finite model/);
  assert.doesNotMatch(all, /a larger bound may find one/);
  assert.deepEqual(browser.errors, []);
});

test('an unsatisfiable precondition is named, not "no path reached the end"', async (t) => {
  const program = 'class C {\n  int v;\n  void m(int x)\n    requires x > 0 & x < 0\n  {\n    this.v = x;\n  }\n}\n';
  const { page, browser } = await openWith(t, '?tab=explore', program);
  await page.waitForFunction(() => globalThis.__heaplab.store.getState().methods.some((m) => m.name === 'C.m'));
  for (const strategy of ['lazier#', 'sl']) {
    await page.getByRole('combobox', { name: 'Strategy' }).selectOption(strategy);
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.waitForFunction(() => ['done', 'error'].includes(globalThis.__heaplab.store.getState().explore.status), null, { timeout: 60000 });
    const count = await page.locator('.gt-count').textContent();
    assert.match(count, /no input satisfies the precondition \(requires\) of C\.m/, `${strategy}: ${count}`);
    assert.doesNotMatch(count, /no path reached the end/);
  }
  assert.deepEqual(browser.errors, []);
});

test('the SMT console numbers error lines per query, starts each from a fresh solver, and stops at its time limit', async (t) => {
  const { page, browser } = await openWith(t, '?debug=1');
  await waitForZ3(page);
  const input = page.getByLabel('SMT-LIB query');
  const answer = page.getByRole('status', { name: 'Z3 answer' });
  const ask = async (text) => {
    await input.fill(text);
    await page.getByRole('button', { name: 'Ask Z3' }).click();
    await page.waitForFunction(() => ['done', 'error'].includes(globalThis.__heaplab.store.getState().smt.status), null, { timeout: 60000 });
    return answer.textContent();
  };
  const script = '(declare-const x Int)\n(assert (> x 1))\n(check-sat)\n(nonsense)\n';
  for (let i = 0; i < 3; i += 1) {
    const text = await ask(script);
    assert.match(text, /^sat/);
    assert.match(text, /line:? 4\b/, `asked ${i + 1} times, the error is still on line 4: ${text}`);
  }
  // Each query starts from a fresh solver: a script cut off by a missing parenthesis (which
  // swallows what HeapLab appends to close its scope) or leaving a `(push)` open leaves nothing
  // behind, so the corrected script may declare `x` again.
  const broken = await ask('(declare-const x Int)\n(push 1)\n(declare-const y Int)\n(assert (> x 1)\n(check-sat)\n');
  assert.doesNotMatch(broken, /^sat/, broken);
  const fixed = await ask('(declare-const x Int)\n(declare-const y Int)\n(assert (> x y))\n(check-sat)\n');
  assert.doesNotMatch(fixed, /already declared/, fixed);
  assert.match(fixed, /^sat\s*$/, fixed);
  // x³ + y³ + z³ = 42 is far beyond Z3: its time limit answers unknown instead of a hang (a
  // hang would leave `ask` to the test's own timeout; no wall-clock assertion here).
  const hard = await ask('(declare-const x Int)\n(declare-const y Int)\n(declare-const z Int)\n' +
    '(assert (= (+ (* x x x) (* y y y) (* z z z)) 42))\n(assert (> (* x x) 1000000))\n(check-sat)\n');
  assert.match(hard, /unknown|did not answer/, hard);
  assert.deepEqual(browser.errors, []);
});

test('a link naming an unknown strategy says so and selects lazier#', async (t) => {
  const { page, browser } = await openWith(t, '?tab=explore&method=BST.insert&strategy=lazyest#example=bst.hl');
  const alert = page.getByRole('alert').filter({ hasText: 'Unknown strategy “lazyest”' });
  await alert.waitFor();
  assert.match(await alert.textContent(), /lazy, lazier, lazier#, sl/);
  assert.equal(await page.getByRole('combobox', { name: 'Strategy' }).inputValue(), 'lazier#');
  assert.equal(await page.evaluate(() => globalThis.__heaplab.store.getState().settings.explore.strategy), 'lazier#');
  assert.deepEqual(browser.errors, []);
});

test('the page speaks to students: no internal names in any label, tooltip or note', async (t) => {
  const { page, browser } = await openWith(t, '?tab=explore&method=BST.insert&strategy=lazier%23&k=2#example=bst.hl');
  await waitForZ3(page);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await page.waitForFunction(() => globalThis.__heaplab.store.getState().explore.status === 'done', null, { timeout: 120000 });
  await page.getByRole('tab', { name: 'Compare' }).click();
  await page.getByRole('button', { name: 'Compare strategies' }).click();
  await page.waitForFunction(() => globalThis.__heaplab.store.getState().compare.status === 'done', null, { timeout: 180000 });
  const INTERNAL = /seed-\d|digests?\b|\bSIR\b|§|Limits::|\bref\d+ = loc\d+|Appendix A/;
  for (const tab of ['Tests', 'Explore', 'Compare', 'Logic']) {
    await page.getByRole('tab', { name: tab }).click();
    const words = await page.evaluate(() => [document.body.innerText,
      ...[...document.querySelectorAll('[title]')].map((e) => e.getAttribute('title')),
      ...[...document.querySelectorAll('[aria-label]')].map((e) => e.getAttribute('aria-label')),
      ...[...document.querySelectorAll('svg title')].map((e) => e.textContent)].join('\n'));
    const hit = INTERNAL.exec(words);
    assert.equal(hit, null, `${tab}: "${hit?.[0]}" near "${hit ? words.slice(Math.max(0, hit.index - 60), hit.index + 60) : ''}"`);
  }
  // The references are in one place: Learn more.
  await page.getByRole('button', { name: 'Learn more' }).click();
  const dialog = page.getByRole('dialog', { name: 'Learn more' });
  await dialog.waitFor();
  assert.match(await dialog.textContent(), /Kiasan.*section 3\.1\.3/s);
  assert.match(await dialog.textContent(), /Java StarFinder/);
  assert.deepEqual(browser.errors, []);
});
