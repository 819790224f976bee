// The Explore panel's controls: which method, which heap strategy, which bounds (the engine's
// defaults shown as placeholders), the Run / Step / Step over / Pause / Cancel buttons, and a
// progress line (paths, tests, solver calls so far; the bound that stopped the run).

import { defaultMethod } from '../store.js';

const BOUNDS = [
  { key: 'k', label: 'k', title: 'Kiasan\'s bound on reference chains: how many objects deep the input heap may grow' },
  { key: 'depth', label: 'depth', title: 'sl: how deep predicate instances may be unfolded (JSF\'s max_depth)' },
  { key: 'loop', label: 'loops', title: 'Iterations of a loop that initialize nothing new before the path is cut' },
  { key: 'maxPaths', label: 'paths', title: 'Stop after this many paths (paths discarded by requires do not count)' },
  { key: 'maxStates', label: 'states', title: 'Stop after this many states (nodes of the execution tree)' },
  { key: 'timeoutMs', label: 'time (ms)', title: 'Stop after this many milliseconds (0: no limit)' },
];

const STATUS_TEXT = {
  idle: 'Not started.',
  starting: 'Starting (waiting for Z3)…',
  running: 'Exploring…',
  paused: 'Paused.',
  done: 'Done.',
  error: '',
};

/** The last event in words, so that Step shows what the engine just did. */
function describeEvent(event) {
  if (!event) return '';
  const d = event.details ?? {};
  const at = event.node === null || event.node === undefined ? '' : `[${event.node}] `;
  switch (event.kind) {
    case 'start': return `${at}start ${d.method ?? event.label}`;
    case 'slModel': return `${at}input completed from a model of ${d.formula}: ${d.model}`;
    case 'lazyInit': return `${at}${d.fork === 'resolve' ? 'resolve ' : d.fork === 'disjunct' ? '' : 'initialize '}${d.target}: ${(d.options ?? []).join(' | ')}`;
    case 'branch': return `${at}branch on ${d.condition}`;
    case 'disjuncts': return `${at}${(d.children ?? []).length} disjuncts of a formula`;
    case 'solverQuery': return `${at}solver: is ${d.query} satisfiable? ${d.answer}${d.local ? ' (decided without Z3)' : ''}`;
    case 'pathEnd': return `${at}path ${d.path} ends: ${d.text}`;
    case 'stopped': return `stopped by the bound ${d.bound}`;
    default: return `${at}${event.label ?? event.kind}`;
  }
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
      <span class="bounds" role="group" aria-label="Bounds"></span>
    </div>
    <div class="explore-row">
      <button type="button" class="primary" data-action="explore/run" title="Explore every path (within the bounds)"><span aria-hidden="true">▶</span> Run</button>
      <button type="button" data-action="explore/step" title="One event: a lazy initialization, a branch, a solver query, a path end">Step</button>
      <button type="button" data-action="explore/stepOver" title="Run to the next decision (lazy initialization, unfolding, branch) or path end">Step over</button>
      <button type="button" data-action="explore/pause" title="Pause the run; Run or Step go on from here">Pause</button>
      <button type="button" data-action="run/cancel" title="Stop the engine at once (it restarts)">Cancel</button>
      <button type="button" data-action="explore/reset" title="Forget this exploration">Reset</button>
      <p class="explore-progress" role="status" aria-live="polite" aria-label="Exploration progress"></p>
    </div>
    <p class="explore-event" aria-live="polite" aria-label="Last event"></p>
    <p class="strategy-help hint"></p>
  `;
  const methodSel = el.querySelector('[data-method]');
  const strategySel = el.querySelector('[data-strategy]');
  const boundsEl = el.querySelector('.bounds');
  const progress = el.querySelector('.explore-progress');
  const help = el.querySelector('.strategy-help');
  const lastEvent = el.querySelector('.explore-event');
  const buttons = Object.fromEntries([...el.querySelectorAll('[data-action]')].map((b) => [b.dataset.action, b]));

  const inputs = {};
  for (const { key, label, title } of BOUNDS) {
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
  for (const [key, input] of Object.entries(inputs)) {
    input.addEventListener('change', () => setExplore({ [key]: input.value }));
  }
  for (const [type, button] of Object.entries(buttons)) {
    button.addEventListener('click', () => store.dispatch({ type }));
  }

  let shownMethods = null;
  let shownStrategies = null;
  function renderPickers(state) {
    const { methods, strategies, settings } = state;
    const chosen = settings.explore;
    if (methods !== shownMethods) {
      shownMethods = methods;
      methodSel.replaceChildren(...methods.map((m) => option(m.name, m.requires ? `${m.name}` : `${m.name} (no requires)`, m.name === chosen.method)));
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
    const info = strategies.find((s) => s.name === chosen.strategy);
    help.textContent = info ? `${info.name}: ${info.description} (${info.source})` : '';
    for (const [key, input] of Object.entries(inputs)) {
      if (document.activeElement !== input) input.value = chosen[key] ?? '';
      const fallback = state.defaults?.[key];
      input.placeholder = fallback === undefined || fallback === null ? '–' : String(fallback);
    }
    inputs.depth.closest('label').hidden = chosen.strategy !== 'sl';
  }

  function renderProgress(state) {
    const { explore, engine, z3 } = state;
    const s = explore.summary;
    const parts = [];
    if (explore.status === 'error') parts.push(explore.error);
    else parts.push(STATUS_TEXT[explore.status] ?? '');
    if (s) {
      const calls = s.solver_calls;
      parts.push(`${s.paths} path${s.paths === 1 ? '' : 's'}`);
      parts.push(`${explore.status === 'done' ? s.tests : s.paths_feasible} test${(explore.status === 'done' ? s.tests : s.paths_feasible) === 1 ? '' : 's'}`);
      if (s.invalid_inputs) parts.push(`${s.invalid_inputs} invalid input${s.invalid_inputs === 1 ? '' : 's'}`);
      parts.push(`${calls.sent} solver call${calls.sent === 1 ? '' : 's'} (+${calls.decided_locally} local, ${calls.cached} cached)`);
      parts.push(`${s.states} states`);
      if (explore.status === 'done') {
        parts.push(`branches ${s.branches_covered}/${s.branches_total}`);
        parts.push(`${s.time_ms} ms`);
        if (s.bounds_hit.length > 0) parts.push(`cut by ${s.bounds_hit.join(', ')}`);
      }
    }
    progress.textContent = parts.filter(Boolean).join(' · ');
    lastEvent.textContent = explore.status === 'idle' ? '' : describeEvent(explore.lastEvent);
    progress.dataset.status = explore.status;
    const ready = engine.state === 'ready' && z3.state !== 'error' && state.methods.length > 0;
    const active = explore.status === 'running' || explore.status === 'starting';
    buttons['explore/run'].disabled = !ready || active;
    buttons['explore/step'].disabled = !ready || active;
    buttons['explore/stepOver'].disabled = !ready || active;
    buttons['explore/pause'].disabled = explore.status !== 'running';
    buttons['run/cancel'].disabled = !active && state.compare.status !== 'running';
    buttons['explore/reset'].disabled = active || explore.status === 'idle';
  }

  const render = (state) => {
    renderPickers(state);
    renderProgress(state);
  };
  render(store.getState());
  store.subscribe((state, action) => {
    if (/^(explore|settings|methods|engine|z3|compare)\//.test(action.type)) render(state);
  });
}
