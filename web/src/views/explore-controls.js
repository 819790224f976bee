// The Explore panel's controls: which method, which heap strategy, which bounds (the engine's
// defaults shown as placeholders), the Run / Step / Step over / Pause / Cancel buttons, and a
// progress line (paths, tests, solver calls so far; the bound that stopped the run).

import { defaultMethod, isStale, strategyRow } from '../store.js';
import { BOUNDS } from '../vocabulary.js';
import { named, optionWords } from '../words.js';

/** The bounds the page has a control for, from the engine's one bound table. */
const PAGE_BOUNDS = BOUNDS.filter((b) => b.on_page);

/** How `requires` is used, the same choice in Explore and Compare. */
export const PRE_MODES = [
  { value: 'assume', text: 'only inputs that satisfy requires', title: 'Explore only inputs that satisfy the method\'s requires clause' },
  { value: 'ignore', text: 'every input, then check requires', title: 'Explore every input; tests whose input breaks requires are marked “invalid input”' },
];


const STATUS_TEXT = {
  idle: 'Not started.',
  starting: 'Starting…',
  running: 'Exploring…',
  paused: 'Paused.',
  done: 'Done.',
  error: '',
};

const plural = (n, word, many = `${word}s`) => `${n} ${n === 1 ? word : many}`;

/** The last event in words, so that Step shows what the engine just did (and where). */
export function describeEvent(event) {
  if (!event) return '';
  const d = event.details ?? {};
  const at = event.line ? `line ${event.line}: ` : '';
  switch (event.kind) {
    case 'start': return `${at}start ${d.method ?? event.label}`;
    // Past the states whose views the engine keeps, an event carries no formula text.
    case 'slModel': return `${at}the rest of the input is built from a solution of ${d.formula || 'the formula left'}: ${d.model}`;
    case 'lazyInit': {
      const target = named(d.target, event.names);
      // Past those states its options are not written either (the children's labels say them).
      const options = (d.options ?? []).map((o) => optionWords(o, event.names)).join(' | ');
      const which = options ? `: ${options}` : '';
      if (d.fork === 'resolve') return `${at}decide what ${target} is${which}`;
      if (d.fork === 'disjunct') return `${at}${target}${which}`;
      return `${at}read ${target} for the first time${which}`;
    }
    case 'branch': return `${at}branch on ${named(d.condition, event.names)}`;
    case 'disjuncts': {
      const cases = `${at}${(d.children ?? []).length} cases of a formula`;
      return d.formulas?.length ? `${cases}: ${d.formulas.join('  |  ')}` : cases;
    }
    case 'solverQuery': return `${at}ask whether ${d.query} can hold: ${d.answer}${d.local ? ' (decided by HeapLab)' : ' (decided by Z3)'}`;
    case 'pathEnd': return `${at}path ${d.path} ends: ${d.text}`;
    case 'stopped': return `stopped: the ${d.bound} bound was reached`;
    default: return `${at}${event.label ?? event.kind}`;
  }
}

/**
 * Which solver answered how many queries, from `Exploration.solverStats()`: decided by HeapLab
 * itself (the engine and its Rust decision procedure), sent to Z3, remembered from an earlier
 * answer, and, where Z3 cannot run, left open because only Z3 could decide them.
 */
export function solverText(stats) {
  if (!stats) return '';
  const parts = [`${stats.decidedInRust ?? 0} decided by HeapLab`];
  parts.push(stats.z3 ? `${stats.sentToZ3 ?? 0} by Z3` : 'Z3 not used here');
  if (stats.cacheHits) parts.push(`${stats.cacheHits} remembered`);
  if (stats.unknownWithoutZ3) parts.push(`${stats.unknownWithoutZ3} only Z3 could decide`);
  return `Solver questions: ${parts.join(', ')}`;
}

function option(value, text, selected) {
  const o = document.createElement('option');
  o.value = value;
  o.textContent = text;
  o.selected = selected;
  return o;
}

export function mount(el, store) {
  el.innerHTML = `
    <div class="explore-row">
      <label>Method <select data-method aria-label="Method"></select></label>
      <label>Strategy <select data-strategy aria-label="Strategy"></select></label>
      <label title="How the method's requires clause is used">Inputs <select data-pre aria-label="Precondition"></select></label>
      <span class="bounds" role="group" aria-label="Bounds"></span>
      <label data-all-heaps-wrap title="symheap: one path can stand for many input heaps; make a test of every distinct one (heaplab run --all-heaps), not just one per path"><input type="checkbox" data-all-heaps aria-label="Every input heap"> every input heap</label>
    </div>
    <div class="explore-row">
      <button type="button" class="primary" data-action="explore/run" aria-keyshortcuts="R" title="Explore every path (within the bounds). Key: R"><span aria-hidden="true">▶</span> Run</button>
      <button type="button" data-action="explore/step" aria-keyshortcuts="S" title="One event: reading an unknown reference, a branch, a question to the solver, the end of a path. Key: S">Step</button>
      <button type="button" data-action="explore/stepOver" aria-keyshortcuts="O" title="Run to the next choice (a new input object, a case of a predicate, a branch) or the end of a path. Key: O">Step over</button>
      <button type="button" data-action="explore/stepBack" aria-keyshortcuts="B" title="Back to the state before the last Step or Step over (the exploration is replayed one step short). Key: B">Step back</button>
      <button type="button" data-action="explore/pause" aria-keyshortcuts="P" title="Pause the run; Run or Step go on from here. The time bound does not count paused time. Key: P">Pause</button>
      <button type="button" data-action="explore/cancel" title="Stop exploring and keep the tests of the paths found so far">Cancel</button>
      <button type="button" data-action="explore/reset" title="Forget this exploration">Reset</button>
      <p class="explore-progress" role="status" aria-live="polite" aria-label="Exploration progress"></p>
    </div>
    <div class="explore-row explore-timeline" data-timeline hidden>
      <label title="The steps taken so far: slide back to an earlier state, or forward again to a later one (each step is replayed)">Step <input type="range" min="0" max="0" value="0" step="1" data-timeline-range aria-label="Timeline of steps"></label>
      <output data-timeline-text aria-live="off"></output>
    </div>
    <details class="left-out hint" data-left-out hidden><summary></summary><ul></ul></details>
    <p class="explore-event" aria-live="polite" aria-label="Last event"></p>
    <div class="explore-problem" role="alert" hidden><p></p><button type="button" data-open-full>Open in HeapLab <span aria-hidden="true">↗</span></button></div>
    <p class="stale-note" data-stale-note hidden>The program changed since this exploration: the tree, the tests and the downloads describe the old program. Run again to update them.</p>
    <p class="explore-solver hint" aria-label="Solver questions"></p>
    <p class="strategy-help hint"></p>
  `;
  const methodSel = el.querySelector('[data-method]');
  const strategySel = el.querySelector('[data-strategy]');
  const preSel = el.querySelector('[data-pre]');
  const allHeapsBox = el.querySelector('[data-all-heaps]');
  preSel.replaceChildren(...PRE_MODES.map((m) => Object.assign(option(m.value, m.text, false), { title: m.title })));
  const problem = el.querySelector('.explore-problem');
  const staleNote = el.querySelector('[data-stale-note]');
  const solverLine = el.querySelector('.explore-solver');
  el.querySelector('[data-open-full]').addEventListener('click', () => {
    store.dispatch({ type: 'link/openFull' });
  });
  const boundsEl = el.querySelector('.bounds');
  const progress = el.querySelector('.explore-progress');
  const help = el.querySelector('.strategy-help');
  const lastEvent = el.querySelector('.explore-event');
  const buttons = Object.fromEntries([...el.querySelectorAll('[data-action]')].map((b) => [b.dataset.action, b]));
  const timeline = el.querySelector('[data-timeline]');
  const timelineRange = el.querySelector('[data-timeline-range]');
  const timelineText = el.querySelector('[data-timeline-text]');
  timelineRange.addEventListener('change', () => {
    store.dispatch({ type: 'explore/goTo', step: Number(timelineRange.value) });
  });

  const inputs = {};
  for (const { name: key, label, title } of PAGE_BOUNDS) {
    const wrap = document.createElement('label');
    wrap.title = title;
    wrap.append(`${label} `);
    const input = document.createElement('input');
    input.type = 'number';
    input.min = '0';
    input.inputMode = 'numeric';
    input.dataset.bound = key;
    input.setAttribute('aria-label', `Bound ${label}`);
    wrap.append(input);
    boundsEl.append(wrap);
    inputs[key] = input;
  }

  const setExplore = (patch) => store.dispatch({
    type: 'settings/set', settings: { explore: { ...store.getState().settings.explore, ...patch } },
  });
  methodSel.addEventListener('change', () => setExplore({ method: methodSel.value }));
  strategySel.addEventListener('change', () => setExplore({ strategy: strategySel.value }));
  preSel.addEventListener('change', () => setExplore({ pre: preSel.value }));
  allHeapsBox.addEventListener('change', () => setExplore({ allHeaps: allHeapsBox.checked }));
  for (const [key, input] of Object.entries(inputs)) {
    input.addEventListener('change', () => setExplore({ [key]: input.value }));
  }
  for (const [type, button] of Object.entries(buttons)) {
    button.addEventListener('click', () => store.dispatch({ type }));
  }

  const leftOutEl = el.querySelector('[data-left-out]');

  /**
   * A Java program's methods the front end left out: in the picker, greyed out after the others,
   * and below it with the reason each cannot be explored.
   */
  function renderLeftOut(leftOut) {
    leftOutEl.hidden = leftOut.length === 0;
    const n = leftOut.length;
    leftOutEl.querySelector('summary').textContent = `${n} method${n === 1 ? '' : 's'} cannot be explored`;
    leftOutEl.querySelector('ul').replaceChildren(...leftOut.map((m) => {
      const li = document.createElement('li');
      const name = document.createElement('code');
      name.textContent = m.signature ?? m.name;
      li.append(name, ` (line ${m.line}): ${m.leftOut}`);
      return li;
    }));
    if (n === 0) return [];
    const group = document.createElement('optgroup');
    group.label = 'Cannot be explored';
    group.append(...leftOut.map((m) => Object.assign(option(`left-out:${m.name}`, m.signature ?? m.name, false), { disabled: true, title: m.leftOut })));
    return [group];
  }

  let shownMethods = null;
  let shownStrategies = null;
  function renderPickers(state) {
    const { methods, strategies, settings } = state;
    const chosen = settings.explore;
    if (methods !== shownMethods) {
      shownMethods = methods;
      // A Java method by its Java signature (`LinkedStack.push(Item)`); the value is the name
      // a run takes (an overload's lowered `Class.put_3`).
      const label = (m) => `${m.signature ?? m.name}${m.requires ? '' : ' (no requires)'}`;
      methodSel.replaceChildren(...methods.map((m) => option(m.name, label(m), m.name === chosen.method)),
        ...renderLeftOut(state.leftOut ?? []));
      methodSel.disabled = methods.length === 0;
      if (methods.length > 0 && !methods.some((m) => m.name === chosen.method)) {
        // The program changed and the chosen method is gone: take the first with a precondition.
        const first = defaultMethod(methods);
        methodSel.value = first;
        queueMicrotask(() => setExplore({ method: first }));
      }
    } else if (methodSel.value !== chosen.method && chosen.method) {
      methodSel.value = chosen.method;
    }
    if (strategies !== shownStrategies) {
      shownStrategies = strategies;
      strategySel.replaceChildren(...strategies.map((s) => option(s.name, s.name, s.name === chosen.strategy)));
    }
    strategySel.value = chosen.strategy;
    preSel.value = chosen.pre === 'ignore' ? 'ignore' : 'assume';
    // What the strategy does, in plain words (the registry's "Learn more" paragraph, without
    // its source, which Learn more gives).
    const info = strategyRow(strategies, chosen.strategy);
    help.textContent = info ? `${info.name}: ${info.learn.replace(/ \([^()]*\)$/, '')}` : '';
    for (const { name: key, default: fallback } of PAGE_BOUNDS) {
      const input = inputs[key];
      if (document.activeElement !== input) input.value = chosen[key] ?? '';
      input.placeholder = String(fallback);
    }
    inputs.depth.closest('label').hidden = !info?.uses_depth;
    allHeapsBox.checked = chosen.allHeaps === true;
    allHeapsBox.closest('label').hidden = !info?.all_heaps;
  }

  function renderProgress(state) {
    const { explore, engine } = state;
    const s = explore.summary;
    const parts = [];
    if (explore.status === 'error') parts.push(explore.errorKind === 'NoZ3' ? 'Stopped: this exploration needs Z3.' : explore.error);
    else if (explore.stopping) parts.push('Stopping; keeping the tests found so far…');
    else if (explore.status === 'done' && explore.partial) parts.push('Cancelled: partial results.');
    // A question only Z3 answers waits for Z3's first download and start; the run's time bound
    // keeps counting meanwhile (worker.js).
    else if (state.z3Waiting && explore.status === 'running') parts.push('Loading Z3… (a question needs it)');
    else parts.push(STATUS_TEXT[explore.status] ?? '');
    if (s) {
      // One name per count, as the tree and the Compare tab say it.
      const ends = explore.tree.nodes.reduce((n, node) => n + (node?.outcome ? 1 : 0), 0);
      // The concolic loop runs inputs concretely: runs instead of states and path ends.
      if (s.concolic) parts.push(plural(s.concolic.runs, 'run'));
      else {
        parts.push(plural(s.states, 'state'));
        parts.push(plural(ends, 'path end'));
      }
      if (explore.status === 'done') {
        parts.push(plural(s.tests, 'test'));
        if (s.all_heaps) {
          const h = s.all_heaps;
          parts.push(`${plural(h.heaps, 'input heap')} from ${plural(s.paths_feasible, 'feasible path')}` +
            (h.paths_cut ? ` (${plural(h.paths_cut, 'path')} not enumerated to the end: ${h.cut_by.join(', ')})` : ''));
        }
        if (s.invalid_inputs) parts.push(plural(s.invalid_inputs, 'invalid input'));
        parts.push(`branches ${s.branches_covered}/${s.branches_total}`);
        parts.push(`${s.time_ms} ms`);
        // The bound that ended the run early, then the bounds that cut single paths.
        if (s.stopped_by) parts.push(`stopped by ${s.stopped_by}`);
        const cut = s.bounds_hit.filter((b) => !(s.stopped_by ?? '').startsWith(b));
        if (cut.length > 0) parts.push(`paths cut by the ${cut.join(', ')} bound${cut.length === 1 ? '' : 's'}`);
        if (s.paths_unknown > 0) {
          parts.push(`${plural(s.paths_unknown, 'path')} without a test: ${s.unknown_reason ?? 'the solver gave no model'}`);
        }
        const untested = (s.paths_untested_out_of_time ?? 0) + (s.paths_untested_out_of_memory ?? 0);
        if (untested > 0) parts.push(`${plural(untested, 'path')} left without a test by the bound`);
      } else {
        parts.push(plural(s.paths_feasible, 'feasible path'));
      }
    }
    progress.textContent = parts.filter(Boolean).join(' · ');
    progress.dataset.status = explore.partial && explore.status === 'done' ? 'partial' : explore.status;
    lastEvent.textContent = explore.status === 'idle' ? '' : describeEvent(explore.lastEvent);
    solverLine.textContent = solverText(explore.solver);

    const needsZ3 = explore.status === 'error' && explore.errorKind === 'NoZ3';
    problem.hidden = !needsZ3;
    if (needsZ3) {
      problem.querySelector('p').textContent = 'This step asks a question only Z3 can answer, and Z3 cannot run inside ' +
        'this embedded frame (the course page is not cross-origin isolated). Open the same program in HeapLab to go on.';
    }
    const stale = explore.status !== 'idle' && isStale(state, explore);
    staleNote.hidden = !stale;
    el.closest('.panel')?.classList.toggle('stale', stale);

    const ready = engine.state === 'ready' && state.methods.length > 0;
    const active = explore.status === 'running' || explore.status === 'starting';
    buttons['explore/run'].disabled = !ready || active;
    buttons['explore/step'].disabled = !ready || active;
    buttons['explore/stepOver'].disabled = !ready || active;
    buttons['explore/stepBack'].disabled = !ready || active || explore.status !== 'paused' || !(explore.stepsTaken > 0);
    timeline.hidden = !(explore.stepsRecorded > 0);
    timelineRange.max = String(explore.stepsRecorded ?? 0);
    timelineRange.value = String(explore.stepsTaken ?? 0);
    timelineRange.disabled = !ready || active || explore.status !== 'paused';
    timelineText.textContent = `${explore.stepsTaken ?? 0} of ${explore.stepsRecorded ?? 0}`;
    buttons['explore/pause'].disabled = explore.status !== 'running';
    buttons['explore/cancel'].disabled = explore.stopping || !(active || explore.status === 'paused');
    buttons['explore/reset'].disabled = active || explore.status === 'idle';
  }

  // Keys for the buttons, as debuggers and Python Tutor have them: while the Explore panel is
  // shown and no text field (the editor included) has the focus, R runs, S steps, O steps
  // over, B steps back and P pauses, each only when its button could be pressed.
  const keys = { r: 'explore/run', s: 'explore/step', o: 'explore/stepOver', b: 'explore/stepBack', p: 'explore/pause' };
  document.addEventListener('keydown', (e) => {
    const action = keys[e.key?.toLowerCase()];
    if (!action || e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
    const target = e.target instanceof Element ? e.target : null;
    if (target?.closest('input, textarea, select, [contenteditable="true"], .cm-editor')) return;
    if (!el.offsetParent || buttons[action].disabled) return;
    e.preventDefault();
    store.dispatch({ type: action });
  });

  const render = (state) => {
    renderPickers(state);
    renderProgress(state);
  };
  render(store.getState());
  store.subscribe((state, action) => {
    if (/^(explore|settings|methods|engine|z3|compare|source)\//.test(action.type)) render(state);
  });
}
