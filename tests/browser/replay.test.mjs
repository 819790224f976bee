// Concrete replay of generated tests (#35, Done-when 1: "a test's concrete replay ends in the
// outcome the test expects"). Oracles: the test's own expected outcome (from test generation,
// itself checked by the interpreter's untraced replay) against what the page's traced replay
// shows at its end; the forward run's line and frames against what Step back and the slider show
// at the same position; the source text for the lines.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { session, waitForEngine, waitForZ3 } from './helpers.mjs';

const WIDE = { viewport: { width: 1500, height: 1000 } };

/** Opens `hash` with `query`, runs the exploration to the end; returns the page and its tests. */
async function run(t, query, hash) {
  const { page, server, browser } = await session(t, WIDE);
  await page.goto(`${server.url}?${query}#${hash}`);
  await waitForEngine(page);
  await waitForZ3(page);
  await page.waitForFunction(() => globalThis.__heaplab.store.getState().methods.length > 0);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await page.waitForFunction(() => globalThis.__heaplab.store.getState().explore.status === 'done', null, { timeout: 120000 });
  const tests = await page.evaluate(() => globalThis.__heaplab.store.getState().explore.tests);
  assert.ok(tests.length > 0, 'the exploration generated tests');
  const source = await page.evaluate(() => globalThis.__heaplab.store.getState().source);
  return { page, browser, tests, lines: source.split('\n') };
}

const panelState = (page) => page.evaluate(() => {
  const p = document.querySelector('.replay');
  return {
    position: Number(p.dataset.position),
    line: p.dataset.line,
    done: p.dataset.done === 'true',
    frames: [...p.querySelectorAll('.rp-frame')].map((f) => f.textContent),
  };
});

/** Replays test `name`; checks stepping back and forth and the outcome at the end. */
async function replay(page, tests, name, lines) {
  const expected = tests.find((x) => x.name === name);
  // A card's heap picture is drawn when it scrolls into view, which can move a button below it
  // between the driver's aim and its click (seen on a loaded machine): the click then lands on
  // no button, and the panel keeps the last replay. Such a click is made again.
  for (let attempt = 1; ; attempt += 1) {
    await page.getByRole('button', { name: `Replay test ${name}`, exact: true }).click();
    const taken = await page.waitForFunction((n) => {
      const p = document.querySelector('.replay');
      return Boolean(p) && (p.textContent.startsWith('Replaying') || p.querySelector('.rp-title')?.textContent.includes(`Replay of ${n}`));
    }, name, { timeout: 5000, polling: 'raf' }).then(() => true, () => false);
    if (taken || attempt === 3) break;
  }
  const panel = page.getByRole('region', { name: 'Replay' });
  await panel.locator('.rp-title', { hasText: `Replay of ${name}` }).waitFor({ timeout: 30000 }).catch(async (err) => {
    const shown = await page.evaluate(() => document.querySelector('.replay')?.textContent);
    throw new Error(`${name}: no replay shown (${shown}): ${err.message}`);
  });
  const last = Number(await panel.locator('.rp-slider').getAttribute('max'));
  assert.ok(last >= 1, `${name}: the call ran statements`);
  const step = panel.getByRole('button', { name: 'Step', exact: true });
  const back = panel.getByRole('button', { name: 'Step back', exact: true });
  const forward = [await panelState(page)];
  const n = Math.min(last, 8);
  for (let i = 0; i < n; i += 1) {
    await step.click();
    forward.push(await panelState(page));
  }
  for (const s of forward) {
    if (s.done) continue;
    const line = Number(s.line);
    assert.ok(line >= 1 && line <= lines.length && lines[line - 1].trim() !== '', `${name}: line ${line} is a statement`);
    assert.ok(s.frames.length >= 1, `${name}: the call's frame is shown`);
  }
  for (let i = n - 1; i >= 0; i -= 1) {
    await back.click();
    assert.deepEqual(await panelState(page), forward[i], `${name}: back to ${i}`);
  }
  // Keys: → goes forward like Step.
  await panel.focus();
  await page.keyboard.press('ArrowRight');
  assert.deepEqual(await panelState(page), forward[1], `${name}: → after step back`);
  // The slider to a middle position, then to the end.
  await panel.locator('.rp-slider').fill(String(Math.min(n, 3)));
  assert.deepEqual(await panelState(page), forward[Math.min(n, 3)], `${name}: slider`);
  await panel.locator('.rp-slider').fill(String(last));
  const end = await panelState(page);
  assert.ok(end.done, `${name}: at the end`);
  const outcome = panel.locator('.rp-outcome');
  assert.equal(await outcome.getAttribute('data-outcome'), expected.outcome, `${name}: ${await outcome.textContent()}`);
  assert.equal(await outcome.getAttribute('data-expected'), expected.expected, `${name}: ${await outcome.textContent()}`);
  assert.equal(await outcome.getAttribute('data-matches'), 'true');
  assert.match(await outcome.textContent(), /as expected/);
  // The symbolic history names the choices of the test's path.
  assert.ok(await panel.locator('.rp-choices li').count() >= 1, `${name}: its path's choices are listed`);
  return expected.outcome;
}

/** Replays up to three tests, among them an error and a normal return when there are. */
async function replaySome(page, all, lines) {
  // Among the first cards (the list makes 40 at once, the rest as it is scrolled).
  const tests = all.slice(0, 40);
  const picks = [tests.find((x) => x.outcome === 'error'), tests.find((x) => x.outcome === 'returned'), tests[tests.length - 1]]
    .filter(Boolean);
  const outcomes = new Set();
  for (const name of new Set(picks.map((x) => x.name))) outcomes.add(await replay(page, all, name, lines));
  return outcomes;
}

test('BST.insert under sl and lazy: replays end in the outcome each test expects', async (t) => {
  for (const strategy of ['sl', 'lazy']) {
    const { page, browser, tests, lines } = await run(t, `tab=explore&method=BST.insert&strategy=${strategy}&k=2`, 'example=bst.hl');
    const outcomes = await replaySome(page, tests, lines);
    assert.ok(outcomes.has('returned'), strategy);
    assert.deepEqual(browser.errors, []);
  }
});

test('Stack.topAndPop (.hl, lazy) and its Java twin (sl): an assert failure and a normal return replay as expected', async (t) => {
  const hl = await run(t, 'tab=explore&method=Stack.topAndPop&strategy=lazy&k=2', 'example=stack.hl');
  const outcomes = await replaySome(hl.page, hl.tests, hl.lines);
  assert.deepEqual([...outcomes].sort(), ['error', 'returned']);
  await hl.page.screenshot({ path: process.env.REPLAY_SHOT ?? '/tmp/replay-shot.png' });
  assert.deepEqual(hl.browser.errors, []);

  const java = await run(t, 'tab=explore&method=Stack.topAndPop&strategy=sl&k=2', 'example=java/Stack.java');
  const javaOutcomes = await replaySome(java.page, java.tests, java.lines);
  assert.deepEqual([...javaOutcomes].sort(), ['error', 'returned']);
  // Java lines: the replay's lines are lines of the Java text. The `ensures` `\old(depth(..))`
  // runs `depth` at entry, so the replay visits depth's lines too, each in its own frame.
  const start = java.lines.findIndex((l) => /public int topAndPop\(/.test(l)) + 1;
  const depthAt = java.lines.findIndex((l) => /static int depth\(/.test(l)) + 1;
  const panel = java.page.getByRole('region', { name: 'Replay' });
  const last = Number(await panel.locator('.rp-slider').getAttribute('max'));
  const seen = [];
  for (let i = 0; i < last; i += 1) {
    await panel.locator('.rp-slider').fill(String(i));
    const s = await panelState(java.page);
    seen.push(`${s.line}:${s.frames[s.frames.length - 1]?.split(':')[0]}`);
  }
  assert.ok(seen.includes(`${start + 1}:topAndPop`), `the assert line of topAndPop, in its frame: ${seen}`);
  assert.ok(seen.some((x) => Number(x.split(':')[0]) > depthAt && x.endsWith(':depth')), `depth's lines: ${seen}`);
  assert.deepEqual(java.browser.errors, []);
});
