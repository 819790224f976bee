// The Duel tab (Pex4Fun and Code Hunt's game, for heap programs): the student edits a method,
// Check compares it with a reference (hidden when the duel came with a link) on the same
// inputs, and the clues are inputs on which the two differ, each with what differs in words and
// a picture of the input. "No difference" says up to which k and which bounds limited the search.

import { isStale } from '../store.js';
import { drawHeap, heapViewOfTestInput } from '../draw/heapgraph.js';

const BOUND_WORDS = {
  loop: 'the loop bound (a loop ran longer than allowed)',
  call_depth: 'the call depth (calls nested deeper than allowed)',
  max_paths: 'the number of paths',
  states: 'the number of states',
  timeout: 'the time bound',
  memory: 'the memory bound',
  depth: 'the unfolding depth',
  steps: 'a path that ran too long',
};

export function mount(el, store) {
  el.innerHTML = `
    <h2 class="duel-title"></h2>
    <p class="hint duel-how"></p>
    <div class="duel-controls">
      <button type="button" class="primary" data-duel-run><span aria-hidden="true">⚔</span> Check my method</button>
      <label class="duel-k">inputs up to k = <input type="number" min="0" max="6" step="1" data-duel-k aria-label="k: how deep the inputs compared reach"></label>
    </div>
    <p class="duel-status" role="status" aria-live="polite"></p>
    <p class="stale-note" data-stale-note hidden>The program changed since this check: check again to update it.</p>
    <ol class="duel-clues" aria-label="Clues: inputs on which your method and the reference differ"></ol>
  `;
  const title = el.querySelector('.duel-title');
  const how = el.querySelector('.duel-how');
  const runButton = el.querySelector('[data-duel-run]');
  const kInput = el.querySelector('[data-duel-k]');
  const status = el.querySelector('.duel-status');
  const staleNote = el.querySelector('[data-stale-note]');
  const list = el.querySelector('.duel-clues');

  runButton.addEventListener('click', () => store.dispatch({ type: 'run/duel' }));
  kInput.addEventListener('change', () => {
    const k = Number.parseInt(kInput.value, 10);
    if (Number.isInteger(k) && k >= 0 && k <= 6) store.dispatch({ type: 'duel/k', k });
  });

  let shownVerdict = null;
  function render(state) {
    const { duel } = state;
    if (!duel) return;
    const code = (text) => `<code>${escape(text)}</code>`;
    title.innerHTML = duel.hidden
      ? `Duel: make ${code(duel.method)} behave like the hidden reference`
      : `Duel: ${code(duel.method)} against the reference ${code(duel.reference)}`;
    how.textContent = `Check runs your method and the reference on the same inputs: every input that satisfies the ` +
      `precondition, with chains of references up to k = ${duel.k}. A clue is an input on which they differ.`;
    if (document.activeElement !== kInput) kInput.value = String(duel.k);
    runButton.disabled = state.engine.state !== 'ready' || duel.status === 'running';
    runButton.setAttribute('aria-busy', String(duel.status === 'running'));
    const stale = duel.status === 'done' && isStale(state, duel);
    staleNote.hidden = !stale;
    el.classList.toggle('stale', stale);
    status.dataset.outcome = duel.status === 'done' ? (duel.verdict.differ ? 'differ' : 'same') : '';
    status.textContent = statusText(duel);
    if (duel.verdict !== shownVerdict) {
      shownVerdict = duel.verdict;
      renderClues(duel.verdict);
    }
  }

  function renderClues(verdict) {
    list.innerHTML = '';
    for (const [i, clue] of (verdict?.clues ?? []).entries()) {
      const item = document.createElement('li');
      item.className = 'duel-clue';
      item.innerHTML = `
        <h3>Clue ${i + 1}</h3>
        <dl>
          <dt>Input</dt><dd class="duel-input">${clue.inputText.map((l) => `<code>${escape(l)}</code>`).join('<br>')}</dd>
          <dt>Yours</dt><dd>${escape(clue.student)}</dd>
          <dt>Reference</dt><dd>${escape(clue.reference)}</dd>
          <dt>What differs</dt><dd><ul>${clue.differences.map((d) => `<li>${escape(d)}</li>`).join('')}</ul></dd>
        </dl>
        <figure class="duel-picture"><div class="duel-heap" role="img" aria-label="${escape(`Clue ${i + 1} input: ${clue.inputText.join('; ')}`)}"></div>
          <figcaption>The input of clue ${i + 1}</figcaption></figure>`;
      list.append(item);
      try {
        const params = clue.roots.filter((r) => r !== 'this');
        drawHeap(item.querySelector('.duel-heap'), heapViewOfTestInput({ ...clue.test, params }), { compact: true });
      } catch (err) {
        item.querySelector('.duel-heap').textContent = `(no picture: ${err.message})`;
      }
    }
  }

  render(store.getState());
  store.subscribe((state, action) => {
    if (/^(duel\/|engine\/|source\/changed|settings\/set)/.test(action.type)) render(state);
  });
}

/** The verdict in words: clues found, or no difference up to k and what limited the search. */
export function statusText(duel) {
  switch (duel.status) {
    case 'idle':
      return 'Not checked yet.';
    case 'running': {
      const p = duel.progress;
      return p ? `Comparing… ${p.agree + p.differ + p.referenceFails} paths so far.` : 'Comparing…';
    }
    case 'error':
      return duel.errorKind === 'NoZ3'
        ? `${duel.error} Open it in HeapLab to check with Z3.`
        : `The duel could not run: ${duel.error}`;
    default:
      break;
  }
  const v = duel.verdict;
  if (v.differ) {
    const n = v.clues.length;
    return `They differ: ${n} clue${n === 1 ? '' : 's'} below. Change your method and check again.`;
  }
  const limits = [];
  if (v.kCut) limits.push(`k = ${duel.k}: inputs with longer chains of references were not tried`);
  for (const b of v.boundsHit) if (b !== 'k') limits.push(BOUND_WORDS[b] ?? b);
  let text = `No difference up to k = ${duel.k}: ${v.agreeingPaths} paths compared, on every input of each.`;
  if (limits.length) text += ` Limited by ${limits.join('; ')}.`;
  if (v.referenceFailures > 0) {
    text += ` The reference itself fails on ${v.referenceFailures} path${v.referenceFailures === 1 ? '' : 's'}; there the two were compared on one input each.`;
  }
  if (v.unconfirmed.length) text += ` (${v.unconfirmed.length} path(s) disagreed between the engine and the interpreter: a HeapLab bug.)`;
  return text;
}

function escape(text) {
  return String(text).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
}
