// The playground in a real browser (Debian's Chromium through playwright-core), served by the
// real `heaplab serve`. Elements are found by role and accessible name, as a student would find
// them. Run with `./build.sh test` (after `./build.sh build`) or `node --test tests/browser/`.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { mkdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, freePort, launch, session, typeProgram, waitForEngine, waitForZ3 } from './helpers.mjs';

const TYPE_ERROR_PROGRAM = `class Node { int key; Node next; }

int size(Node n) {
  return n != null;
}
`;

/**
 * The whole program text. CodeMirror renders only the lines in view, so the text comes from the
 * page's store (the same text the engine checks), not from the DOM.
 */
async function editorText(page) {
  return page.evaluate(() => globalThis.__heaplab.store.getState().source);
}

/** A server, a browser with a fresh profile, and the page opened at `path`. */
async function open(path = '', t) {
  const { server, browser } = await session(t);
  await browser.page.goto(server.url + path);
  await waitForEngine(browser.page);
  return { server, browser, page: browser.page };
}

test('the page loads with no console errors and is cross-origin isolated', async (t) => {
  const { page, browser } = await open('', t);
  assert.equal(await page.title(), 'HeapLab — symbolic execution playground');
  assert.equal(await page.evaluate(() => crossOriginIsolated), true);
  await page.getByRole('button', { name: 'Run tests' }).waitFor();
  assert.ok((await editorText(page)).includes('class'), 'the editor shows a program');
  await waitForEngine(page);
  // Z3 is fetched only when something needs it (issue 32): a first visit downloads none of it.
  await page.waitForTimeout(1000);
  assert.equal(await page.evaluate(() => globalThis.__heaplab.engine.z3Started), false);
  await page.getByText('Z3 not loaded', { exact: true }).waitFor();
  assert.deepEqual(browser.errors, []);
});

test('Z3 wasm becomes ready and answers a real query', async (t) => {
  const { page, browser } = await open('', t);
  await waitForZ3(page);
  await page.getByRole('tab', { name: 'Debug' }).click();
  await page.getByLabel('SMT-LIB query').fill(
    '(declare-const x Int)\n(assert (and (> x 40) (< x 42)))\n(check-sat)\n(get-value (x))',
  );
  await page.getByRole('button', { name: 'Ask Z3' }).click();
  const answer = page.getByRole('status', { name: 'Z3 answer' });
  await answer.filter({ hasText: 'sat' }).waitFor({ timeout: 30000 });
  const text = await answer.innerText();
  assert.match(text, /^sat/m);
  assert.match(text, /\(\(x 41\)\)/, 'Z3 found the only model');
  assert.deepEqual(browser.errors, []);
});

test('an example from the gallery loads, its tests run and pass, and Undo restores', async (t) => {
  const { page, browser } = await open('', t);
  const before = await editorText(page);
  await page.getByRole('button', { name: 'Examples' }).click();
  const item = page.getByRole('menuitem', { name: 'Binary search tree', exact: true });
  assert.match(await item.getAttribute('aria-describedby').then((id) => page.locator(`#${id}`).innerText()), /BST/);
  await item.click();
  await page.getByText('class BST').first().waitFor();
  await page.getByRole('button', { name: 'Run tests' }).click();
  const summary = page.getByRole('tabpanel', { name: 'Tests' }).getByRole('status');
  await summary.filter({ hasText: /passed/ }).waitFor({ timeout: 30000 });
  const counts = /(\d+) passed, (\d+) failed/.exec(await summary.innerText());
  assert.ok(counts, await summary.innerText());
  assert.ok(Number(counts[1]) >= 3, 'bst.hl has several tests');
  assert.equal(counts[2], '0');
  const rows = page.getByRole('table', { name: 'Test results' }).getByRole('row');
  assert.equal(await rows.count(), Number(counts[1]) + 1); // plus the header row
  assert.equal(await page.getByRole('cell', { name: '✗ failed' }).count(), 0);

  // The screenshot in the README: the real page after running an example's tests. Every run
  // writes tests/artifacts/screenshot.png; docs/screenshot.png is written when it is missing or
  // with UPDATE_SCREENSHOT=1, so that running the tests leaves the tree clean.
  await waitForZ3(page);
  await mkdir(join(ROOT, 'tests', 'artifacts'), { recursive: true });
  await page.screenshot({ path: join(ROOT, 'tests', 'artifacts', 'screenshot.png') });
  if (process.env.UPDATE_SCREENSHOT === '1' || !existsSync(join(ROOT, 'docs', 'screenshot.png'))) {
    await mkdir(join(ROOT, 'docs'), { recursive: true });
    await page.screenshot({ path: join(ROOT, 'docs', 'screenshot.png') });
  }

  // Loading the example was one transaction: Undo brings the previous program back.
  await page.getByRole('textbox', { name: 'Program editor' }).click();
  await page.keyboard.press('ControlOrMeta+z');
  assert.equal((await editorText(page)).trim(), before.trim());
  assert.deepEqual(browser.errors, []);
});

test('a type error shows as an inline diagnostic', async (t) => {
  const { page, browser } = await open('', t);
  await typeProgram(page, TYPE_ERROR_PROGRAM);
  const status = page.getByRole('contentinfo', { name: 'Status' });
  await status.getByText('1 error').waitFor({ timeout: 10000 });
  // The underline sits on the offending expression...
  const underline = page.locator('.cm-lintRange-error');
  await underline.first().waitFor();
  assert.match(await underline.first().innerText(), /n != null/);
  // ...and the diagnostics list (Ctrl-Shift-M, CodeMirror's lint panel) says what is wrong.
  await page.getByRole('textbox', { name: 'Program editor' }).click();
  await page.keyboard.press('ControlOrMeta+Shift+KeyM');
  const list = page.getByRole('listbox', { name: 'Diagnostics' });
  await list.waitFor();
  assert.match(await list.innerText(), /bool|int/i);
  // Running the tests says the program must be fixed first.
  await page.getByRole('button', { name: 'Run tests' }).click();
  await page.getByText(/1 error; fix it first/).waitFor();
  assert.deepEqual(browser.errors, []);
});

test('a share link restores the program in a fresh browser', async (t) => {
  const { page, server } = await open('', t);
  const program = `class Cell { int v; }\n\ntest shared_link_works {\n  Cell c = new Cell { v: 7 };\n  assert c.v == 7;\n}\n`;
  await typeProgram(page, program);
  await page.getByRole('button', { name: 'Share' }).click();
  await page.getByRole('button', { name: 'Copy link' }).click();
  const link = page.getByRole('status').getByRole('link', { name: /Link copied|Share link ready/ });
  await link.waitFor();
  const url = await link.getAttribute('href');
  assert.match(url, /#p=[A-Za-z0-9_-]+$/);

  const other = await launch();
  t.after(() => other.close());
  await other.page.goto(url);
  await waitForEngine(other.page);
  assert.equal((await editorText(other.page)).trim(), program.trim());
  await other.page.getByRole('button', { name: 'Run tests' }).click();
  await other.page.getByText('1 passed, 0 failed', { exact: false }).waitFor({ timeout: 30000 });
  assert.deepEqual(other.errors, []);
  assert.ok(server.url);
});

/**
 * Waits until the service worker's Z3 cache holds all of Z3's files. The loop runs in the page and
 * is awaited: page.waitForFunction does not await an async predicate (the Promise it returns is
 * truthy, so such a wait passed at once and the server could stop before the files were kept,
 * which made this file's offline test fail on a slower machine).
 */
async function waitForZ3Cached(page, files = ['z3-worker.js', 'z3-built.js', 'z3-built.wasm']) {
  const missing = await page.evaluate(async (names) => {
    let absent = names;
    for (let round = 0; round < 480 && absent.length > 0; round += 1) {
      if (round > 0) await new Promise((resolve) => setTimeout(resolve, 250));
      const key = (await caches.keys()).find((k) => k.startsWith('heaplab-z3-'));
      if (!key) continue;
      const cache = await caches.open(key);
      const found = await Promise.all(names.map((name) => cache.match(name)));
      absent = names.filter((_, i) => !found[i]);
    }
    return absent;
  }, files);
  assert.deepEqual(missing, [], 'Z3\'s files in the service worker\'s Z3 cache');
}

test('with the server stopped, a reload still works through the service worker', async (t) => {
  const { page, server, browser } = await open('', t);
  await waitForEngine(page);
  // The service worker registers once the engine is up, caches every asset but Z3, then
  // controls the page; Z3, fetched later because something needs it, goes into its own cache.
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 120000 });
  await waitForZ3(page);
  await waitForZ3Cached(page);
  await server.stop();
  await page.reload();
  await waitForEngine(page);
  assert.equal(await page.evaluate(() => crossOriginIsolated), true, 'the worker adds COOP/COEP');
  await page.getByRole('button', { name: 'Run tests' }).click();
  await page.getByText(/\d+ passed, 0 failed/).waitFor({ timeout: 30000 });
  await waitForZ3(page);
  await page.getByRole('button', { name: 'Examples' }).click();
  await page.getByRole('menuitem', { name: 'Stack over a linked list', exact: true }).click();
  await page.getByText('class Stack').first().waitFor();
  assert.deepEqual(browser.errors, []);
});

test('Z3 fetched before the service worker took over is kept for offline use too', async (t) => {
  const { page, server, browser } = await session(t);
  // The service worker's script is held back until Z3 is ready, so that Z3's files come from
  // the network without passing through the worker (a question in a visit's first seconds).
  let release;
  const held = new Promise((resolve) => { release = resolve; });
  let swFetches = 0;
  await browser.context.route('**/sw.js', async (route) => {
    swFetches += 1;
    await held;
    await route.continue();
  });
  await page.goto(server.url);
  await waitForEngine(page);
  await waitForZ3(page);
  assert.ok(swFetches >= 1, 'the page asked for its service worker');
  assert.equal(await page.evaluate(() => navigator.serviceWorker.controller), null);
  release();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 120000 });
  // The page asks the worker to keep Z3 (sw.js keepZ3), from the HTTP cache.
  await waitForZ3Cached(page);
  await server.stop();
  await page.reload();
  await waitForEngine(page);
  assert.equal(await page.evaluate(() => crossOriginIsolated), true, 'the worker adds COOP/COEP');
  // Z3 starts with the server gone and answers a query.
  await waitForZ3(page);
  await page.getByRole('tab', { name: 'Debug' }).click();
  await page.getByLabel('SMT-LIB query').fill('(declare-const x Int)\n(assert (= (* x x) 49))\n(assert (> x 0))\n(check-sat)\n(get-value (x))');
  await page.getByRole('button', { name: 'Ask Z3' }).click();
  const answer = page.getByRole('status', { name: 'Z3 answer' });
  await answer.filter({ hasText: 'sat' }).waitFor({ timeout: 30000 });
  assert.match(await answer.innerText(), /\(x 7\)/);
  assert.deepEqual(browser.errors, []);
});

test('embed mode renders a compact editor with Run and an open-in-HeapLab link', async (t) => {
  const { page, browser, server } = await open('?embed=1#example=stack.hl', t);
  assert.match(await editorText(page), /class Stack/, 'the example named in the link is loaded');
  await page.getByRole('button', { name: 'Run tests' }).click();
  await page.getByText(/\d+ passed, 0 failed/).waitFor({ timeout: 30000 });
  assert.equal(await page.getByRole('tab').count(), 0, 'no tab strip in embed mode');
  assert.equal(await page.getByRole('button', { name: 'Examples' }).count(), 0);
  const openLink = page.getByRole('link', { name: 'Open in HeapLab' });
  await page.waitForFunction(() => document.querySelector('[data-open]')?.href.includes('#p='));
  const href = await openLink.getAttribute('href');
  assert.ok(!href.includes('embed=1'), href);
  assert.deepEqual(browser.errors, []);

  // Inside an iframe on a page that is not cross-origin isolated, Z3 cannot start: the status
  // line says so, and the tests (which never need Z3) still run, without an alarming banner.
  const hostPort = await freePort();
  const host = createServer((req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.end(`<!doctype html><title>Course page</title><h1>Lists</h1>
      <iframe title="HeapLab" src="${server.url}?embed=1" width="900" height="600"></iframe>`);
  });
  await new Promise((resolve) => host.listen(hostPort, '127.0.0.1', resolve));
  t.after(() => new Promise((resolve) => host.close(resolve)));
  await page.goto(`http://127.0.0.1:${hostPort}/`);
  const frame = page.frameLocator('iframe[title="HeapLab"]');
  await frame.getByText('Z3 unavailable here: HeapLab decides alone').waitFor({ timeout: 30000 });
  await frame.getByRole('button', { name: 'Run tests' }).click();
  await frame.getByText(/\d+ passed, 0 failed/).waitFor({ timeout: 30000 });
  await frame.getByRole('link', { name: 'Open in HeapLab' }).waitFor();
});

test('on a static host without COOP/COEP the service worker isolates the page after one reload', async (t) => {
  // A plain static server, like GitHub Pages: right MIME types, no isolation headers.
  const { readFile } = await import('node:fs/promises');
  const { extname, normalize } = await import('node:path');
  const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.wasm': 'application/wasm', '.json': 'application/json' };
  const dist = join(ROOT, 'web', 'dist');
  const port = await freePort();
  const host = createServer(async (req, res) => {
    let path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname));
    if (path.endsWith('/')) path += 'index.html';
    try {
      const body = await readFile(join(dist, path));
      res.writeHead(200, { 'Content-Type': types[extname(path)] ?? 'text/plain' });
      res.end(body);
    } catch {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise((resolve) => host.listen(port, '127.0.0.1', resolve));
  const browser = await launch();
  t.after(async () => {
    await browser.close();
    await new Promise((resolve) => host.close(resolve));
  });
  const { page } = browser;
  await page.goto(`http://127.0.0.1:${port}/`);
  // The first load is not isolated; the page says so, registers the worker and reloads once.
  await page.waitForFunction(() => globalThis.crossOriginIsolated === true && globalThis.__heaplab,
    null, { timeout: 60000 });
  await waitForEngine(page);
  await waitForZ3(page);
  assert.deepEqual(browser.errors, []);
});

test('Cancel stops a long run and a fresh engine takes over', async (t) => {
  const { page, browser } = await open('', t);
  // Each test spins until the interpreter's step limit: long enough to cancel.
  const spin = Array.from({ length: 400 }, (_, i) => `test spin${i} { int n = 0; while (true) { n = n + 1; } }`);
  await typeProgram(page, spin.join('\n'));
  await page.getByRole('contentinfo', { name: 'Status' }).getByText('No problems').waitFor();
  await page.getByRole('button', { name: 'Run tests' }).click();
  const cancel = page.getByRole('button', { name: 'Cancel' });
  await cancel.click({ timeout: 5000 });
  await page.getByText('Cancelled.').waitFor();
  await waitForEngine(page);
  // The fresh worker checks the program again.
  await typeProgram(page, TYPE_ERROR_PROGRAM);
  await page.getByRole('contentinfo', { name: 'Status' }).getByText('1 error').waitFor({ timeout: 10000 });
  assert.deepEqual(browser.errors, []);
});

test('the Logic tab decides and enumerates a predicate of the program', async (t) => {
  const { page, browser } = await open('', t);
  await page.getByRole('button', { name: 'Examples' }).click();
  await page.getByRole('menuitem', { name: 'Binary search tree', exact: true }).click();
  await page.getByRole('tab', { name: 'Logic' }).click();
  const panel = page.getByRole('tabpanel', { name: 'Logic' });
  // The program's predicates are offered as formulas.
  await panel.getByRole('button', { name: 'bst(t, lo, hi)' }).click();
  assert.equal(await panel.getByLabel('Formula').inputValue(), 'bst(t, lo, hi)');
  await panel.getByRole('button', { name: 'Check satisfiability' }).click();
  await panel.getByRole('status').getByText('sat', { exact: true }).waitFor({ timeout: 30000 });
  assert.match(await panel.getByRole('status').innerText(), /store:/);

  await panel.getByLabel('Formula').fill('bst(t, lo, hi) & t != null & lo > hi');
  await panel.getByRole('button', { name: 'Check satisfiability' }).click();
  await panel.getByRole('status').getByText('unsat', { exact: true }).waitFor({ timeout: 30000 });

  await panel.getByLabel('Formula').fill('bst(t, lo, hi)');
  await panel.getByLabel('Max objects').fill('2');
  await panel.getByRole('button', { name: 'Enumerate models' }).click();
  const head = panel.getByText(/\d+ models? with at most 2 objects/);
  await head.waitFor({ timeout: 30000 });
  assert.ok(Number(/(\d+)/.exec(await head.innerText())[1]) >= 3);

  // Arithmetic outside difference logic goes to Z3 wasm once it is ready.
  await waitForZ3(page);
  await panel.getByLabel('Formula').fill('x + y == 10 & x - y == 4');
  await panel.getByRole('button', { name: 'Check satisfiability' }).click();
  await panel.getByText(/and Z3 for \d+ question/).waitFor({ timeout: 30000 });
  assert.match(await panel.getByRole('status').innerText(), /x = 7, y = 3/);
  assert.deepEqual(browser.errors, []);
});

test('when Z3 cannot be downloaded the page says so, keeps working, and offers a retry', async (t) => {
  const { server, browser, page } = await session(t);
  let block = true;
  await page.route('**/z3-built.wasm', (route) => (block ? route.abort('connectionfailed') : route.continue()));
  await page.goto(server.url);
  await waitForEngine(page);
  // Opening the SMT console asks for Z3.
  await page.getByRole('tab', { name: 'Debug' }).click();
  const alert = page.getByRole('alert').filter({ hasText: 'Z3 failed to load' });
  await alert.waitFor({ timeout: 30000 });
  // Tests still run without Z3.
  await page.getByRole('button', { name: 'Run tests' }).click();
  await page.getByText(/\d+ passed, 0 failed/).waitFor({ timeout: 30000 });
  block = false;
  await alert.getByRole('button', { name: 'Try again' }).click();
  await waitForZ3(page);
});

test('the editor completes keywords, declared names and error kinds', async (t) => {
  const { page, browser } = await open('', t);
  await typeProgram(page, 'class Cell { int value; }\n\n');
  await page.keyboard.type('test t expects nu');
  const options = page.getByRole('listbox');
  // Enter accepts the selected option once the list has settled (it is rebuilt as typing goes on).
  await options.getByRole('option', { name: 'null_dereference', selected: true }).waitFor();
  await page.waitForTimeout(150);
  await page.keyboard.press('Enter');
  assert.match(await editorText(page), /expects null_dereference/);
  await page.keyboard.type(' {\n  Ce');
  await options.getByRole('option', { name: 'Cell' }).waitFor();
  assert.deepEqual(browser.errors, []);
});
