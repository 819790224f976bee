// Embedding the Explore tab in a course page, as an instructor does: a page on another origin
// holds `<iframe src=".../?embed=explore...">`. Served without COOP/COEP (an ordinary LMS or
// GitHub Pages page) the frame cannot have SharedArrayBuffer, so Z3 cannot run there: explorations
// run on HeapLab's Rust decision procedure alone and get the CLI's counts (a question only Z3
// could answer would be reported as such, with a button opening the program in a full page). Served isolated, the frame runs Z3 and gets the
// CLI's test counts. HeapLab itself is served as `heaplab serve` does for embeds: COOP, COEP and
// `Cross-Origin-Resource-Policy: cross-origin`.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT, launch, startStatic, ISOLATION_HEADERS } from './helpers.mjs';

const run = promisify(execFile);
const HEAPLAB = join(ROOT, 'target', 'release', 'heaplab');
const ARTIFACTS = join(ROOT, 'tests', 'artifacts');

/** `heaplab run examples/bst.hl --method BST.insert --strategy X`: its number of tests. */
async function cliTests(strategy) {
  const { stdout } = await run(HEAPLAB, ['run', join(ROOT, 'examples', 'bst.hl'), '--method', 'BST.insert',
    '--strategy', strategy, '--format', 'json'], { maxBuffer: 1 << 26 });
  return JSON.parse(stdout).tests;
}

/** HeapLab on one origin, a course page framing `?embed=explore` on another. */
async function course(t, { isolatedHost }) {
  const heaplab = await startStatic({ headers: ISOLATION_HEADERS });
  const src = `${heaplab.url}?embed=explore&method=BST.insert&k=2#example=bst.hl`;
  const html = `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,">
    <title>Data structures, week 3</title></head><body style="font-family:sans-serif;margin:16px">
    <h1 style="font-size:20px">Week 3: binary search trees</h1>
    <iframe id="heaplab" src="${src}" title="HeapLab" width="100%" height="700" allow="cross-origin-isolated"
      style="border:1px solid #ccc;border-radius:6px"></iframe></body></html>`;
  const host = await startStatic({ headers: isolatedHost ? ISOLATION_HEADERS : {}, pages: { '/week3.html': html } });
  const browser = await launch({ viewport: { width: 1280, height: 820 } });
  t.after(async () => {
    await browser.close();
    await host.stop();
    await heaplab.stop();
  });
  const { page } = browser;
  await page.goto(`${host.url}week3.html`);
  const frame = page.frameLocator('#heaplab');
  await frame.getByText('Engine ready', { exact: true }).waitFor({ timeout: 30000 });
  const inner = page.frames().find((f) => f.url().startsWith(heaplab.url));
  await inner.waitForFunction(() => globalThis.__heaplab.store.getState().methods.length > 0);
  return { page, frame, inner, browser, heaplab };
}

/** Picks `strategy`, presses Run and waits for the exploration to end (done or error). */
async function explore(frame, inner, strategy) {
  await frame.getByRole('combobox', { name: 'Strategy' }).selectOption(strategy);
  await frame.getByRole('button', { name: 'Run', exact: true }).click();
  await inner.waitForFunction(() => ['done', 'error'].includes(globalThis.__heaplab.store.getState().explore.status),
    null, { timeout: 180000 });
  return inner.evaluate(() => {
    const ex = globalThis.__heaplab.store.getState().explore;
    return { status: ex.status, kind: ex.errorKind, error: ex.error, tests: ex.tests.length, nodes: ex.tree.nodes.length };
  });
}

/** The Z3 wasm downloads the frame's engine worker made (Resource Timing). */
async function z3Downloads(inner) {
  const resources = await inner.evaluate(async () => {
    const { engine } = globalThis.__heaplab;
    const z3 = engine.z3Started ? await engine.request('z3Resources') : [];
    return [...await engine.request('resources'), ...z3];
  });
  return resources.filter((r) => /z3-built/.test(r.name));
}

test('an embed in a page without cross-origin isolation explores with HeapLab\'s own solver and gets the CLI counts', async (t) => {
  const { page, frame, inner } = await course(t, { isolatedHost: false });
  assert.equal(await inner.evaluate(() => crossOriginIsolated), false, 'the frame of a plain page is not isolated');
  // One compact tab: no tab strip, no examples menu; the Explore controls are there.
  assert.equal(await frame.getByRole('tab').count(), 0);
  await frame.getByRole('combobox', { name: 'Method' }).waitFor();
  await frame.getByText(/Z3 unavailable here/).waitFor();

  for (const strategy of ['lazier#', 'sl']) {
    const result = await explore(frame, inner, strategy);
    // The Rust decision procedure decides every query of the examples: no question falls
    // outside it, so the run ends with the CLI's count (a NoZ3 stop would fail here).
    assert.equal(result.status, 'done', `${strategy}: ${result.kind} ${result.error}`);
    assert.equal(result.tests, await cliTests(strategy), `${strategy}: the CLI's number of tests`);
    const stats = await inner.evaluate(() => globalThis.__heaplab.store.getState().explore.solver);
    assert.equal(stats.z3, false, `${strategy}: explored without Z3`);
    assert.equal(stats.unknownWithoutZ3, 0, `${strategy}: no query left open`);
    assert.ok(stats.decidedInRust > 0, `${strategy}: HeapLab decided the queries`);
    // No "needs Z3" message when nothing needed it; the status line says who answered.
    assert.equal(await frame.getByRole('alert').filter({ hasText: 'only Z3 can answer' }).count(), 0);
    const line = await frame.getByLabel('Solver questions').first().textContent();
    assert.match(line, new RegExp(`^Solver questions: ${stats.decidedInRust} decided by HeapLab, Z3 not used here`));
  }
  // Z3 wasm is never fetched where it cannot run.
  assert.deepEqual(await z3Downloads(inner), []);
  await mkdir(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, 'embed-not-isolated.png') });
});

test('a top-level page without COOP/COEP (no SharedArrayBuffer) explores BST.insert under sl with the CLI count', async (t) => {
  const heaplab = await startStatic();
  // No service worker: it would add the isolation headers and reload.
  const browser = await launch({ serviceWorkers: 'block' });
  t.after(async () => {
    await browser.close();
    await heaplab.stop();
  });
  const { page } = browser;
  await page.goto(`${heaplab.url}?tab=explore&method=BST.insert&k=2#example=bst.hl`);
  await page.getByText('Engine ready', { exact: true }).waitFor({ timeout: 30000 });
  await page.waitForFunction(() => globalThis.__heaplab.store.getState().methods.length > 0);
  assert.equal(await page.evaluate(() => crossOriginIsolated), false);
  assert.equal(await page.evaluate(() => typeof SharedArrayBuffer), 'undefined');
  const result = await explore(page, page, 'sl');
  assert.equal(result.status, 'done', `${result.kind} ${result.error}`);
  assert.equal(result.tests, await cliTests('sl'), "sl: the CLI's number of tests");
  const stats = await page.evaluate(() => globalThis.__heaplab.store.getState().explore.solver);
  assert.deepEqual([stats.z3, stats.unknownWithoutZ3, stats.sentToZ3], [false, 0, 0]);
  assert.deepEqual(await z3Downloads(page), []);
});

test('an embed in a cross-origin isolated page runs Z3 and gets the CLI test counts', async (t) => {
  const { page, frame, inner } = await course(t, { isolatedHost: true });
  assert.equal(await inner.evaluate(() => crossOriginIsolated), true, 'the frame of an isolated page is isolated');
  for (const strategy of ['lazier#', 'sl']) {
    const result = await explore(frame, inner, strategy);
    assert.equal(result.status, 'done', result.error);
    assert.equal(result.tests, await cliTests(strategy), `${strategy}: the CLI's number of tests`);
  }
  // Z3 wasm is fetched only when a question needs it: HeapLab decided every one of these.
  assert.equal(await inner.evaluate(() => globalThis.__heaplab.marks.z3Fetch), undefined);
  assert.deepEqual(await z3Downloads(inner), []);
  // The status line says which solver answered how many questions.
  const line = await frame.getByLabel('Solver questions').first().textContent();
  assert.match(line, /\d+ decided by HeapLab, \d+ by Z3/);
  await mkdir(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, 'embed-isolated.png') });
});

test('the Share menu\'s embed code, pasted into a course page, shows that program in one tab', async (t) => {
  const heaplab = await startStatic({ headers: ISOLATION_HEADERS });
  const browser = await launch({ viewport: { width: 1280, height: 820 } });
  t.after(async () => {
    await browser.close();
    await heaplab.stop();
  });
  const { page } = browser;
  await page.goto(`${heaplab.url}?tab=explore&method=BST.find&strategy=sl#example=bst.hl`);
  await page.getByText('Engine ready', { exact: true }).waitFor({ timeout: 30000 });
  await page.waitForFunction(() => globalThis.__heaplab.store.getState().methods.length > 0);
  await page.getByRole('button', { name: 'Share' }).click();
  await page.getByRole('combobox', { name: 'Tab to embed' }).selectOption('explore');
  await page.getByRole('button', { name: 'Copy embed code' }).click();
  const code = await page.getByRole('textbox', { name: 'Embed code' }).inputValue();
  assert.match(code, /^<iframe src="[^"]+\?embed=explore#p=[A-Za-z0-9_-]+" /);
  assert.match(code, /allow="cross-origin-isolated/);

  const host = await startStatic({ pages: { '/course.html': `<!doctype html><link rel="icon" href="data:,"><title>Course</title>${code}` } });
  t.after(() => host.stop());
  await page.goto(`${host.url}course.html`);
  const frame = page.frameLocator('iframe');
  await frame.getByText('Engine ready', { exact: true }).waitFor({ timeout: 30000 });
  // The engine is ready before the shared program is compiled; the Method list fills after that.
  const inner = page.frames().find((f) => f.url().startsWith(heaplab.url));
  await inner.waitForFunction(() => globalThis.__heaplab.store.getState().methods.length > 0);
  // The embedded tab has the program and the settings it was shared with.
  assert.equal(await frame.getByRole('combobox', { name: 'Method' }).inputValue(), 'BST.find');
  assert.equal(await frame.getByRole('combobox', { name: 'Strategy' }).inputValue(), 'sl');
  assert.equal(await frame.getByRole('tab').count(), 0);
  assert.deepEqual(browser.errors, []);
});
