// The Compare tab: every strategy on the same method at the same bounds, as a table with the
// columns of `heaplab compare` and a bar chart (small multiples: tests, invalid inputs, solver
// calls, time). The method and bounds are those of the Explore tab, so one change there is
// compared everywhere.

import { exploreMethod, isStale } from '../store.js';
import { BOUNDS } from '../vocabulary.js';

/** Each bound's default, from the engine's one bound table. */
const DEFAULTS = Object.fromEntries(BOUNDS.map((b) => [b.name, b.default]));

/** The precondition modes, as the Explore tab names them. */
const PRE_TEXT = { assume: 'only inputs that satisfy requires', ignore: 'every input, then check requires' };

const SVG = 'http://www.w3.org/2000/svg';

/** The chart's panels: what each measures, and how to read it from a summary row. */
const MEASURES = [
  { title: 'Tests', value: (r) => r.tests },
  { title: 'Invalid inputs', value: (r) => r.invalid_inputs },
  { title: 'Z3 questions', value: (r) => r.solver?.sentToZ3 ?? r.solver_calls?.sent ?? 0 },
  { title: 'Time (ms)', value: (r) => r.time_ms },
];

/** One colour per strategy, in registry order (lazy, lazier, lazier#, sl, ...). */
const COLOURS = ['#94a3b8', '#60a5fa', '#7c3aed', '#0d9488', '#f59e0b', '#ec4899'];

export function mount(el, store) {
  el.classList.add('compare');
  el.innerHTML = `
    <div class="panel-head">
      <h2>Strategies side by side</h2>
    </div>
    <p class="hint cmp-what"></p>
    <div class="row cmp-actions">
      <label class="cmp-pre" title="How the method's requires clause is used, for every strategy (the same setting as in the Explore tab)">Inputs
        <select data-pre aria-label="Precondition">
          <option value="assume">${PRE_TEXT.assume}</option><option value="ignore">${PRE_TEXT.ignore}</option>
        </select></label>
      <button type="button" class="primary cmp-run">Compare strategies</button>
      <button type="button" class="cmp-cancel" aria-label="Cancel comparison" hidden>Cancel</button>
      <progress class="cmp-progress" hidden></progress>
      <span class="cmp-status" role="status" aria-live="polite"></span>
    </div>
    <p class="error cmp-error" role="alert" hidden></p>
    <p class="stale-note" data-stale-note hidden>The program or the settings changed since this comparison: compare again to update it.</p>
    <div class="cmp-table-wrap">
      <table class="results cmp-table" aria-label="Strategy comparison" hidden>
        <thead><tr>
          <th scope="col">Strategy</th>
          <th scope="col" title="How requires was used: only inputs that satisfy it (assumed), or every input (ignored), checked afterwards">Inputs</th>
          <th scope="col" class="num" title="Paths that reach a return or an error: each becomes a test (concolic: its concrete runs)">Feasible paths</th>
          <th scope="col" class="num">Tests</th>
          <th scope="col" class="num" title="Tests whose input violates requires">Invalid inputs</th>
          <th scope="col" class="num" title="Tests ending in an error, on inputs not known to be invalid">Errors</th>
          <th scope="col" class="num" title="Branch directions covered by the generated tests">Branches</th>
          <th scope="col" class="num" title="Branch directions covered by the tests whose input satisfies requires: the fair comparison, since an invalid input can reach branches no valid one reaches">Branches (valid)</th>
          <th scope="col" class="num" title="Questions sent to Z3 (hover a cell for the ones HeapLab decided itself); concolic: CSF's #Calls, its phase-1 / phase-2 solver calls">Z3 questions</th>
          <th scope="col" class="num">Time ms</th>
        </tr></thead>
        <tbody></tbody>
      </table>
    </div>
    <figure class="cmp-chart" hidden></figure>
  `;
  const what = el.querySelector('.cmp-what');
  const run = el.querySelector('.cmp-run');
  const cancel = el.querySelector('.cmp-cancel');
  const progress = el.querySelector('.cmp-progress');
  const status = el.querySelector('.cmp-status');
  const error = el.querySelector('.cmp-error');
  const table = el.querySelector('table');
  const body = el.querySelector('tbody');
  const chart = el.querySelector('.cmp-chart');
  const preSel = el.querySelector('[data-pre]');
  const staleNote = el.querySelector('[data-stale-note]');
  preSel.addEventListener('change', () => store.dispatch({
    type: 'settings/set', settings: { explore: { ...store.getState().settings.explore, pre: preSel.value } },
  }));

  run.addEventListener('click', () => store.dispatch({ type: 'compare/run' }));
  cancel.addEventListener('click', () => store.dispatch({ type: 'run/cancel' }));

  // The bounds the shown rows were computed with: the settings when the comparison started.
  let ranWith = null;
  let last = {};
  function render(state) {
    const compare = state.compare ?? { status: 'idle', rows: [], current: '', error: '' };
    const settings = state.settings.explore ?? {};
    const strategies = strategyOrder(state.strategies, compare.rows);
    if (compare.status === 'running' && last.status !== 'running') ranWith = { ...settings };

    const method = exploreMethod(state);
    // A Java method by its Java signature (`LinkedStack.push(Item)`).
    const named = state.methods.find((m) => m.name === method)?.signature ?? method;
    what.textContent = describeTarget(named, settings, DEFAULTS);
    preSel.value = settings.pre === 'ignore' ? 'ignore' : 'assume';
    preSel.disabled = compare.status === 'running';
    const stale = compare.status === 'done' && (isStale(state, compare) || (compare.pre ?? 'assume') !== preSel.value);
    staleNote.hidden = !stale;
    el.classList.toggle('stale', stale);
    const running = compare.status === 'running';
    run.disabled = running || !method || state.engine.state !== 'ready';
    cancel.hidden = !running;
    progress.hidden = !running;
    progress.max = Math.max(1, strategies.length);
    progress.value = compare.rows.length;
    // A live region: only real changes are written, so nothing is announced twice.
    const said = statusText(compare, strategies, ranWith, DEFAULTS);
    if (status.textContent !== said) status.textContent = said;
    error.hidden = compare.status !== 'error';
    if (error.textContent !== (compare.error ?? '')) error.textContent = compare.error ?? '';

    const shown = compare.rows.length > 0 || running;
    table.hidden = !shown;
    if (compare.rows !== last.rows || compare.current !== last.current || compare.status !== last.status) {
      body.replaceChildren(...tableRows(strategies, compare));
      chart.hidden = compare.rows.length === 0;
      if (compare.rows.length > 0) chart.replaceChildren(barChart(compare.rows, strategies), caption());
    }
    last = compare;
  }

  // Renders only when something it shows changed (the store replaces what it changes).
  let inputs = [];
  const update = (state) => {
    const now = [state.compare, state.settings.explore, state.methods, state.strategies, state.engine.state, state.source];
    if (now.every((v, i) => v === inputs[i])) return;
    inputs = now;
    render(state);
  };
  update(store.getState());
  store.subscribe(update);
}

// ---- text ---------------------------------------------------------------------------------

function describeTarget(method, s, defaults) {
  if (!method) return 'The program has no method to explore yet.';
  return `Runs every strategy on ${method} with ${boundsText(s, defaults)} (set in the Explore tab).`;
}

/** The bounds in words; an empty setting means the engine's default, which is shown instead. */
function boundsText(s, defaults) {
  const value = (key) => (s[key] === '' || s[key] == null ? defaults?.[key] : Number(s[key]));
  const parts = [];
  const k = value('k');
  const depth = value('depth');
  const loop = value('loop');
  const maxPaths = value('max_paths');
  const timeoutMs = value('timeout_ms');
  if (k != null) parts.push(`k = ${k}`);
  if (depth != null) parts.push(`depth = ${depth}`);
  if (loop != null) parts.push(`loops = ${loop}`);
  if (maxPaths) parts.push(`≤ ${maxPaths} paths`);
  if (timeoutMs) parts.push(`${timeoutMs >= 1000 ? `${timeoutMs / 1000} s` : `${timeoutMs} ms`} timeout`);
  // Non-breaking spaces keep each bound on one line when the sentence wraps.
  return parts.map((p) => p.replace(/ /g, '\u00a0')).join(', ') || 'the default bounds';
}

function statusText(compare, strategies, ranWith, defaults) {
  const method = compare.method || ranWith?.method || '';
  switch (compare.status) {
    case 'running': {
      const at = compare.current ? strategies.indexOf(compare.current) + 1 : compare.rows.length + 1;
      const of = strategies.length ? ` (${Math.max(at, 1)} of ${strategies.length})` : '';
      return `Running ${compare.current || '…'}${of}…`;
    }
    case 'done': {
      const total = compare.rows.reduce((sum, r) => sum + (r.time_ms ?? 0), 0);
      const bounds = ranWith ? `, ${boundsText(ranWith, defaults)}` : '';
      return `${method}${bounds}: ${compare.rows.length} strategies in ${total} ms.`;
    }
    case 'error':
      return compare.rows.length ? `Stopped after ${compare.rows.length} strategies.` : '';
    default:
      return '';
  }
}

/** Strategy names in registry order, plus any a row names that the registry lacks. */
function strategyOrder(registry, rows) {
  const names = (registry ?? []).map((s) => s.name);
  for (const r of rows) if (!names.includes(r.strategy)) names.push(r.strategy);
  return names;
}

// ---- the table ----------------------------------------------------------------------------

function tableRows(strategies, compare) {
  const byName = new Map(compare.rows.map((r) => [r.strategy, r]));
  const names = compare.status === 'running' ? strategies : strategies.filter((n) => byName.has(n));
  return names.map((name) => {
    const r = byName.get(name);
    if (r) return summaryRow(r, strategies.indexOf(name));
    return pendingRow(name, strategies.indexOf(name), name === compare.current);
  });
}

/** The bound that stopped a row's run early (`timeout`, `max_paths`, …), or ''. */
function stopped(r) {
  return (r.stopped_by ?? '').split(' ')[0];
}

function summaryRow(r, index) {
  const tr = document.createElement('tr');
  tr.dataset.strategy = r.strategy;
  const calls = r.solver_calls ?? {};
  const pct = r.branches_total ? Math.round((100 * r.branches_covered) / r.branches_total) : null;
  tr.append(
    strategyCell(r.strategy, index),
    cell(r.pre === 'ignore' ? 'every input' : 'satisfying requires', '', PRE_TEXT[r.pre] ?? r.pre),
    r.concolic
      ? cell(stopped(r) ? `${r.concolic.runs} (${stopped(r)})` : r.concolic.runs, 'num',
        `${r.concolic.runs} concrete runs${r.stopped_by ? `, stopped by the ${r.stopped_by} bound` : ''}`)
      : cell(stopped(r) ? `${r.paths_feasible ?? r.paths} (${stopped(r)})` : (r.paths_feasible ?? r.paths), 'num',
        `${r.paths_feasible} feasible, ${r.paths_infeasible} infeasible, ${r.paths_bounded} bounded` +
        (r.stopped_by ? `; stopped by ${r.stopped_by}` : '')),
    cell(r.tests, 'num'),
    cell(r.invalid_inputs, r.invalid_inputs > 0 ? 'num cmp-bad' : 'num'),
    cell(r.errors, 'num'),
    branchCell(r.branches_covered, r.branches_total, pct),
    branchCell(r.branches_covered_valid, r.branches_total,
      r.branches_total ? Math.round((100 * r.branches_covered_valid) / r.branches_total) : null),
    // concolic: CSF's #Calls (p1/p2), as `heaplab compare` prints it. Others: the worker's
    // solverStats() when it has them (decided in Rust counts the engine's own decisions too),
    // else the summary's solver_calls.
    r.concolic ? csfCallsCell(r)
    : r.solver
      ? cell(r.solver.sentToZ3 ?? 0, 'num',
        `${r.solver.sentToZ3 ?? 0} sent to Z3, ${r.solver.decidedInRust ?? 0} decided by HeapLab, ${r.solver.cacheHits ?? 0} remembered`)
      : cell(calls.sent ?? 0, 'num',
        `${calls.sent ?? 0} sent to Z3, ${calls.decided_locally ?? 0} decided by HeapLab, ${calls.cached ?? 0} remembered, ${calls.failed ?? 0} undecided`),
    cell(r.time_ms, 'num'),
  );
  return tr;
}

/**
 * CSF Table 1's `#Calls`: `p1/p2 16/33`, what the two phases asked the logic's `sat`.
 * @param {import('../report-types.js').RunSummary} r a concolic row (its `concolic` counts)
 */
function csfCallsCell(r) {
  const { phase1_calls: phase1, phase2_calls: phase2 } = r.concolic;
  const td = cell(`p1/p2 ${phase1}/${phase2}`, 'num cmp-csf-calls',
    `CSF's #Calls: ${phase1} solver calls in phase 1 (the precondition's unfoldings), ${phase2} in phase 2 (the concolic loop); ${r.solver?.sentToZ3 ?? 0} questions sent to Z3`);
  td.dataset.phase1 = String(phase1);
  td.dataset.phase2 = String(phase2);
  return td;
}

/** `24/26` over `92%`: two short lines keep the table narrow enough for the side pane. */
function branchCell(covered, total, pct) {
  const td = cell(total ? `${covered}/${total}` : '–', 'num cmp-branches');
  if (total) {
    const percent = document.createElement('span');
    percent.className = 'cmp-pct';
    percent.textContent = `${pct}%`;
    td.append(percent);
  }
  return td;
}

function pendingRow(name, index, current) {
  const tr = document.createElement('tr');
  tr.className = current ? 'cmp-running' : 'cmp-waiting';
  const rest = cell(current ? 'running…' : 'waiting');
  rest.colSpan = 9;
  tr.append(strategyCell(name, index), rest);
  return tr;
}

function strategyCell(name, index) {
  const th = document.createElement('th');
  th.scope = 'row';
  const swatch = document.createElement('span');
  swatch.className = 'cmp-swatch';
  swatch.style.background = colour(index);
  th.append(swatch, name);
  return th;
}

function cell(value, className, title) {
  const td = document.createElement('td');
  td.textContent = value ?? '–';
  if (className) td.className = className;
  if (title) td.title = title;
  return td;
}

const colour = (index) => COLOURS[((index % COLOURS.length) + COLOURS.length) % COLOURS.length];

// ---- the chart ----------------------------------------------------------------------------

const PANEL_W = 270;
const GAP_X = 24;
const LABEL_W = 58;
const VALUE_W = 44;
const BAR_H = 14;
const BAR_GAP = 5;
const TITLE_H = 22;
const GAP_Y = 16;

/** Small multiples, two panels a row; each panel has one horizontal bar per strategy. */
function barChart(rows, strategies) {
  const panelH = TITLE_H + rows.length * (BAR_H + BAR_GAP);
  const cols = 2;
  const rowsOfPanels = Math.ceil(MEASURES.length / cols);
  const width = cols * PANEL_W + (cols - 1) * GAP_X;
  const height = rowsOfPanels * panelH + (rowsOfPanels - 1) * GAP_Y;
  const svg = svgEl('svg', { viewBox: `0 0 ${width} ${height}`, class: 'cmp-svg', role: 'img' });
  svg.setAttribute('aria-label', chartSummary(rows));
  MEASURES.forEach((measure, i) => {
    const x = (i % cols) * (PANEL_W + GAP_X);
    const y = Math.floor(i / cols) * (panelH + GAP_Y);
    svg.append(panel(measure, rows, strategies, x, y));
  });
  return svg;
}

function panel(measure, rows, strategies, x, y) {
  const g = svgEl('g', { transform: `translate(${x} ${y})` });
  g.append(svgText(measure.title, { x: 0, y: 14, class: 'cmp-panel-title' }));
  const max = Math.max(1, ...rows.map(measure.value));
  const barSpace = PANEL_W - LABEL_W - VALUE_W;
  rows.forEach((r, i) => {
    const top = TITLE_H + i * (BAR_H + BAR_GAP);
    const value = measure.value(r) ?? 0;
    // A zero still gets a sliver, so the row does not look missing.
    const w = value === 0 ? 1.5 : Math.max(2, (value / max) * barSpace);
    g.append(
      svgText(r.strategy, { x: LABEL_W - 6, y: top + BAR_H - 3, class: 'cmp-bar-label', 'text-anchor': 'end' }),
      svgEl('rect', {
        x: LABEL_W, y: top, width: w, height: BAR_H, rx: 2,
        fill: colour(strategies.indexOf(r.strategy)),
      }),
      svgText(String(value), { x: LABEL_W + w + 4, y: top + BAR_H - 3, class: 'cmp-bar-value' }),
    );
  });
  const axis = svgEl('line', {
    x1: LABEL_W, x2: LABEL_W, y1: TITLE_H - 3, y2: TITLE_H + rows.length * (BAR_H + BAR_GAP) - BAR_GAP + 3, class: 'cmp-axis',
  });
  g.append(axis);
  return g;
}

/** The chart in words, for screen readers: one clause per measure. */
function chartSummary(rows) {
  const clauses = MEASURES.map((m) => `${m.title.toLowerCase()}: ${rows.map((r) => `${r.strategy} ${m.value(r)}`).join(', ')}`);
  return `Bar chart comparing strategies. ${clauses.join('; ')}.`;
}

function caption() {
  const caption = document.createElement('figcaption');
  caption.textContent = 'Shorter is better for invalid inputs, Z3 questions and time; tests count inputs found within the bounds.';
  return caption;
}

function svgEl(tag, attrs) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

function svgText(text, attrs) {
  const node = svgEl('text', attrs);
  node.textContent = text;
  return node;
}
