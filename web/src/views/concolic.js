// The `concolic` strategy in the Explore tab: the constraint tree that the runs share, growing
// run by run, and the current run's input.
//
// `concolicRun` (heaplab-wasm) runs the whole strategy in the worker, which posts its events as
// they happen (run input i, branch taken new/known, new unexplored node, node tried, pruned,
// the formula solved, new input; `concolic/live`): while it runs, the tree grows run by run with
// the current run's input heap and the formula solved for the next input. Once it is over, this
// view replays the whole stream up to a chosen run: a node is explored once a run passed it,
// unexplored while it is only a child some run left untaken, pruned once its formulas gave no
// model. Shown instead of the execution tree and heap while the strategy is `concolic`.

import { strategyRow } from '../store.js';

const STATE_WORDS = { explored: 'explored', unexplored: 'unexplored', pruned: 'pruned' };
const PLAY_MS = 250;
const LIVE_MIN_MS = 250;

export function mount(treeSection, store) {
  const el = document.createElement('section');
  el.className = 'explore-concolic';
  el.hidden = true;
  el.setAttribute('aria-label', 'Constraint tree');
  el.innerHTML = `
    <div class="cc-bar" role="group" aria-label="Concolic runs">
      <button type="button" data-cc="first" aria-label="First run">First</button>
      <button type="button" data-cc="prev" aria-label="Previous run">◀ Run</button>
      <button type="button" data-cc="next" aria-label="Next run">Run ▶</button>
      <button type="button" data-cc="play">Play</button>
      <button type="button" data-cc="last" aria-label="Last run">Last</button>
      <input type="range" min="0" max="0" value="0" data-cc-run aria-label="Run">
      <span class="cc-at" data-cc-at></span>
    </div>
    <p class="cc-counts" data-cc-counts></p>
    <p class="cc-status hint" data-cc-status>Choose Run or Step to run the concolic strategy.</p>
    <div class="cc-body">
      <div class="cc-tree-box"><ul class="cc-tree" data-cc-tree></ul></div>
      <div class="cc-input" data-cc-input aria-label="The run's input"></div>
    </div>`;
  treeSection.parentElement.insertBefore(el, treeSection);
  const heapSection = treeSection.parentElement.querySelector('#explore-heap');
  const range = el.querySelector('[data-cc-run]');
  const at = el.querySelector('[data-cc-at]');
  const counts = el.querySelector('[data-cc-counts]');
  const status = el.querySelector('[data-cc-status]');
  const treeEl = el.querySelector('[data-cc-tree]');
  const inputEl = el.querySelector('[data-cc-input]');
  const play = el.querySelector('[data-cc="play"]');

  let result = null;
  // While the run goes on: its events so far (of the current generation pass) and its tests.
  let live = null;
  let runId = -1;
  let timer = null;
  // Index into the events of each run's `runInput`.
  let starts = [];

  const stopPlay = () => {
    if (timer) clearInterval(timer);
    timer = null;
    play.textContent = 'Play';
  };
  const show = (run) => {
    if (!result) return;
    const n = starts.length;
    range.value = String(Math.max(0, Math.min(n - 1, run)));
    render();
  };
  el.querySelector('[data-cc="first"]').addEventListener('click', () => { stopPlay(); show(0); });
  el.querySelector('[data-cc="prev"]').addEventListener('click', () => { stopPlay(); show(Number(range.value) - 1); });
  el.querySelector('[data-cc="next"]').addEventListener('click', () => { stopPlay(); show(Number(range.value) + 1); });
  el.querySelector('[data-cc="last"]').addEventListener('click', () => { stopPlay(); show(starts.length - 1); });
  range.addEventListener('input', () => { stopPlay(); render(); });
  play.addEventListener('click', () => {
    if (timer) { stopPlay(); return; }
    if (Number(range.value) >= starts.length - 1) show(0);
    play.textContent = 'Pause';
    timer = setInterval(() => {
      if (Number(range.value) >= starts.length - 1) stopPlay();
      else show(Number(range.value) + 1);
    }, PLAY_MS);
  });

  function render() {
    const run = Number(range.value);
    const end = run + 1 < starts.length ? starts[run + 1] : result.events.length;
    const shown = replay(result.events, starts[run] ?? 0, end);
    at.textContent = `run ${run + 1} of ${starts.length}`;
    draw(shown, `Constraint tree after run ${run + 1}`);
    const phase = result.events[starts[run]]?.phase;
    const t = result.tests.find((x) => x.name === shown.test);
    inputEl.replaceChildren(describeInput(run, phase, t), describeFormula(shown));
  }

  // Live drawing redraws the whole tree, which grows with the run: it is drawn at most every
  // LIVE_MIN_MS, and never more than a fifth of the time, so that the page (and the worker, on
  // a busy machine) keeps its time for the run itself.
  let liveTimer = null;
  let liveNext = 0;
  function scheduleLive() {
    if (liveTimer) return;
    liveTimer = setTimeout(() => {
      liveTimer = null;
      if (!live || result) return;
      const t0 = performance.now();
      renderLive();
      const took = performance.now() - t0;
      liveNext = performance.now() + Math.max(LIVE_MIN_MS, 4 * took);
    }, Math.max(0, liveNext - performance.now()));
  }

  /** The tree as the live events have it: the latest run's path and input. */
  function renderLive() {
    const liveStarts = live.events.flatMap((e, i) => (e.kind === 'runInput' ? [i] : []));
    const run = Math.max(0, liveStarts.length - 1);
    const shown = replay(live.events, liveStarts[run] ?? 0, live.events.length);
    range.max = String(run);
    range.value = String(run);
    at.textContent = `run ${run + 1}, running…`;
    draw(shown, `Constraint tree so far (run ${run + 1})`);
    el.dataset.live = 'true';
    const phase = live.events[liveStarts[run]]?.phase;
    const t = shown.test ? live.tests.get(shown.test) : null;
    // A run's test arrives when the run ends, so the latest run usually has none yet: the last
    // input that finished is shown under it, so that the heaps keep coming while it runs.
    const last = t ? null : [...live.tests.values()].at(-1) ?? null;
    inputEl.replaceChildren(describeInput(run, phase, t, !shown.test, last), describeFormula(shown));
  }

  function draw({ nodes, path, fresh, tried }, title) {
    const tally = { explored: 0, unexplored: 0, pruned: 0 };
    for (const n of nodes.values()) tally[n.state] += 1;
    counts.textContent = `${title}: ${tally.explored} explored, ${tally.unexplored} unexplored, ${tally.pruned} pruned` +
      (tried.length ? ` · then tried ${triedText(tried)}` : '');
    counts.dataset.explored = tally.explored;
    counts.dataset.unexplored = tally.unexplored;
    counts.dataset.pruned = tally.pruned;
    treeEl.replaceChildren(...drawChildren(nodes, childIndex(nodes), '', path, fresh));
  }

  store.subscribe((state, action) => {
    // Shown for a strategy with its own driver (the registry's concolic row).
    const concolic = strategyRow(state.strategies, state.settings.explore.strategy)?.driver === 'concolic_loop';
    el.hidden = !concolic;
    // The sections' own CSS sets `display`, which `hidden` would not override.
    treeSection.style.display = concolic ? 'none' : '';
    if (heapSection) heapSection.style.display = concolic ? 'none' : '';
    switch (action.type) {
      case 'concolic/start':
        stopPlay();
        runId = action.runId;
        result = null;
        live = null;
        delete el.dataset.live;
        starts = [];
        treeEl.replaceChildren();
        inputEl.replaceChildren();
        counts.textContent = '';
        at.textContent = '';
        status.textContent = `Running concolic on ${action.method}…`;
        break;
      case 'concolic/live':
        if (action.runId !== runId || result) break;
        // A new pass (the run replayed with Z3's replies) starts the stream again.
        if (!live || live.pass !== action.pass) live = { pass: action.pass, events: [], tests: new Map() };
        for (const l of action.events) {
          live.events.push(l.event);
          if (l.test) live.tests.set(l.test.name, l.test);
        }
        scheduleLive();
        break;
      case 'concolic/done':
        if (action.runId !== runId) break;
        result = action.result;
        live = null;
        delete el.dataset.live;
        starts = result.events.flatMap((e, i) => (e.kind === 'runInput' ? [i] : []));
        range.max = String(Math.max(0, starts.length - 1));
        status.textContent = summaryText(result);
        show(0);
        break;
      case 'explore/error':
        if (concolic && state.explore.runId === runId) status.textContent = state.explore.error;
        break;
      default: break;
    }
  });
}

/**
 * The constraint tree after the events `0..end`: node key -> { state, label }; the current run's
 * path (events from `from`), the nodes it added, what was tried after it and its new test.
 */
function replay(events, from, end) {
  const nodes = new Map();
  const path = new Set();
  const fresh = new Set();
  const tried = [];
  let test = null;
  // The formula solved after the run (for the next input), and the one this run's input solves.
  let formula = null;
  let inputFormula = null;
  let lastSolved = null;
  let pending = null;
  for (let i = 0; i < end; i += 1) {
    const e = events[i];
    if (i === from && e.kind === 'runInput' && e.phase === 2) inputFormula = lastSolved;
    const key = e.node ? e.node.join('.') : null;
    const mine = i >= from;
    switch (e.kind) {
      case 'branch': {
        const n = nodes.get(key);
        nodes.set(key, { state: 'explored', label: e.label });
        if (mine) {
          path.add(key);
          if (!n || n.state !== 'explored') fresh.add(key);
        }
        break;
      }
      case 'unexplored':
        if (!nodes.has(key)) nodes.set(key, { state: 'unexplored', label: '' });
        if (mine) fresh.add(key);
        break;
      case 'tryNode':
        pending = key;
        break;
      case 'solve':
        if (mine) tried.push({ node: pending, outcome: e.outcome });
        break;
      case 'deferred': {
        // Put off to a larger unfolding budget: unexplored again until it is tried deeper.
        const n = nodes.get(key);
        nodes.set(key, { state: 'unexplored', label: n?.label ?? '' });
        break;
      }
      case 'pruned': {
        const n = nodes.get(key);
        nodes.set(key, { state: 'pruned', label: n?.label ?? '' });
        break;
      }
      case 'solved':
        lastSolved = e.formula;
        if (mine) formula = e.formula;
        break;
      case 'newInput':
        if (mine) test = e.test;
        break;
      default: break;
    }
  }
  return { nodes, path, fresh, tried, test, formula, inputFormula };
}

/** Node keys by parent key (`''` for the root's children), each list in child order. */
function childIndex(nodes) {
  const kids = new Map();
  for (const key of nodes.keys()) {
    const cut = key.lastIndexOf('.');
    const parent = cut < 0 ? '' : key.slice(0, cut);
    if (!kids.has(parent)) kids.set(parent, []);
    kids.get(parent).push(key);
  }
  const last = (k) => Number(k.slice(k.lastIndexOf('.') + 1));
  for (const list of kids.values()) list.sort((a, b) => last(a) - last(b));
  return kids;
}

/** The `<li>`s of the children of `parent` (keys `parent.j`), in child order. */
function drawChildren(nodes, kids, parent, path, fresh) {
  return (kids.get(parent) ?? []).map((key) => {
    const n = nodes.get(key);
    const j = key.slice(key.lastIndexOf('.') + 1);
    const li = document.createElement('li');
    li.className = `cc-node cc-${n.state}`;
    li.dataset.node = key;
    li.dataset.state = n.state;
    if (path.has(key)) li.classList.add('cc-path');
    if (fresh.has(key)) li.classList.add('cc-new');
    const label = document.createElement('span');
    label.className = 'cc-label';
    label.textContent = n.label || `branch ${j}`;
    label.title = `node ${key}: ${STATE_WORDS[n.state]}`;
    const tag = document.createElement('span');
    tag.className = 'cc-tag';
    tag.textContent = STATE_WORDS[n.state];
    li.append(label, ' ', tag);
    const sub = drawChildren(nodes, kids, key, path, fresh);
    if (sub.length) {
      const ul = document.createElement('ul');
      ul.append(...sub);
      li.append(ul);
    }
    return li;
  });
}

function value(v) {
  if (v === null) return 'null';
  if (typeof v === 'object' && v.ref) return v.ref;
  return String(v);
}

/**
 * The formulas over the precondition behind the inputs: the one solved after the run for the
 * next input, else (while the next is not solved yet) the one whose model is this run's input.
 */
function describeFormula({ formula, inputFormula }) {
  const box = document.createElement('div');
  box.dataset.ccFormula = '';
  const shown = formula ?? inputFormula;
  if (!shown) return box;
  const h = document.createElement('h4');
  h.textContent = formula ? 'Solved for the next input' : 'This input is a model of';
  const pre = document.createElement('pre');
  pre.className = 'cc-formula';
  pre.textContent = shown;
  box.append(h, pre);
  return box;
}

/** The run's input heap in words: receiver, arguments and objects. */
function describeInput(run, phase, test, running = false, lastFinished = null) {
  const box = document.createElement('div');
  const h = document.createElement('h4');
  h.textContent = `Run ${run + 1}: ${phase === 1 ? 'phase 1 (from the precondition)' : 'phase 2 (solved for an unexplored node)'}`;
  box.append(h);
  if (!test) {
    const p = document.createElement('p');
    p.className = 'hint';
    p.textContent = running ? 'Running this input…' : 'Same input as an earlier run (no new test).';
    box.append(p);
    if (lastFinished) {
      const h2 = document.createElement('h4');
      h2.textContent = 'The last input that finished';
      box.append(h2, heapText(lastFinished));
    }
    return box;
  }
  box.append(heapText(test));
  return box;
}

/** A test's input heap as text: receiver, arguments and objects. */
function heapText(test) {
  const pre = document.createElement('pre');
  pre.className = 'cc-heap';
  const lines = [`test ${test.name} (${test.validity}, ${test.outcome} ${test.expected})`];
  if (test.input.receiver) lines.push(`this = ${test.input.receiver}`);
  if (test.input.args.length) lines.push(`args = (${test.input.args.map(value).join(', ')})`);
  for (const o of test.input.objects) {
    lines.push(`${o.id}: ${o.class} { ${Object.entries(o.fields).map(([f, v]) => `${f}: ${value(v)}`).join(', ')} }`);
  }
  pre.textContent = lines.join('\n');
  return pre;
}

/** What the loop did after a run: the nodes it tried, by outcome, and the one it solved. */
function triedText(tried) {
  const by = {};
  for (const t of tried) by[t.outcome] = (by[t.outcome] ?? 0) + 1;
  const solved = tried.find((t) => t.outcome === 'model');
  const parts = Object.entries(by).map(([k, n]) => `${n} ${k}`).join(', ');
  return `${tried.length} node${tried.length === 1 ? '' : 's'} (${parts})${solved ? `; solved node ${solved.node} for the next input` : ''}`;
}

/** A concolicRun result's summary line (`summary` is a RunSummary; its loop's counts under
 * `concolic`). */
function summaryText(result) {
  const s = result.summary;
  const c = s.concolic;
  return `${s.tests} tests (${c.phase1_inputs} from phase 1, ${c.phase2_inputs} from phase 2), ` +
    `branch coverage by valid inputs ${s.branches_covered_valid}/${s.branches_total}, ${s.invalid_inputs} invalid; ` +
    `${c.runs} runs, solver calls p1/p2 ${c.phase1_calls}/${c.phase2_calls}, ` +
    `pruned ${c.pruned_unsat} unsat + ${c.pruned_unknown} undecided; Z3 asked ${result.sent_to_z3} times`;
}
