// The status line at the bottom: the engine's state, Z3's state with download progress, the
// number of problems in the program, and the cursor-independent facts a student needs.

function mb(bytes) {
  return `${(bytes / 1e6).toFixed(1)} MB`;
}

export function mount(el, store) {
  el.innerHTML = `
    <span class="item" data-engine></span>
    <span class="item z3">
      <span data-z3></span>
      <progress aria-label="Loading Z3" max="1" value="0" hidden></progress>
    </span>
    <span class="item" data-problems></span>
    <span class="item solver" data-solver aria-label="Solver questions"></span>
  `;
  const engine = el.querySelector('[data-engine]');
  const z3 = el.querySelector('[data-z3]');
  const bar = el.querySelector('progress');
  const problems = el.querySelector('[data-problems]');
  const solver = el.querySelector('[data-solver]');

  function render(state) {
    const e = state.engine;
    engine.textContent = e.state === 'ready' ? 'Engine ready' : e.state === 'error' ? 'Engine failed' : 'Engine loading…';
    engine.dataset.state = e.state;

    const s = state.z3;
    z3.dataset.state = s.state;
    bar.hidden = s.state !== 'downloading';
    if (s.state === 'downloading') {
      const frac = s.total > 0 ? Math.min(1, s.loaded / s.total) : 0;
      bar.value = frac;
      z3.textContent = s.total > 0
        ? `Z3 loading ${Math.round(frac * 100)}% (${mb(s.loaded)} of ${mb(s.total)})`
        : `Z3 loading (${mb(s.loaded)})`;
    } else {
      z3.textContent = {
        idle: 'Z3 not loaded',
        starting: 'Z3 starting…',
        ready: 'Z3 ready',
        error: state.isolated ? 'Z3 unavailable' : 'Z3 unavailable here: HeapLab decides alone',
      }[s.state] ?? `Z3 ${s.state}`;
      if (state.z3Waiting && s.state !== 'ready') z3.textContent += ' (an exploration waits for it)';
    }

    const list = state.diagnostics.list;
    const errors = list.filter((d) => d.severity === 'error').length;
    const warnings = list.filter((d) => d.severity === 'warning').length;
    problems.textContent = errors + warnings === 0 ? 'No problems'
      : [errors && `${errors} error${errors === 1 ? '' : 's'}`, warnings && `${warnings} warning${warnings === 1 ? '' : 's'}`]
        .filter(Boolean).join(', ');
    problems.dataset.state = errors > 0 ? 'error' : warnings > 0 ? 'warning' : 'ok';

    // Which solver answered how many of the last exploration's questions.
    const calls = state.explore.summary?.solver_calls;
    solver.hidden = !calls;
    solver.textContent = calls
      ? `Questions: ${calls.decided_locally ?? 0} by HeapLab, ${calls.sent ?? 0} by Z3${calls.cached ? `, ${calls.cached} remembered` : ''}`
      : '';
    solver.title = 'Of the last exploration: questions about path conditions decided by HeapLab itself, sent to Z3, or answered from memory';
  }

  render(store.getState());
  store.subscribe((state, action) => {
    if (['engine/status', 'z3/status', 'z3/waiting', 'diagnostics/set', 'explore/batch', 'explore/done', 'explore/start', 'explore/reset'].includes(action.type)) render(state);
  });
}
