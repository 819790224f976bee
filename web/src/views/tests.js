// The Tests panel: the result of running the program's `test` blocks in the wasm interpreter,
// one row per test (name, passed or failed, message). Clicking a name moves the editor there.
// Results computed from an older version of the program are marked stale.

import { isStale } from '../store.js';

/** The interpreter's messages in plain words (no names of the engine's internals). */
export function plainMessage(text) {
  return String(text ?? '')
    .replace(/\s*\(Limits::steps\)/g, ' (the program ran too long; it may loop forever)')
    .replace(/\s*\(Limits::call_depth\)/g, ' (calls nested too deeply; the recursion may never end)')
    .replace(/\s*\(Limits::\w+\)/g, '');
}

export function mount(el, store) {
  el.innerHTML = `
    <p class="summary" role="status" aria-live="polite"></p>
    <p class="stale-note" data-stale-note hidden>The program changed since these results: run the tests again to update them.</p>
    <p class="hint">Runs every <code>test</code> block of the program in the interpreter.
      Press <kbd>Ctrl</kbd>+<kbd>Enter</kbd> in the editor, or use Run tests.</p>
    <table class="results" aria-label="Test results" hidden>
      <thead><tr><th scope="col">Test</th><th scope="col">Result</th><th scope="col">Message</th></tr></thead>
      <tbody></tbody>
    </table>
  `;
  const summary = el.querySelector('.summary');
  const staleNote = el.querySelector('[data-stale-note]');
  const table = el.querySelector('table');
  const body = el.querySelector('tbody');

  body.addEventListener('click', (e) => {
    const link = e.target.closest('[data-line]');
    if (link) store.dispatch({ type: 'editor/goto', line: Number(link.dataset.line) });
  });

  function render(state) {
    const { tests, diagnostics } = state;
    const stale = tests.status !== 'running' && tests.status !== 'idle' && isStale(state, tests);
    staleNote.hidden = !stale;
    el.classList.toggle('stale', stale);
    const errors = diagnostics.list.filter((d) => d.severity === 'error').length;
    if (tests.status === 'idle') {
      summary.textContent = 'Not run yet.';
    } else if (tests.status === 'running') {
      summary.textContent = 'Running…';
    } else if (tests.status === 'error') {
      summary.textContent = tests.error;
    } else {
      const passed = tests.results.filter((r) => r.passed).length;
      const failed = tests.results.length - passed;
      summary.textContent = tests.results.length === 0
        ? (errors > 0 ? `The program has ${errors} error${errors === 1 ? '' : 's'}; fix them to run the tests.` : 'The program has no tests.')
        : `${passed} passed, ${failed} failed (${tests.ms} ms)`;
      summary.dataset.outcome = failed > 0 ? 'fail' : 'pass';
    }
    if (tests.status !== 'done') delete summary.dataset.outcome;
    table.hidden = tests.results.length === 0;
    body.innerHTML = '';
    for (const r of tests.results) {
      const row = document.createElement('tr');
      row.className = r.passed ? 'pass' : 'fail';
      const name = document.createElement('td');
      const link = document.createElement('button');
      link.type = 'button';
      link.className = 'link';
      link.dataset.line = r.line;
      // Long snake_case names may wrap after an underscore rather than mid-word.
      r.name.split('_').forEach((part, i, parts) => {
        link.append(part + (i < parts.length - 1 ? '_' : ''));
        if (i < parts.length - 1) link.append(document.createElement('wbr'));
      });
      link.title = `Go to line ${r.line}`;
      name.append(link);
      const result = document.createElement('td');
      result.className = 'verdict';
      result.textContent = r.passed ? '✓ passed' : '✗ failed';
      const message = document.createElement('td');
      message.textContent = plainMessage(r.message);
      row.append(name, result, message);
      body.append(row);
    }
  }

  render(store.getState());
  store.subscribe((state, action) => {
    if (action.type.startsWith('tests/') || action.type === 'diagnostics/set' || action.type === 'source/changed') render(state);
  });
}
