// Stepping tied to the source (#18 item 2): every event carries the line of the instruction its
// state was at, the editor's current line follows it, and the heap view draws the locals of
// every frame. Oracles: the source text (the highlighted line must be the event's line of the
// program) and the program's own names (`t` is a local of BST.insertAt).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { session, waitForEngine } from './helpers.mjs';

const WIDE = { viewport: { width: 1500, height: 1000 } };

test('stepping BST.insert: the highlighted line follows each event, and the heap view shows the local t', async (t) => {
  const { page, server, browser } = await session(t, WIDE);
  await page.goto(`${server.url}?tab=explore&method=BST.insert&strategy=lazier%23&k=2#example=bst.hl`);
  await waitForEngine(page);
  await page.waitForFunction(() => globalThis.__heaplab.store.getState().methods.length > 0);
  const lines = (await page.evaluate(() => globalThis.__heaplab.store.getState().source)).split('\n');
  const insertAt = lines.findIndex((l) => /Node insertAt\(int x, Node t\)/.test(l)) + 1;
  const bodyEnd = lines.findIndex((l, i) => i >= insertAt && /^ {2}\}/.test(l)) + 1;
  assert.ok(insertAt > 0 && bodyEnd > insertAt, 'the example has insertAt');

  const step = page.getByRole('button', { name: 'Step', exact: true });
  const kinds = new Set();
  let inInsertAt = 0;
  let sawLocal = false;
  for (let i = 0; i < 400 && !(sawLocal && kinds.size >= 4 && inInsertAt >= 3); i += 1) {
    await step.click();
    await page.waitForFunction(() => ['paused', 'done'].includes(globalThis.__heaplab.store.getState().explore.status));
    const event = await page.evaluate(() => globalThis.__heaplab.store.getState().explore.lastEvent);
    if (event.kind === 'stopped') break;
    // Every event of a state has a line now: solver questions and choices too.
    assert.ok(Number.isInteger(event.line) && event.line >= 1 && event.line <= lines.length,
      `${event.kind} has a line: ${JSON.stringify(event)}`);
    kinds.add(event.kind);
    // The editor's highlighted line is the event's line.
    const shown = page.locator('.cm-line[data-current-line]');
    await page.waitForFunction((text) => document.querySelector('.cm-line[data-current-line]')?.textContent === text,
      lines[event.line - 1], { timeout: 5000 }).catch(() => {});
    assert.equal(await shown.textContent(), lines[event.line - 1], `${event.kind} at line ${event.line}`);
    assert.match(await page.getByLabel('Last event').textContent(), new RegExp(`^line ${event.line}: `));
    if (event.line > insertAt && event.line < bodyEnd) {
      inInsertAt += 1;
      // Inside insertAt: the view of the event's state (fetched for the selected node) has
      // insertAt on top of its call stack, and its parameter t is drawn like the inputs are.
      await page.waitForFunction(() => {
        const ex = globalThis.__heaplab.store.getState().explore;
        return ex.view && ex.viewNode === ex.selected;
      }, null, { timeout: 10000 });
      const frames = await page.evaluate(() => globalThis.__heaplab.store.getState().explore.view.frames ?? []);
      const top = frames[frames.length - 1];
      assert.equal(top?.unit, 'BST.insertAt', `${JSON.stringify(event)} ${JSON.stringify(frames)}`);
      assert.ok(top.locals.some((l) => l.name === 't'), JSON.stringify(top));
      await page.locator('.heap-graph [data-root="t"][data-frame="BST.insertAt"]').first().waitFor({ timeout: 10000 });
      sawLocal = true;
    }
    if ((await page.evaluate(() => globalThis.__heaplab.store.getState().explore.status)) === 'done') break;
  }
  assert.ok(sawLocal, 'stepping reached insertAt and its local t was drawn');
  assert.ok(inInsertAt >= 3, `several events inside insertAt (${inInsertAt})`);
  assert.ok(kinds.has('solverQuery') && kinds.has('lazyInit'), [...kinds].join(', '));
  assert.deepEqual(browser.errors, []);
});


/** The Explore tab on BST.insert under lazier# at k = 2, its methods listed. */
async function exploreBstInsert(t) {
  const { page, server } = await session(t, WIDE);
  await page.goto(`${server.url}?tab=explore&method=BST.insert&strategy=lazier%23&k=2#example=bst.hl`);
  await waitForEngine(page);
  await page.waitForFunction(() => globalThis.__heaplab.store.getState().methods.length > 0);
  return page;
}

test('keys S, O and R step, step over and run the exploration; typed in the editor they are text', async (t) => {
  const page = await exploreBstInsert(t);
  const state = () => page.evaluate(() => {
    const ex = globalThis.__heaplab.store.getState().explore;
    return { status: ex.status, events: ex.events ?? null, last: ex.lastEvent };
  });
  const source = () => page.evaluate(() => globalThis.__heaplab.store.getState().source);
  const before = await source();

  // In the editor, `s` is a letter of the program, not a step.
  await page.locator('.cm-content').click();
  await page.keyboard.press('End');
  await page.keyboard.type('s');
  await page.waitForFunction((b) => globalThis.__heaplab.store.getState().source !== b, before);
  assert.equal((await state()).status, 'idle', 'typing in the editor does not explore');
  await page.keyboard.press('Backspace');
  await page.waitForFunction((b) => globalThis.__heaplab.store.getState().source === b, before);

  // Outside a text field the keys press the buttons.
  await page.getByLabel('Last event').click();
  await page.keyboard.press('s');
  await page.waitForFunction(() => globalThis.__heaplab.store.getState().explore.status === 'paused');
  const first = (await state()).last;
  assert.ok(first, 'S took one step');
  await page.keyboard.press('o');
  await page.waitForFunction((f) => {
    const ex = globalThis.__heaplab.store.getState().explore;
    return ex.status === 'paused' && JSON.stringify(ex.lastEvent) !== f;
  }, JSON.stringify(first));
  await page.keyboard.press('r');
  await page.waitForFunction(() => globalThis.__heaplab.store.getState().explore.status === 'done', null, { timeout: 60000 });
  const tests = await page.evaluate(() => globalThis.__heaplab.store.getState().explore.tests?.length ?? null);
  assert.equal(tests, 21, 'R ran to the end: BST.insert under lazier# at k = 2 has 21 tests, as heaplab run');
});

test('Step back returns to the state before the last step: the same last event, tree and current line', async (t) => {
  const page = await exploreBstInsert(t);
  const snapshot = () => page.evaluate(() => {
    const ex = globalThis.__heaplab.store.getState().explore;
    return {
      last: JSON.stringify(ex.lastEvent),
      nodes: Object.keys(ex.tree?.nodes ?? {}).length,
      steps: ex.stepsTaken,
      line: document.querySelector('.cm-line[data-current-line]')?.textContent ?? null,
    };
  });
  const settled = (steps) => page.waitForFunction((n) => {
    const ex = globalThis.__heaplab.store.getState().explore;
    return ex.status === 'paused' && ex.stepsTaken === n;
  }, steps);
  const back = page.getByRole('button', { name: 'Step back', exact: true });
  assert.equal(await back.isDisabled(), true, 'nothing to go back to before a step');

  const shots = [];
  const stepButton = page.getByRole('button', { name: 'Step', exact: true });
  const overButton = page.getByRole('button', { name: 'Step over', exact: true });
  // A mix of steps and steps over, so the replay must repeat each kind.
  for (const [i, button] of [stepButton, overButton, stepButton, overButton, stepButton].entries()) {
    await button.click();
    await settled(i + 1);
    await page.waitForTimeout(100);
    shots.push(await snapshot());
  }
  assert.ok(shots[4].nodes > shots[0].nodes, 'the tree grew while stepping');
  assert.notEqual(shots[4].last, shots[3].last, 'the last step did something to go back from');

  await back.click();
  await settled(4);
  await page.waitForTimeout(200);
  const after = await snapshot();
  assert.equal(after.last, shots[3].last, 'the last event is the one before the last step');
  assert.equal(after.nodes, shots[3].nodes, 'the tree is the one before the last step');
  assert.equal(after.line, shots[3].line, 'the current line is the one before the last step');

  // Key B steps back once more; stepping forward again repeats the same events.
  await page.getByLabel('Last event').click();
  await page.keyboard.press('b');
  await settled(3);
  assert.equal((await snapshot()).last, shots[2].last);
  await overButton.click();
  await settled(4);
  assert.equal((await snapshot()).last, shots[3].last, 'the same step again gives the same event');
});

test('the timeline slides back to an earlier step and forward again to a later one', async (t) => {
  const page = await exploreBstInsert(t);
  const timeline = page.getByLabel('Timeline of steps');
  assert.equal(await timeline.isVisible(), false, 'no timeline before a step');
  const last = () => page.evaluate(() => JSON.stringify(globalThis.__heaplab.store.getState().explore.lastEvent));
  const at = (n, of) => page.waitForFunction(([a, b]) => {
    const ex = globalThis.__heaplab.store.getState().explore;
    return ex.status === 'paused' && ex.stepsTaken === a && ex.stepsRecorded === b;
  }, [n, of]);
  const seen = [];
  for (let i = 1; i <= 6; i += 1) {
    await page.getByRole('button', { name: 'Step', exact: true }).click();
    await at(i, i);
    seen.push(await last());
  }
  assert.equal(await timeline.isVisible(), true);
  assert.equal(await timeline.getAttribute('max'), '6');

  // Slide back to step 2: the state after the second step, with 6 still recorded.
  await timeline.fill('2');
  await at(2, 6);
  assert.equal(await last(), seen[1], 'step 2 of the timeline is the second step');
  assert.equal(await page.locator('[data-timeline-text]').textContent(), '2 of 6');
  // Forward again to step 5, without a new start.
  await timeline.fill('5');
  await at(5, 6);
  assert.equal(await last(), seen[4], 'step 5 of the timeline is the fifth step');
  // A different step from step 5 replaces the recorded future.
  await page.getByRole('button', { name: 'Step over', exact: true }).click();
  await at(6, 6);
});

test('ten steps forward, five back, then the slider: line, locals and heap match the forward run at each event', async (t) => {
  const page = await exploreBstInsert(t);
  // The selected state's view once fetched: its frames (locals), objects and path condition.
  const look = async (steps) => {
    await page.waitForFunction((n) => {
      const ex = globalThis.__heaplab.store.getState().explore;
      return ex.status === 'paused' && ex.stepsTaken === n && ex.view && ex.viewNode === ex.selected;
    }, steps, { timeout: 30000 });
    return page.evaluate(() => {
      const ex = globalThis.__heaplab.store.getState().explore;
      const { frames, roots, objects, pathCondition } = ex.view;
      return JSON.stringify({
        event: ex.lastEvent, node: ex.selected, frames, roots, objects, pathCondition,
        line: document.querySelector('.cm-line[data-current-line]')?.textContent ?? null,
      });
    });
  };
  const forward = [];
  for (let i = 1; i <= 10; i += 1) {
    await page.getByRole('button', { name: 'Step', exact: true }).click();
    forward.push(await look(i));
  }
  assert.equal(new Set(forward).size, forward.length, 'each of the ten steps changed what is shown');
  for (let i = 9; i >= 5; i -= 1) {
    await page.getByRole('button', { name: 'Step back', exact: true }).click();
    assert.equal(await look(i), forward[i - 1], `back at step ${i}: as the forward run showed it`);
  }
  for (const n of [8, 2, 10]) {
    await page.getByLabel('Timeline of steps').fill(String(n));
    assert.equal(await look(n), forward[n - 1], `the slider at step ${n}: as the forward run showed it`);
  }
});
