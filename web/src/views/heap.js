// The heap of the selected state of an exploration: its title (the tree node's label, when the
// snapshot was taken, how the path ended), the heap graph (draw/heapgraph.js) with what the step
// into this state changed highlighted, a legend, and the path condition over the inputs.
// main.js fetches the HeapView when a node is selected; until it arrives the view says so.

import { drawHeap, drawLegend } from '../draw/heapgraph.js';
import { drawSymHeap } from '../draw/symheapgraph.js';
import { exportPicture } from '../draw/export.js';

const AT = {
  created: 'when the state was created',
  fork: 'at its fork',
  end: 'at the end of its path',
  live: 'now',
};

const OUTCOME_WORD = {
  returned: 'returned', error: 'error', bounded: 'bounded', discarded: 'infeasible', internal: 'internal error',
};

export function mount(el, store) {
  el.classList.add('heap-view');
  el.innerHTML = `
    <div class="heap-head">
      <h3 class="heap-title"></h3>
      <span class="heap-at"></span>
      <span class="heap-export" role="group" aria-label="Save the heap picture">
        <button type="button" data-export="svg" aria-label="Save the heap as SVG" title="Save this heap picture as SVG (for slides)">SVG</button>
        <button type="button" data-export="png" aria-label="Save the heap as PNG" title="Save this heap picture as PNG (for slides)">PNG</button>
      </span>
    </div>
    <p class="heap-empty">Run or step an exploration; click a node of the tree to see its heap</p>
    <p class="heap-loading" role="status" hidden>loading…</p>
    <div class="heap-body" hidden>
      <p class="heap-change"></p>
      <div class="heap-world" role="group" aria-label="Concrete worlds" hidden>
        <p class="heap-world-intro">Circles are references, boxes are locations; each arrow is one
          (guard, location) pair of a reference's value set, labelled with its guard. In every
          concrete input exactly one guard of each reference holds.</p>
        <div class="heap-world-bar">
          <button type="button" class="heap-world-show" title="Pick a model of the path condition and highlight the one heap it describes">Show one concrete world</button>
          <button type="button" class="heap-world-next" hidden title="Another world, different from the ones shown before">Next world</button>
          <button type="button" class="heap-world-hide" hidden>Show all guards</button>
          <span class="heap-world-status" role="status"></span>
        </div>
        <p class="heap-world-desc" hidden></p>
      </div>
      <div class="heap-graph" aria-label="Heap graph"></div>
      <div class="heap-legend"></div>
      <div class="heap-facts">
        <section class="heap-pc-section" aria-label="Path condition">
          <h4>Path condition</h4>
          <pre class="heap-pc"></pre>
        </section>
        <section class="heap-result-section" aria-label="Result" hidden>
          <h4>Result</h4>
          <p class="heap-result"></p>
        </section>
      </div>
    </div>
  `;
  const $ = (sel) => el.querySelector(sel);
  const parts = {
    title: $('.heap-title'), at: $('.heap-at'), empty: $('.heap-empty'), loading: $('.heap-loading'),
    body: $('.heap-body'), change: $('.heap-change'), graph: $('.heap-graph'), pc: $('.heap-pc'),
    resultSection: $('.heap-result-section'), result: $('.heap-result'),
    world: $('.heap-world'), worldShow: $('.heap-world-show'), worldNext: $('.heap-world-next'),
    worldHide: $('.heap-world-hide'), worldStatus: $('.heap-world-status'), worldDesc: $('.heap-world-desc'),
    legend: $('.heap-legend'),
  };
  parts.worldShow.addEventListener('click', () => {
    const { selected } = store.getState().explore;
    if (selected != null) store.dispatch({ type: 'explore/worlds', node: selected });
  });
  parts.worldNext.addEventListener('click', () => store.dispatch({ type: 'explore/worldNext' }));
  parts.worldHide.addEventListener('click', () => store.dispatch({ type: 'explore/worldsHide' }));
  drawLegend($('.heap-legend'));
  $('.heap-export').addEventListener('click', (e) => {
    const kind = e.target.closest('[data-export]')?.dataset.export;
    const picture = parts.graph.querySelector('svg');
    if (!kind || !picture) return;
    const node = store.getState().explore.selected;
    exportPicture(picture, kind, `heaplab-heap-${node ?? 'state'}`)
      .catch((err) => store.dispatch({ type: 'log/add', kind: 'export', text: err.message }));
  });
  // The panel starts hidden (tabs) and can be resized: size the picture when it gets a width.
  new ResizeObserver(() => fitGraph(parts.graph)).observe(parts.graph);

  // Redraw only when what is shown changes: a run bumps the tree many times a second.
  let shown = { runId: null, selected: undefined, view: undefined, label: undefined, outcome: undefined };
  function update(state) {
    const ex = state.explore;
    if (!ex) return;
    const node = ex.selected != null ? ex.tree?.nodes?.[ex.selected] ?? null : null;
    // `viewNode === selected` with no view: the engine has none for it (e.g. a cancelled run).
    const arrived = node != null && ex.viewNode === ex.selected;
    const view = arrived ? ex.view ?? null : null;
    const worlds = view?.symheap && ex.worlds?.node === ex.selected ? ex.worlds : null;
    const missing = arrived && !view ? ex.viewMissing : null;
    const next = { runId: ex.runId, selected: node ? ex.selected : null, view, arrived, label: node?.label, outcome: node?.outcome, worlds, missing };
    if (Object.keys(next).every((k) => next[k] === shown[k])) return;
    const graphChanged = next.view !== shown.view || next.selected !== shown.selected || next.runId !== shown.runId || next.worlds !== shown.worlds;
    const runChanged = next.runId !== shown.runId;
    shown = next;
    render(parts, node, view, arrived, graphChanged, runChanged, worlds, missing);
  }

  update(store.getState());
  // `update` compares a few references and returns early, so it can run after every action.
  store.subscribe((state) => update(state));
}

/** Why a node whose view arrived has none, in words. */
const MISSING = {
  notKept: 'No heap kept for this node: the engine keeps the heaps of the first 5000 states of a run. Its place in the tree and how it ended are above.',
  gone: 'No heap to show for this node: the engine no longer holds this run.',
};

function render(parts, node, view, arrived, graphChanged, runChanged, worlds, missing) {
  const waiting = node != null && view == null && !arrived;
  // While the next heap loads, the previous picture stays (dimmed) so that it can move into
  // the new one instead of vanishing and reappearing.
  const keep = waiting && !runChanged && parts.graph.firstChild != null;
  parts.empty.hidden = node != null;
  parts.loading.hidden = !(node != null && view == null) || keep;
  parts.loading.textContent = arrived ? MISSING[missing] ?? MISSING.gone : 'loading…';
  parts.body.hidden = view == null && !keep;
  parts.body.classList.toggle('heap-stale', keep);
  parts.body.setAttribute('aria-busy', String(waiting));
  parts.title.textContent = node ? `Node ${node.id}: ${node.label || 'start'}` : '';
  parts.at.textContent = node ? headline(node, view) : '';
  parts.at.dataset.outcome = node?.outcome ?? view?.outcome?.kind ?? '';
  if (!view) {
    if (!keep) parts.graph.replaceChildren();
    return;
  }
  const change = node.change ?? null;
  parts.change.textContent = describeChange(change, node, view.added, view.caseFormula);
  parts.change.hidden = !parts.change.textContent;
  const symbolic = Boolean(view.symheap);
  parts.world.hidden = !symbolic;
  parts.legend.hidden = symbolic;
  const world = symbolic ? renderWorlds(parts, view, worlds) : null;
  if (graphChanged) {
    if (symbolic) drawSymHeap(parts.graph, view, { world });
    else drawHeap(parts.graph, view, { highlight: change });
    fitGraph(parts.graph);
  }
  const facts = view.pathCondition ?? [];
  parts.pc.textContent = facts.length ? facts.join('\n') : 'true';
  parts.pc.classList.toggle('heap-pc-true', facts.length === 0);
  const result = describeResult(view);
  parts.resultSection.hidden = !result;
  parts.result.textContent = result;
  parts.result.dataset.outcome = view.outcome?.kind ?? '';
}

/**
 * The world controls of a `symheap` state; returns the world to highlight (for each reference
 * of `view.symheap.refs`, the index of its true entry) or null.
 */
function renderWorlds(parts, view, worlds) {
  const list = worlds?.worlds ?? [];
  const world = list.length ? list[worlds.index] ?? null : null;
  const usable = world && world.length === view.symheap.refs.length ? world : null;
  parts.worldShow.hidden = Boolean(worlds);
  parts.worldNext.hidden = !worlds || list.length < 2;
  parts.worldHide.hidden = !worlds;
  let status = '';
  if (worlds?.loading) status = 'finding a world…';
  else if (worlds && worlds.error) status = `no world: ${worlds.error}`;
  else if (worlds && !list.length) status = worlds.note ?? 'no world satisfies this path condition';
  else if (worlds) {
    const count = `${list.length}${worlds.more ? '+' : ''}`;
    status = `world ${worlds.index + 1} of ${count}${list.length > 1 || worlds.more ? ' (each a different heap)' : ' (the only one)'}`;
  }
  parts.worldStatus.textContent = status;
  parts.worldDesc.hidden = !usable;
  parts.worldDesc.textContent = usable ? describeWorld(view, usable) : '';
  return usable;
}

/** A world in words: where each input reference points (`this.head → o2, o2.next → null`). */
function describeWorld(view, world) {
  const bits = [];
  view.symheap.refs.forEach((r, i) => {
    if (!r.input) return;
    const e = r.entries[world[i]];
    bits.push(`${r.input} → ${e?.loc ?? 'null'}`);
  });
  return bits.length ? `In this world: ${bits.join(', ')}.` : '';
}

/**
 * Shrinks a picture wider than the panel, down to 75% of its natural size (text stays
 * readable); anything wider scrolls.
 */
function fitGraph(container) {
  const svg = container.querySelector('svg');
  const natural = Number(svg?.getAttribute('width'));
  if (!natural) return;
  const style = getComputedStyle(container);
  const room = container.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  if (room <= 0) return;
  svg.style.width = `${Math.round(Math.max(natural * 0.75, Math.min(natural, room)))}px`;
}

function headline(node, view) {
  const bits = [];
  if (view?.at) bits.push(`heap ${AT[view.at] ?? view.at}`);
  const outcome = node.outcome ?? view?.outcome?.kind;
  if (outcome) bits.push(outcome === 'invalid' ? 'invalid input' : OUTCOME_WORD[outcome] ?? outcome);
  return bits.join(' · ');
}

/** A case of a predicate in words: what it added (`o2 : Node; lo < o2.key; bst(ref1, lo, o2.key)`). */
function caseFormula(added) {
  if (!added) return '';
  const parts = [...added.objects, ...added.facts, ...added.predicates];
  if (parts.length === 0) return added.gone.length ? ` ${added.gone.join(', ')} is empty here.` : '';
  return ` It adds: ${parts.join('; ')}.`;
}

function describeChange(change, node, added = null, viewFormula = null) {
  if (!change) return '';
  if (change.kind === 'disjunct') {
    const which = `This step took ${node.label || `case ${change.option}`} of the predicate's definition`;
    // The engine's instantiated case (a step's event carries it, a run's node view has it); the
    // heap difference only for an engine that has none.
    const formula = change.formula ?? viewFormula;
    return formula ? `${which}: ${formula}` : `${which}.${caseFormula(added)}`;
  }
  switch (change.kind) {
    case 'lazyInit': return `This step read ${change.target} for the first time: here it is ${change.option}.`;
    case 'resolve': return `This step decided what ${change.target} is: ${node.label || change.option}.`;
    case 'unfold': return `This step unfolded the predicate instance ${change.target}.`;
    case 'branch': return `This step took the branch ${node.label || change.target}.`;
    case 'disjunct': return `This step took ${node.label || `case ${change.option}`} of the predicate's definition.`;
    default: return '';
  }
}

function valText(v) {
  switch (v?.kind) {
    case 'obj':
    case 'symref':
    case 'symloc': return v.id;
    case 'int':
    case 'bool': return v.text;
    case 'null': return 'null';
    case 'void': return 'void';
    case 'unread': return '?';
    default: return '';
  }
}

function describeResult(view) {
  const parts = [];
  if (view.outcome) parts.push(view.outcome.text || OUTCOME_WORD[view.outcome.kind] || view.outcome.kind);
  if (view.returned && view.returned.kind !== 'void' && !(view.outcome?.text ?? '').includes(valText(view.returned))) {
    parts.push(`returned ${valText(view.returned)}`);
  }
  return parts.join(' — ');
}
