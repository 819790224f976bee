// A teacher's Java class pasted into the page as it is (issue 29): it is read as Java, `push`
// is explored under `sl` with the current line marked in the Java text, and the JUnit zip the
// page downloads tests that very class: its files compile next to the pasted class with javac
// and pass under `java -ea` (the class's own `assert`s run on every generated input).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ROOT, session, typeProgram, waitForEngine, waitForZ3 } from './helpers.mjs';

const run = promisify(execFile);
const JUNIT = '/usr/share/java/junit-platform-console-standalone.jar';
const CLASS = join(ROOT, 'examples', 'java', 'course', 'LinkedStack.java');

test('a pasted Java class is explored under sl and its JUnit zip passes against the class', async (t) => {
  const { server, page, browser } = await session(t, { viewport: { width: 1500, height: 1000 } });
  const tmp = await mkdtemp(join(tmpdir(), 'heaplab-java-page-'));
  t.after(() => rm(tmp, { recursive: true, force: true }));
  const source = await readFile(CLASS, 'utf8');
  const lines = source.split('\n');
  const pushStart = lines.findIndex((l) => /public void push\(/.test(l)) + 1;
  assert.ok(pushStart > 0, 'the class has push');
  let pushEnd = pushStart;
  while (pushEnd < lines.length && !/^ {4}\}/.test(lines[pushEnd - 1])) pushEnd += 1;

  await page.goto(server.url);
  await waitForEngine(page);
  await waitForZ3(page);
  await typeProgram(page, source);

  // The editor colours it as Java: `public` is a keyword there (HeapLab has no such word).
  await page.waitForFunction(() => [...document.querySelectorAll('.cm-line span')].some((e) => e.textContent === 'public'),
    null, { timeout: 5000 });
  await page.screenshot({ path: process.env.JAVA_SHOT ?? join(tmp, 'java.png') });

  await page.getByRole('tab', { name: 'Explore' }).click();
  const method = page.getByRole('combobox', { name: 'Method' });
  const option = method.locator('option', { hasText: 'push' }).first();
  await option.waitFor({ state: 'attached', timeout: 30000 });
  await method.selectOption(await option.getAttribute('value'));
  await page.getByRole('combobox', { name: 'Strategy' }).selectOption('sl');

  // Step until the current line is inside push, in the Java text: the event's line, and the
  // editor marks that line of the pasted class.
  const step = page.getByRole('button', { name: 'Step', exact: true });
  let current = 0;
  for (let i = 0; i < 200 && !(current > pushStart && current <= pushEnd); i += 1) {
    await step.click();
    await page.waitForFunction(() => ['paused', 'done'].includes(globalThis.__heaplab.store.getState().explore.status));
    const event = await page.evaluate(() => globalThis.__heaplab.store.getState().explore.lastEvent);
    if (event.kind === 'stopped') break;
    current = event.line ?? 0;
  }
  assert.ok(current > pushStart && current <= pushEnd, `current line ${current} is in push (${pushStart}-${pushEnd})`);
  await page.waitForFunction((text) => document.querySelector('.cm-line[data-current-line]')?.textContent === text,
    lines[current - 1], { timeout: 5000 }).catch(() => {});
  assert.equal(await page.locator('.cm-line[data-current-line]').textContent(), lines[current - 1]);

  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await page.waitForFunction(() => globalThis.__heaplab.store.getState().explore.status === 'done', null, { timeout: 120000 });
  const summary = await page.evaluate(() => globalThis.__heaplab.store.getState().explore.summary);
  assert.ok(summary.tests > 0, JSON.stringify(summary));

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download JUnit' }).click()]);
  const zipPath = join(tmp, 'junit.zip');
  await download.saveAs(zipPath);
  const { unzipSync, strFromU8 } = await import(join(ROOT, 'web', 'node_modules', 'fflate', 'esm', 'index.mjs'));
  const entries = unzipSync(new Uint8Array(await readFile(zipPath)));
  const src = join(tmp, 'src');
  const written = [join(src, 'course', 'LinkedStack.java')];
  await mkdir(join(src, 'course'), { recursive: true });
  await writeFile(written[0], source);
  for (const [name, bytes] of Object.entries(entries)) {
    if (!name.endsWith('.java')) continue;
    const p = join(src, name);
    await mkdir(dirname(p), { recursive: true });
    await writeFile(p, strFromU8(bytes));
    written.push(p);
  }
  assert.ok(written.length > 1, `the zip holds test sources: ${Object.keys(entries)}`);
  const out = join(tmp, 'out');
  await run('javac', ['-nowarn', '-cp', JUNIT, '-d', out, ...written], { maxBuffer: 1 << 24 });
  const res = await run('java', ['-ea', '-jar', JUNIT, '--class-path', out, '--scan-class-path', '--disable-banner', '--details=summary'], { maxBuffer: 1 << 24 }).catch((e) => e);
  const text = `${res.stdout}${res.stderr ?? ''}`;
  const found = Number(/(\d+) tests found/.exec(text)?.[1] ?? 0);
  assert.equal(found, summary.tests, text);
  assert.match(text, /\b0 tests failed/, text);
  assert.deepEqual(browser.errors, []);
});
