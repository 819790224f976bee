// The Explore tab driven as a person drives it, for the bench (browser-suite.mjs): open an
// example, pick the method, strategy and k, press Run, and measure what the page itself costs
// while the run goes: the main thread's long tasks (a PerformanceObserver for `longtask`, the
// browser's own list of tasks over 50 ms), the time from Run to the last batch drawn, how soon
// Pause and Cancel are acknowledged (from the click event in the page to the store's reaction, and
// to the run's stop), the DOM size and the tab's memory afterwards (`performance.measureUserAgentSpecificMemory`,
// the page and its workers). Prints nothing; returns numbers.

/** Opens `file` in the Explore tab with `method`, `strategy` and `k` chosen. */
export async function openExplore(page, url, { file, method, strategy, k }) {
  await page.goto(`${url}#example=${file}`, { waitUntil: 'domcontentloaded' });
  await page.getByText('Engine ready', { exact: true }).waitFor({ timeout: 60000 });
  await page.getByRole('tab', { name: 'Explore' }).click();
  const select = page.getByRole('combobox', { name: 'Method' });
  await select.locator('option', { hasText: method }).first().waitFor({ state: 'attached' });
  await select.selectOption(method);
  await page.getByRole('combobox', { name: 'Strategy' }).selectOption(strategy);
  await page.getByRole('spinbutton', { name: 'Bound k' }).fill(String(k));
  await page.getByRole('spinbutton', { name: 'Bound k' }).press('Tab');
  // Long tasks from here on, in the page's own list.
  await page.evaluate(() => {
    const tasks = [];
    globalThis.__benchLongTasks = tasks;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) tasks.push({ start: e.startTime, ms: e.duration });
    }).observe({ type: 'longtask' });
  });
}

const status = (page) => page.evaluate(() => globalThis.__heaplab.store.getState().explore.status);

/** Presses Run and waits until the run is over and drawn; the long tasks meanwhile. */
export async function runToEnd(page) {
  const started = await page.evaluate(() => performance.now());
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await page.waitForFunction(() => globalThis.__heaplab.store.getState().explore.status === 'done', null,
    { timeout: 600000, polling: 100 });
  // Two frames: the last batch is drawn.
  const ended = await page.evaluate(() => new Promise((resolve) =>
    requestAnimationFrame(() => requestAnimationFrame(() => resolve(performance.now())))));
  await page.waitForTimeout(300);
  const tasks = await page.evaluate(() => globalThis.__benchLongTasks.splice(0));
  const ex = await page.evaluate(() => {
    const e = globalThis.__heaplab.store.getState().explore;
    return { nodes: e.tree.nodes.length, tests: e.tests.length, states: e.summary?.states };
  });
  return { ms: ended - started, tasks, ...ex, dom: await page.evaluate(() => document.querySelectorAll('*').length) };
}

/**
 * Presses Run, then after `afterMs` presses `button` (Pause or Cancel) and returns how long the
 * page took to show it took effect: the store leaves `running` (Pause: `paused`; Cancel: `done`
 * with the partial tests).
 */
export async function acknowledge(page, button, afterMs = 1500) {
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await page.waitForFunction(() => globalThis.__heaplab.store.getState().explore.status === 'running');
  await page.waitForTimeout(afterMs);
  if ((await status(page)) !== 'running') return { ms: null, note: 'the run ended before the press' };
  // Timed from the press as the page receives it (the button's click event), not from the
  // driver's call, whose own checks take 50-70 ms; the page's reactions are stamped by a store
  // listener: Cancel shows "stopping" at once and is done once the tests of the paths found so
  // far are generated, Pause is done when the engine has stopped between two steps.
  const selector = `#explore-controls button[data-action="explore/${button.toLowerCase()}"]`;
  await page.evaluate((sel) => {
    const marks = { pressed: null, stopping: null, done: null };
    globalThis.__benchAck = marks;
    document.querySelector(sel).addEventListener('click', () => { marks.pressed = performance.now(); },
      { capture: true, once: true });
    const unsubscribe = globalThis.__heaplab.store.subscribe((state) => {
      if (marks.pressed === null) return;
      if (marks.stopping === null && (state.explore.stopping || state.explore.status !== 'running')) marks.stopping = performance.now();
      if (state.explore.status !== 'running') {
        marks.done = performance.now();
        unsubscribe?.();
      }
    });
  }, selector);
  // The run may end between the check above and the press (the button is then disabled).
  const pressed = await page.locator(selector).click({ timeout: 2000 }).then(() => true, () => false);
  if (!pressed) return { ms: null, note: 'the run ended before the press' };
  // A run that ended as the button was pressed changes the store no more: nothing to time.
  await page.waitForFunction(() => globalThis.__benchAck.done !== null
    || globalThis.__heaplab.store.getState().explore.status !== 'running', null, { timeout: 60000, polling: 'raf' });
  const marks = await page.evaluate(() => globalThis.__benchAck);
  if (marks.done === null) return { ms: null, note: 'the run ended as the button was pressed' };
  return { ms: marks.stopping - marks.pressed, doneMs: marks.done - marks.pressed, status: await status(page) };
}

/** The tab's memory (the page and its workers), in bytes; null where the browser cannot say. */
export async function tabMemory(page) {
  return page.evaluate(async () => {
    if (typeof performance.measureUserAgentSpecificMemory !== 'function') return null;
    const m = await performance.measureUserAgentSpecificMemory();
    return m.bytes;
  });
}
