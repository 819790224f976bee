// The Logic panel: satisfiability and enumeration of a separation-logic formula over the
// program's classes and predicates (heaplab-logic in wasm), like `heaplab sat` on the command line.

const PRED = /\bpred\s+([A-Za-z_]\w*)\s*\(([^)]*)\)/g;

/** The program's predicates as ready-made formulas: `pred bst(Node t, int lo, int hi)` -> `bst(t, lo, hi)`. */
function predicateFormulas(source) {
  const out = [];
  for (const [, name, params] of source.matchAll(PRED)) {
    const args = params.split(',').map((p) => p.trim().split(/\s+/).pop()).filter(Boolean);
    out.push(`${name}(${args.join(', ')})`);
  }
  return out;
}

export function mount(el, store) {
  const { settings } = store.getState();
  el.innerHTML = `
    <div class="panel-head"><h2>Logic</h2></div>
    <p class="hint">Is a formula satisfiable, and what do its heaps look like? Free variables are
      existential; <code>*</code> separates heap parts, <code>&amp;</code> adds pure facts.</p>
    <form class="logic-form">
      <label for="formula">Formula</label>
      <input id="formula" name="formula" type="text" spellcheck="false" autocomplete="off"
        placeholder="exists int lo, int hi. bst(t, lo, hi) &amp; t != null">
      <div class="picks" aria-label="Predicates of the program" role="group"></div>
      <div class="row">
        <label for="max-objects">Max objects</label>
        <input id="max-objects" name="maxObjects" type="number" min="0" max="8" step="1">
        <button type="submit" data-mode="sat">Check satisfiability</button>
        <button type="submit" data-mode="enumerate">Enumerate models</button>
      </div>
    </form>
    <div class="logic-output" role="status" aria-live="polite"></div>
  `;
  const form = el.querySelector('form');
  const formula = el.querySelector('#formula');
  const maxObjects = el.querySelector('#max-objects');
  const picks = el.querySelector('.picks');
  const output = el.querySelector('.logic-output');
  formula.value = settings.formula;
  maxObjects.value = settings.maxObjects;

  const saveSettings = () => store.dispatch({
    type: 'settings/set',
    settings: { formula: formula.value, maxObjects: Number(maxObjects.value) || 0 },
  });
  formula.addEventListener('change', saveSettings);
  maxObjects.addEventListener('change', saveSettings);
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    saveSettings();
    const enumerate = e.submitter?.dataset.mode === 'enumerate';
    store.dispatch({ type: 'run/logic', enumerate });
  });
  picks.addEventListener('click', (e) => {
    const pick = e.target.closest('button');
    if (!pick) return;
    formula.value = pick.textContent;
    saveSettings();
    formula.focus();
  });

  let lastPicks = '';
  function renderPicks(source) {
    const list = predicateFormulas(source);
    const key = list.join('\n');
    if (key === lastPicks) return;
    lastPicks = key;
    picks.innerHTML = '';
    for (const f of list) {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'chip';
      b.textContent = f;
      b.title = 'Use this predicate as the formula';
      picks.append(b);
    }
  }

  function pre(text) {
    const p = document.createElement('pre');
    p.textContent = text;
    return p;
  }

  function renderResult({ logic }) {
    output.innerHTML = '';
    if (logic.status === 'running') output.textContent = 'Searching…';
    if (logic.status === 'error') {
      // A pre: caret diagnostics point at a column of the line above them.
      output.append(Object.assign(document.createElement('pre'), { className: 'error logic-error', textContent: logic.error }));
    }
    const r = logic.result;
    if (logic.status !== 'done' || !r) return;
    const head = document.createElement('p');
    head.className = 'verdict-line';
    if (r.kind === 'enumerate') {
      head.textContent = `${r.count} model${r.count === 1 ? '' : 's'} with at most ${r.maxObjects} object${r.maxObjects === 1 ? '' : 's'}` +
        (r.complete ? '' : ' (incomplete: a work limit was reached or some arithmetic was undecided)');
      output.append(head);
      r.models.slice(0, 50).forEach((m, i) => output.append(pre(`model ${i + 1}:\n${m}`)));
      if (r.models.length > 50) output.append(pre(`… and ${r.models.length - 50} more`));
    } else {
      head.textContent = r.reason ? `${r.result}: ${r.reason}` : r.result;
      head.dataset.result = r.result;
      output.append(head);
      if (r.model) output.append(pre(r.model));
    }
    for (const d of r.diagnostics ?? []) output.append(pre(d));
    const how = document.createElement('p');
    how.className = 'hint';
    how.textContent = r.solver === 'z3'
      ? `Pure facts: HeapLab's own procedure${r.queries ? `, and Z3 for ${r.queries} question${r.queries === 1 ? '' : 's'}` : ' (Z3 was not needed)'}.`
      : 'Pure facts: HeapLab\'s own procedure only (Z3 is not available yet), so some answers may be unknown.';
    if (r.note) how.textContent += ` ${r.note}`;
    output.append(how);
  }

  renderPicks(store.getState().source);
  store.subscribe((state, action) => {
    if (action.type === 'source/changed') renderPicks(state.source);
    if (action.type.startsWith('logic/')) renderResult(state);
    if (action.type === 'editor/replace' || action.type === 'settings/restore') {
      formula.value = state.settings.formula;
      maxObjects.value = state.settings.maxObjects;
    }
  });
}
