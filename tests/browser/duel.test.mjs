// Duels (issue 35, item 3) as a class meets them: an instructor opens the BST duel, shares it as
// an embed whose link carries the hidden reference, and a course page that is not cross-origin
// isolated frames it. The student's starter insert gets clues; a correct insert gets "no
// difference up to k = 3"; after one visit the embed works with HeapLab's server gone.
//
// Oracles: what is known about the starter independently of HeapLab (it differs exactly on
// non-empty trees without x, which every clue's input must be), and `heaplab duel` on the same
// program (exit 1 / exit 0, and the same number of paths compared). Times are printed, not
// asserted: the counts say the duel stopped after its first clues.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, launch, startStatic, ISOLATION_HEADERS } from './helpers.mjs';

const run = promisify(execFile);
const HEAPLAB = join(ROOT, 'target', 'release', 'heaplab');
const CORRECT = [
  '    Node t = this.root;',
  '    while (true) {',
  '      if (x < t.key) { if (t.left == null) { t.left = new Node { key: x }; return; } t = t.left; }',
  '      else if (x > t.key) { if (t.right == null) { t.right = new Node { key: x }; return; } t = t.right; }',
  '      else return;',
  '    }',
].join('\n');

/** `heaplab duel` on `text` (the student's program with the reference part): exit code, JSON. */
async function cliDuel(text) {
  const dir = await mkdtemp(join(tmpdir(), 'heaplab-duel-'));
  const file = join(dir, 'duel.hl');
  await writeFile(file, text);
  try {
    const { stdout } = await run(HEAPLAB, ['duel', file, '--method', 'BST.insert', '--reference', 'insertRef',
      '--format', 'json', '--clues', '0']);
    return { code: 0, json: JSON.parse(stdout) };
  } catch (err) {
    return { code: err.code, json: JSON.parse(err.stdout) };
  }
}

/** Keys of the tree and x, read back from a clue's input lines. */
function keysAndX(lines) {
  const tree = lines.find((l) => l.startsWith('this = '));
  const keys = [...tree.matchAll(/key: (-?\d+)/g)].map((m) => Number(m[1]));
  const x = Number(lines.find((l) => l.startsWith('x = ')).slice(4));
  return { keys, x };
}

/** Presses Check in the frame and waits for the verdict; returns it and the time it took. */
async function check(frame, inner) {
  const started = Date.now();
  await frame.getByRole('button', { name: 'Check my method' }).click();
  await inner.waitForFunction(() => ['done', 'error'].includes(globalThis.__heaplab.store.getState().duel.status),
    null, { timeout: 120000 });
  const duel = await inner.evaluate(() => globalThis.__heaplab.store.getState().duel);
  assert.equal(duel.status, 'done', duel.error);
  return { duel, ms: Date.now() - started };
}

test('a duel embedded in a plain course page: clues for a wrong insert, none up to k = 3 for a correct one, offline after one visit', async (t) => {
  const heaplab = await startStatic({ headers: ISOLATION_HEADERS });
  const browser = await launch({ viewport: { width: 1280, height: 900 } });
  let host = null;
  t.after(async () => {
    await browser.close();
    await host?.stop();
    await heaplab.stop();
  });
  const { page } = browser;

  // The instructor opens the duel: from a link, its reference is hidden even from them.
  await page.goto(`${heaplab.url}#example=duels/bst-insert.hl`);
  await page.getByText('Engine ready', { exact: true }).waitFor({ timeout: 30000 });
  await page.getByRole('tab', { name: 'Duel' }).waitFor();
  const full = await readFile(join(ROOT, 'examples', 'duels', 'bst-insert.hl'), 'utf8');
  const shown = await page.evaluate(() => globalThis.__heaplab.store.getState().source);
  assert.ok(!shown.includes('insertRef') && full.includes('insertRef'), 'the reference is not in the editor');
  await page.getByRole('button', { name: 'Share' }).click();
  await page.getByRole('combobox', { name: 'Tab to embed' }).selectOption('duel');
  await page.getByRole('button', { name: 'Copy embed code' }).click();
  const code = await page.getByRole('textbox', { name: 'Embed code' }).inputValue();
  assert.match(code, /\?embed=duel#p=[A-Za-z0-9_-]+"/);
  assert.ok(!code.includes('insertRef'), 'the reference travels compressed in the link');
  const height = Number(/height="(\d+)"/.exec(code)[1]);

  // A course page without cross-origin isolation (an ordinary LMS page) frames it.
  host = await startStatic({ pages: { '/week4.html': `<!doctype html><html><head><meta charset="utf-8">
    <link rel="icon" href="data:,"><title>Week 4: duels</title></head><body style="font-family:sans-serif;margin:16px">
    <h1 style="font-size:20px">Week 4: beat the reference</h1>${code.replace('<iframe ', '<iframe id="duel" ')}</body></html>` } });
  await page.goto(`${host.url}week4.html`);
  const frame = page.frameLocator('#duel');
  await frame.getByText('Engine ready', { exact: true }).waitFor({ timeout: 30000 });
  const inner = page.frames().find((f) => f.url().startsWith(heaplab.url));
  assert.equal(await inner.evaluate(() => crossOriginIsolated), false);
  assert.equal(await frame.getByRole('tab').count(), 0, 'one compact tab');
  const student = await inner.evaluate(() => globalThis.__heaplab.store.getState().source);
  assert.ok(!student.includes('insertRef'), 'the student does not see the reference');
  // The snippet's height shows the Check button and the first clue without scrolling the page.
  assert.ok(height >= 600, `embed height ${height}`);

  // The starter insert is wrong: clues, each an input the starter really gets wrong.
  const wrong = await check(frame, inner);
  const verdict = wrong.duel.verdict;
  assert.equal(verdict.differ, true);
  assert.ok(verdict.clues.length >= 1 && verdict.clues.length <= 3, `${verdict.clues.length} clues`);
  for (const clue of verdict.clues) {
    const { keys, x } = keysAndX(clue.inputText);
    assert.ok(keys.length > 0 && !keys.includes(x), `a clue the starter really gets wrong: ${clue.inputText}`);
    assert.equal(clue.inputSatisfiesRequires, true);
  }
  assert.equal(verdict.stoppedEarly, true, 'the duel stopped after its first clues');
  const cliWrong = await cliDuel(`${student}\n${full.slice(full.indexOf('// @duel'))}`);
  assert.equal(cliWrong.code, 1);
  assert.ok(wrong.duel.progress.agree + wrong.duel.progress.differ < cliWrong.json.paths_agreeing + cliWrong.json.clues.length,
    'fewer paths than the whole duel: it stopped at the first clues');
  await frame.getByRole('list', { name: /^Clues/ }).getByText('Clue 1', { exact: true }).waitFor();
  await frame.getByRole('img', { name: /^Clue 1 input: this = BST/ }).waitFor();
  console.log(`# duel, wrong insert: first clues after ${wrong.ms} ms (${wrong.duel.progress.differ} differing paths)`);

  // The student writes the rest of insert where the starter says so.
  await page.screenshot({ path: '/tmp/pw/embed-duel.png' });
  await frame.locator('.cm-line', { hasText: '// Your code' }).click();
  await page.keyboard.press('Home');
  await page.keyboard.press('Shift+End');
  await page.keyboard.insertText(CORRECT.trimStart());
  await inner.waitForFunction(() => globalThis.__heaplab.store.getState().source.includes('t = t.right'));
  const right = await check(frame, inner);
  assert.equal(right.duel.verdict.differ, false);
  await frame.getByRole('status').filter({ hasText: /^No difference up to k = 3: \d+ paths compared/ }).waitFor();
  await frame.getByRole('status').filter({ hasText: 'Limited by k = 3' }).waitFor();
  const fixed = await inner.evaluate(() => globalThis.__heaplab.store.getState().source);
  const cliRight = await cliDuel(`${fixed}\n${full.slice(full.indexOf('// @duel'))}`);
  assert.equal(cliRight.code, 0);
  assert.equal(right.duel.verdict.agreeingPaths, cliRight.json.paths_agreeing, 'the same paths as heaplab duel');
  console.log(`# duel, correct insert: no difference after ${right.ms} ms (${right.duel.verdict.agreeingPaths} paths)`);

  // The frame registered HeapLab's service worker: with HeapLab's server gone, the course page
  // still shows a working duel.
  // An in-frame loop, awaited: waitForFunction does not await an async predicate (its Promise is
  // truthy), so it would not wait at all.
  const installed = await inner.evaluate(async () => {
    for (let round = 0; round < 240; round += 1) {
      if (round > 0) await new Promise((resolve) => setTimeout(resolve, 250));
      const reg = await navigator.serviceWorker.getRegistration();
      if (reg?.active && (await caches.keys()).some((k) => k.startsWith('heaplab-'))) return true;
    }
    return false;
  });
  assert.ok(installed, 'the frame registered and activated the service worker');
  await heaplab.stop();
  await page.reload();
  await frame.getByText('Engine ready', { exact: true }).waitFor({ timeout: 30000 });
  const offline = page.frames().find((f) => f.url().startsWith(heaplab.url));
  const again = await check(frame, offline);
  assert.equal(again.duel.verdict.differ, true, 'the starter again, with clues, offline');
  assert.deepEqual(browser.errors, []);
});
