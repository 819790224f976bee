// The execution tree of an exploration: decisions (lazy-initialization choices, predicate
// unfoldings, branches) as inner nodes, path ends as leaves coloured by outcome.
//
// Drawn left to right so that each edge has room for its label (`o1.root = fresh o2`) on the
// horizontal segment into the child. Layout is d3-hierarchy's tidy tree (draw/tree-layout.js),
// recomputed at most once per animation frame (and less often when a layout gets slow), so a run
// that adds hundreds of nodes a second costs one layout per frame, not one per node; a large
// tree is laid out in a worker of its own, off the main thread. Only the nodes inside the
// viewport get DOM elements; when too many would be visible the whole view is drawn as a few
// aggregate paths (the overview), so pan and zoom stay smooth at tens of thousands of nodes
// (tests/bench/tree-layout.mjs measures the layout).

import { exportPicture } from '../draw/export.js';
import { COL, layoutTree, ROW } from '../draw/tree-layout.js';
const STUB = 16; // the horizontal stub out of a parent before its edges fan out
const CHAR_W = 6.7; // width of one 11px monospace character, to cut labels to their edge
// From this many nodes the layout runs in the layout worker: a millisecond or more per thousand
// nodes, and more in a deep tree (a `lazy` run's tree of some 19,000 nodes, laid out in the
// frame, made a main-thread task of 70-100 ms).
const WORKER_LAYOUT_NODES = 5000;
const DETAIL_LIMIT = 400; // more visible nodes than this: draw the overview instead
const NEW_PER_FRAME = 60; // node elements made per frame at most (the rest in the next frames)
const LABEL_MIN_SCALE = 0.45; // below this zoom, labels are unreadable: leave them out
const READABLE_K = 0.8; // Fit never zooms out further than this: labels stay readable
const MIN_K = 0.01;
const MAX_K = 3;
const SVG_NS = 'http://www.w3.org/2000/svg';

// A glyph in each leaf, so that outcomes do not rest on colour alone.
const OUTCOMES = {
  returned: { word: 'test', glyph: '✓', title: 'returned: a test' },
  error: { word: 'error', glyph: '!', title: 'error found' },
  bounded: { word: 'bounded', glyph: '⋯', title: 'cut by a bound' },
  discarded: { word: 'infeasible', glyph: '∅', title: 'discarded: infeasible' },
  internal: { word: 'internal', glyph: '?', title: 'internal error of the engine' },
  invalid: { word: 'invalid input', glyph: '✗', title: 'the input violates requires' },
};

// ---- culling (pure; also run by tests/bench/tree-layout.mjs in node) ---------------------------

/**
 * The ids whose drawing (node, label and the edge from its parent) meets `rect` (layout
 * coordinates), in id order.
 */
export function visibleIds(nodes, layout, rect) {
  const out = [];
  const { x, y, count } = layout;
  for (let i = 0; i < count; i++) {
    const p = nodes[i]?.parent;
    const py = p != null && p >= 0 && p < i ? y[p] : y[i];
    const left = x[i] - COL;
    const right = x[i] + 10;
    const top = Math.min(py, y[i]) - ROW / 2;
    const bottom = Math.max(py, y[i]) + ROW / 2;
    if (right >= rect.x0 && left <= rect.x1 && bottom >= rect.y0 && top <= rect.y1) out.push(i);
  }
  return out;
}

// ---- the view ---------------------------------------------------------------------------------

export function mount(el, store) {
  el.classList.add('tree-view');
  el.innerHTML = `
    <div class="tree-toolbar">
      <span class="tree-count" aria-live="polite"></span>
      <span class="tree-buttons">
        <button type="button" data-zoom="out" title="Zoom out (−)" aria-label="Zoom out">−</button>
        <button type="button" data-zoom="in" title="Zoom in (+)" aria-label="Zoom in">+</button>
        <button type="button" data-zoom="fit" title="Fit the tree at a size where its labels stay readable (0)">Fit</button>
        <button type="button" data-zoom="all" title="The whole tree, however small">Whole</button>
        <button type="button" data-zoom="newest" title="Show the newest nodes and follow the exploration (End)">Newest</button>
        <button type="button" data-export="svg" aria-label="Save the tree as SVG" title="Save the drawn tree as an SVG picture (for slides)">SVG</button>
        <button type="button" data-export="png" aria-label="Save the tree as PNG" title="Save the drawn tree as a PNG picture (for slides)">PNG</button>
      </span>
    </div>
    <div class="tree-canvas">
      <svg class="tree-svg" role="tree" aria-label="Execution tree" tabindex="0"
        aria-describedby="tree-help">
        <defs>
          <linearGradient id="tree-fade-gradient" x1="0" x2="1" y1="0" y2="0">
            <stop offset="0.8" stop-color="white"/><stop offset="1" stop-color="white" stop-opacity="0"/>
          </linearGradient>
          <mask id="tree-fade" maskContentUnits="objectBoundingBox">
            <rect width="1" height="1" fill="url(#tree-fade-gradient)"/>
          </mask>
          <pattern id="tree-stripes" width="4" height="4" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
            <rect width="4" height="4" class="tree-stripe-bg"/><rect width="2" height="4" class="tree-stripe"/>
          </pattern>
        </defs>
        <g class="tree-viewport">
          <g class="tree-overview"></g>
          <g class="tree-links"></g>
          <g class="tree-nodes"></g>
        </g>
      </svg>
      <p class="tree-empty">No exploration yet. Pick a method, then Run or Step.</p>
    </div>
    <p id="tree-help" class="tree-help">Drag to pan, wheel to zoom; arrow keys move the selection, 0 fits.</p>
    <ul class="tree-legend" aria-label="Outcome colours">
      ${Object.entries(OUTCOMES).map(([k, o]) => `<li data-outcome="${k}" title="${o.title}"><span class="tree-swatch" aria-hidden="true">${o.glyph}</span>${o.word}</li>`).join('')}
    </ul>
  `;
  const view = createTreeView(el, store);
  view.sync(store.getState());
  store.subscribe((state, action) => {
    if (action.type === 'explore/step' || action.type === 'explore/stepOver' || action.type === 'explore/run') view.follow();
    if (state.explore) view.sync(state);
  });
}

/** The view's state and its drawing; `sync(state)` is cheap and schedules the real work. */
function createTreeView(el, store) {
  const svg = el.querySelector('svg');
  const viewport = svg.querySelector('.tree-viewport');
  const nodeLayer = svg.querySelector('.tree-nodes');
  const linkLayer = svg.querySelector('.tree-links');
  const overviewLayer = svg.querySelector('.tree-overview');
  const empty = el.querySelector('.tree-empty');
  const countLine = el.querySelector('.tree-count');

  const s = {
    runId: null,
    nodes: [],
    seenVersion: -1,
    seenLength: 0,
    freshFrom: 0, // nodes with id >= freshFrom were added by the last change of the tree
    selected: null,
    current: null, // the node of the last event
    layout: layoutTree([], 0),
    layoutVersion: 0,
    styleVersion: 0,
    t: { k: 1, x: 0, y: 0 }, // screen = layout * k + (x, y)
    placed: false, // the initial transform has been chosen
    status: 'idle', // the exploration's status at the last sync
    fitPending: false, // fit once the finished run's tree is laid out and the canvas has a size
    following: true, // pan to the newest nodes as they arrive
    elements: new Map(), // id -> { g, link, lv, sv, labels }
    mode: 'detail',
    overview: null, // what the overview layer shows: { rect, lv, sv, bucket }
    nextLayoutAt: 0,
    layoutPending: null, // the layout asked of the layout worker: { id, started, nodes }
  };
  let frame = 0;
  let layoutTimer = 0;
  // The layout worker (null until needed, false where it failed) and its last request's id.
  let layoutWorkerState = null;
  let layoutAsked = 0;
  let tween = 0;

  // ---- state in -------------------------------------------------------------------------------
  function sync(state) {
    const ex = state.explore;
    if (ex.runId !== s.runId) reset(ex.runId);
    const tree = ex.tree ?? { nodes: [], version: 0 };
    let styleChanged = false;
    if (tree.nodes !== s.nodes || tree.version !== s.seenVersion) {
      if (tree.nodes !== s.nodes) s.seenLength = 0;
      s.freshFrom = freshFrom(ex, tree);
      s.nodes = tree.nodes;
      s.seenVersion = tree.version;
      s.seenLength = tree.nodes.length;
      styleChanged = true;
    }
    // A run that just ended fits the tree once its last nodes are laid out (unless the user
    // has moved it meanwhile): a finished tree is shown whole, or at a readable size.
    if (ex.status !== s.status) {
      if (ex.status === 'done' && s.status !== 'done' && s.following) s.fitPending = true;
      s.status = ex.status;
      schedule();
    }
    // A finished run has no "newest" nodes any more: drop their highlight.
    if (ex.status === 'done' && s.freshFrom < s.nodes.length) {
      s.freshFrom = s.nodes.length;
      styleChanged = true;
    }
    const current = ex.lastEvent?.node ?? null;
    if (ex.selected !== s.selected || current !== s.current) {
      const moved = ex.selected !== s.selected;
      s.selected = ex.selected;
      s.current = current;
      styleChanged = true;
      if (moved && s.selected != null && s.selected < s.layout.count) ensureVisible([s.selected], false);
    }
    if (styleChanged) {
      s.styleVersion++;
      schedule();
    }
  }

  /**
   * The first of the nodes the last change added: the store's `newNodes` when it has them, else
   * the nodes beyond what this view saw before. A tree that arrives whole (a reload) has no
   * newest nodes to point at.
   */
  function freshFrom(ex, tree) {
    if (Array.isArray(ex.newNodes)) return ex.newNodes.length ? Math.min(...ex.newNodes.slice(0, 1000)) : tree.nodes.length;
    return s.seenLength === 0 ? tree.nodes.length : Math.min(s.seenLength, tree.nodes.length);
  }

  function reset(runId) {
    s.runId = runId;
    s.nodes = [];
    s.seenVersion = -1;
    s.seenLength = 0;
    s.freshFrom = 0;
    s.layout = layoutTree([], 0);
    s.layoutVersion++;
    s.layoutPending = null;
    s.placed = false;
    s.following = true;
    s.fitPending = false;
    s.overview = null;
    overviewLayer.replaceChildren();
    clearDetail();
  }

  // ---- frames: layout at most once per frame, and less often when layouts are slow --------------
  function schedule() {
    if (!frame) frame = requestAnimationFrame(onFrame);
  }

  function onFrame() {
    frame = 0;
    if (s.nodes.length !== s.layout.count && !s.layoutPending) {
      const now = performance.now();
      if (now >= s.nextLayoutAt) {
        relayout(now);
      } else if (!layoutTimer) {
        layoutTimer = setTimeout(() => { layoutTimer = 0; schedule(); }, s.nextLayoutAt - now);
      }
    }
    if (s.fitPending && s.nodes.length === s.layout.count && s.layout.count > 0 && size().width > 0) {
      s.fitPending = false;
      fit();
    }
    render();
  }

  /**
   * Lays out the nodes so far: here for a small tree, in the layout worker for a large one (the
   * layout arrives in `laidOut`). A layout that took T ms runs again no sooner than 3T ms later:
   * at most a quarter of the time goes to layout however fast the explorer adds nodes (and the
   * worker leaves the engine's most of a second core).
   */
  function relayout(started) {
    const count = s.nodes.length;
    const worker = count >= WORKER_LAYOUT_NODES ? layoutWorker() : null;
    if (!worker) {
      useLayout(layoutTree(s.nodes, count));
      s.nextLayoutAt = performance.now() + 3 * (performance.now() - started);
      return;
    }
    const parents = new Int32Array(count);
    for (let i = 0; i < count; i++) parents[i] = s.nodes[i]?.parent ?? -1;
    layoutAsked += 1;
    s.layoutPending = { id: layoutAsked, started, nodes: s.nodes };
    worker.postMessage({ id: layoutAsked, parents }, [parents.buffer]);
  }

  /** The layout worker's answer: used unless the tree was replaced meanwhile. */
  function laidOut({ data: { id, layout } }) {
    const pending = s.layoutPending;
    if (!pending || pending.id !== id) return;
    s.layoutPending = null;
    // Another tree (a new run, a step back to an earlier one): lay that one out instead.
    if (pending.nodes !== s.nodes || layout.count > s.nodes.length) {
      schedule();
      return;
    }
    useLayout(layout);
    s.nextLayoutAt = performance.now() + 3 * (performance.now() - pending.started);
    schedule();
  }

  /** The layout worker, started when first needed; null where there can be none. */
  function layoutWorker() {
    if (layoutWorkerState === null && typeof Worker === 'function') {
      try {
        const worker = new Worker('layout-worker.js', { name: 'heaplab-layout' });
        worker.onmessage = laidOut;
        // Without it (a failed load), large trees are laid out here as small ones are.
        worker.onerror = () => {
          worker.terminate();
          layoutWorkerState = false;
          s.layoutPending = null;
          schedule();
        };
        layoutWorkerState = worker;
      } catch {
        layoutWorkerState = false;
      }
    }
    return layoutWorkerState || null;
  }

  function useLayout(layout) {
    const anchor = anchorNode();
    const before = anchor != null && anchor < s.layout.count ? toScreen(anchor) : null;
    s.layout = layout;
    s.layoutVersion++;
    if (!s.placed) {
      placeInitially();
    } else if (before) {
      // Keep the node the user looks at where it was, so that new siblings do not make it jump.
      const after = toScreen(anchor);
      s.t = { ...s.t, x: s.t.x + before.x - after.x, y: s.t.y + before.y - after.y };
    }
    if (s.following && s.freshFrom < s.layout.count) {
      if (!showWholeTree()) {
        const fresh = [];
        for (let i = s.freshFrom; i < s.layout.count; i++) fresh.push(i);
        ensureVisible(fresh, true, true);
      }
    }
  }

  function anchorNode() {
    if (s.following && s.current != null) return s.current;
    return s.selected ?? s.current ?? (s.layout.count > 0 ? 0 : null);
  }

  function placeInitially() {
    const { width, height } = size();
    if (s.layout.count === 0 || width === 0) return;
    const rootLabel = (s.nodes[0]?.label ?? '').length * CHAR_W;
    s.t = { k: 1, x: Math.min(24 + rootLabel, width / 3), y: height / 2 - s.layout.y[0] };
    s.placed = true;
  }

  // ---- geometry ---------------------------------------------------------------------------------
  // The canvas size, kept by the ResizeObserver below: reading clientWidth after the frame's
  // DOM changes forced a style and layout pass each time (a sixth of a big run's main thread).
  let canvas = null;
  function size() {
    canvas ??= { width: svg.clientWidth, height: svg.clientHeight };
    return canvas;
  }

  function toScreen(id) {
    return { x: s.layout.x[id] * s.t.k + s.t.x, y: s.layout.y[id] * s.t.k + s.t.y };
  }

  function visibleRect() {
    const { width, height } = size();
    const pad = 60;
    return {
      x0: (-pad - s.t.x) / s.t.k, x1: (width + pad - s.t.x) / s.t.k,
      y0: (-pad - s.t.y) / s.t.k, y1: (height + pad - s.t.y) / s.t.k,
    };
  }

  /**
   * Pans as little as needed to bring `ids` (and the edges into them) into view. With `context`,
   * also pans right as far as the nodes allow while the tree's left part is cut off, so the
   * ancestors of new nodes stay in sight.
   */
  function ensureVisible(ids, animate, context = false) {
    const { width, height } = size();
    if (ids.length === 0 || width === 0) return;
    let x0 = Infinity; let x1 = -Infinity; let y0 = Infinity; let y1 = -Infinity;
    for (const id of ids.slice(0, 200)) {
      const p = toScreen(id);
      x0 = Math.min(x0, p.x - (COL - STUB) * s.t.k);
      x1 = Math.max(x1, p.x + 16);
      y0 = Math.min(y0, p.y - ROW);
      y1 = Math.max(y1, p.y + ROW);
    }
    const margin = 24;
    let dx = 0;
    let dy = 0;
    if (x1 - x0 > width - 2 * margin || x0 < margin) dx = margin - x0;
    else if (x1 > width - margin) dx = width - margin - x1;
    else if (context) {
      const treeLeft = s.t.x - (28 + (s.nodes[0]?.label ?? '').length * CHAR_W) * s.t.k;
      if (treeLeft < margin) dx = Math.max(0, Math.min(width - margin - x1, margin - treeLeft));
    }
    if (y1 - y0 > height - 2 * margin) dy = height / 2 - (y0 + ROW);
    else if (y0 < margin) dy = margin - y0;
    else if (y1 > height - margin) dy = height - margin - y1;
    if (dx !== 0 || dy !== 0) moveTo({ ...s.t, x: s.t.x + dx, y: s.t.y + dy }, animate);
  }

  /** While the whole tree fits the viewport at this zoom, keep all of it in view. */
  function showWholeTree() {
    const { width, height } = size();
    const { k } = s.t;
    const margin = 16;
    const left = (-28 - (s.nodes[0]?.label ?? '').length * CHAR_W) * k; // the root's label
    const w = (s.layout.maxX + 20) * k - left;
    const h = (s.layout.maxY - s.layout.minY + ROW) * k;
    if (w > width - 2 * margin || h > height - 2 * margin) return false;
    const x0 = s.t.x + left;
    const y0 = s.t.y + (s.layout.minY - ROW / 2) * k;
    let dx = 0;
    let dy = 0;
    if (x0 < margin) dx = margin - x0;
    else if (x0 + w > width - margin) dx = width - margin - (x0 + w);
    if (y0 < margin) dy = margin - y0;
    else if (y0 + h > height - margin) dy = height - margin - (y0 + h);
    if (dx !== 0 || dy !== 0) moveTo({ ...s.t, x: s.t.x + dx, y: s.t.y + dy }, true);
    return true;
  }

  function moveTo(target, animate) {
    cancelAnimationFrame(tween);
    tween = 0;
    const reduce = matchMedia?.('(prefers-reduced-motion: reduce)').matches;
    if (!animate || reduce) {
      s.t = target;
      schedule();
      return;
    }
    const from = s.t;
    const start = performance.now();
    const step = (now) => {
      const u = Math.min(1, (now - start) / 220);
      const e = u * (2 - u);
      s.t = { k: from.k + (target.k - from.k) * e, x: from.x + (target.x - from.x) * e, y: from.y + (target.y - from.y) * e };
      render();
      tween = u < 1 ? requestAnimationFrame(step) : 0;
    };
    tween = requestAnimationFrame(step);
  }

  function zoomAt(factor, cx, cy, animate) {
    const k = Math.min(MAX_K, Math.max(MIN_K, s.t.k * factor));
    const f = k / s.t.k;
    moveTo({ k, x: cx - (cx - s.t.x) * f, y: cy - (cy - s.t.y) * f }, animate);
  }

  /**
   * Fit: the whole tree when it fits at a readable size; otherwise the readable size, showing
   * as much of the depth as fits, around the selected node (or the root).
   */
  function fit() {
    const { width, height } = size();
    if (s.layout.count === 0) return;
    const w = s.layout.maxX + COL * 0.6 + 80;
    const h = s.layout.maxY - s.layout.minY + 2 * ROW;
    const whole = Math.min(width / w, height / h);
    if (whole >= READABLE_K) {
      fitAll();
      return;
    }
    const k = Math.max(READABLE_K, Math.min(1.2, width / w));
    const focus = s.selected != null && s.selected < s.layout.count ? s.selected : 0;
    const rootLabel = (s.nodes[0]?.label ?? '').length * CHAR_W;
    const x = Math.min(24 + rootLabel * k, width - 40 - s.layout.x[focus] * k);
    const y = height / 2 - s.layout.y[focus] * k;
    moveTo({ k, x, y }, true);
  }

  /** The whole tree in view, however small its labels get. */
  function fitAll() {
    const { width, height } = size();
    if (s.layout.count === 0) return;
    const w = s.layout.maxX + COL * 0.6 + 80;
    const h = s.layout.maxY - s.layout.minY + 2 * ROW;
    const k = Math.min(1.2, Math.max(MIN_K, Math.min(width / w, height / h)));
    const x = (width - (s.layout.maxX + 80 - COL * 0.6) * k) / 2;
    const y = (height - (s.layout.maxY + s.layout.minY) * k) / 2;
    moveTo({ k, x, y }, true);
  }

  // ---- drawing -----------------------------------------------------------------------------------
  function render() {
    const n = s.layout.count;
    empty.hidden = s.nodes.length > 0;
    viewport.setAttribute('transform', `translate(${s.t.x},${s.t.y}) scale(${s.t.k})`);
    svg.classList.toggle('tree-small', s.t.k < LABEL_MIN_SCALE);
    // Far out, tree.css keeps dots a few screen pixels wide with `r: calc(... / var(--k))`.
    svg.style.setProperty('--k', String(s.t.k));
    countLine.textContent = describeCount();
    if (n === 0) {
      clearDetail();
      overviewLayer.replaceChildren();
      s.overview = null;
      return;
    }
    const rect = visibleRect();
    // A small tree is drawn whole: panning then only moves it, and every node can be found
    // (tests, find-in-page) even when it is scrolled out of view.
    const ids = n <= DETAIL_LIMIT ? allIds(n) : visibleIds(s.nodes, s.layout, rect);
    if (ids.length > DETAIL_LIMIT) {
      s.mode = 'overview';
      if (overviewStale(rect)) drawOverview(rect);
      // The selected node stays a real, focusable element even in the overview.
      drawDetail(s.selected != null && s.selected < n ? [s.selected] : []);
    } else {
      s.mode = 'detail';
      if (s.overview) {
        overviewLayer.replaceChildren();
        s.overview = null;
      }
      drawDetail(ids);
    }
    if (s.elements.has(s.selected)) svg.setAttribute('aria-activedescendant', nodeDomId(s.selected));
    else svg.removeAttribute('aria-activedescendant');
  }

  // The count line, made again only when the tree changed (counting a large tree's ends at every
  // frame was a few milliseconds each).
  let counted = { nodes: null, version: -1, text: '' };
  function describeCount() {
    const total = s.nodes.length;
    if (total === 0) return '';
    if (counted.nodes === s.nodes && counted.version === s.seenVersion) return counted.text;
    let ends = 0;
    for (const node of s.nodes) if (node.outcome) ends++;
    const text = `${total} state${total === 1 ? '' : 's'}, ${ends} path end${ends === 1 ? '' : 's'}`;
    counted = { nodes: s.nodes, version: s.seenVersion, text };
    return text;
  }

  function clearDetail() {
    for (const { g, link } of s.elements.values()) {
      g.remove();
      link.remove();
    }
    s.elements.clear();
  }

  function drawDetail(ids) {
    const keep = new Set(ids);
    for (const [id, entry] of s.elements) {
      if (!keep.has(id)) {
        entry.g.remove();
        entry.link.remove();
        s.elements.delete(id);
      }
    }
    const labels = s.t.k >= LABEL_MIN_SCALE;
    let created = 0;
    for (const id of ids) {
      let entry = s.elements.get(id);
      if (!entry) {
        // A frame makes at most NEW_PER_FRAME elements (style and layout grow with them); the
        // rest come in the next frames, so a burst of nodes never holds the page.
        if (created++ >= NEW_PER_FRAME) {
          schedule();
          continue;
        }
        entry = { g: createNodeElement(id), link: document.createElementNS(SVG_NS, 'path'), lv: -1, sv: -1, labels: null };
        entry.link.setAttribute('class', 'tn-link');
        entry.link.dataset.link = String(id);
        s.elements.set(id, entry);
        nodeLayer.append(entry.g);
        linkLayer.append(entry.link);
      }
      if (entry.lv !== s.layoutVersion || entry.labels !== labels) {
        placeNodeElement(entry, id, labels);
        entry.lv = s.layoutVersion;
        entry.labels = labels;
        entry.sv = -1;
      }
      if (entry.sv !== s.styleVersion) {
        styleNodeElement(entry, id);
        entry.sv = s.styleVersion;
      }
    }
  }

  function createNodeElement(id) {
    const g = document.createElementNS(SVG_NS, 'g');
    g.setAttribute('class', 'tn');
    g.setAttribute('role', 'treeitem');
    g.id = nodeDomId(id);
    g.dataset.node = String(id);
    // The edge into the node lives in the links layer, so the group's box (what a click on
    // the node aims at) is just the node and its label.
    g.innerHTML = '<rect class="tn-hit"/><text class="tn-label"/>'
      + '<circle class="tn-dot"/><text class="tn-out" aria-hidden="true"/><title></title>';
    return g;
  }

  function placeNodeElement({ g, link }, id, labels) {
    const { x, y } = s.layout;
    const node = s.nodes[id];
    g.setAttribute('transform', `translate(${x[id]},${y[id]})`);
    const p = node.parent;
    const hasParent = p != null && p >= 0 && p < id;
    const [hit, label] = g.children;
    if (hasParent) {
      // The parent's stub, the vertical run to this row, then into the node (rounded corner).
      const [cx, cy, px, py] = [x[id], y[id], x[p], y[p]];
      const r = Math.min(6, Math.abs(py - cy));
      const turn = px + STUB;
      const d = py === cy
        ? `M${px + 6},${cy}H${cx - 6}`
        : `M${px + 6},${py}H${turn}V${py > cy ? cy + r : cy - r}Q${turn},${cy} ${turn + r},${cy}H${cx - 6}`;
      link.setAttribute('d', d);
    } else {
      link.removeAttribute('d');
    }
    const width = hasParent ? COL - STUB - 10 : 0;
    hit.setAttribute('x', String(hasParent ? -(COL - STUB) + 2 : -10));
    hit.setAttribute('y', String(-ROW / 2));
    hit.setAttribute('width', String(width + 20));
    hit.setAttribute('height', String(ROW));
    if (labels) {
      const text = node.label ?? '';
      if (hasParent) {
        label.setAttribute('x', String(-(COL - STUB) + 6));
        label.setAttribute('y', '-5');
        label.removeAttribute('text-anchor');
        label.textContent = cut(text, Math.floor((COL - STUB - 22) / CHAR_W));
      } else {
        label.setAttribute('x', '-12');
        label.setAttribute('y', '4');
        label.setAttribute('text-anchor', 'end');
        label.textContent = cut(text, 28);
      }
      // A cut label fades out instead of ending in "…": what is shown stays a part of the
      // item's name (the aria-label has it whole), as WCAG's "label in name" asks.
      label.classList.toggle('tn-cut', label.textContent.length < text.length);
    } else {
      label.textContent = '';
    }
  }

  function styleNodeElement({ g, link }, id) {
    const node = s.nodes[id];
    const outcome = node.outcome ?? null;
    const leaf = outcome != null;
    const open = !leaf && s.layout.childCount[id] === 0;
    g.dataset.outcome = outcome ?? (open ? 'open' : 'inner');
    const dot = g.querySelector('.tn-dot');
    dot.setAttribute('r', leaf ? '7.5' : '4.5');
    const glyph = g.querySelector('.tn-out');
    glyph.setAttribute('y', '0.5');
    glyph.textContent = leaf && s.t.k >= LABEL_MIN_SCALE ? OUTCOMES[outcome]?.glyph ?? '' : '';
    const selected = id === s.selected;
    g.classList.toggle('tn-selected', selected);
    g.classList.toggle('tn-fresh', id >= s.freshFrom);
    link.classList.toggle('tn-fresh', id >= s.freshFrom);
    g.classList.toggle('tn-current', id === s.current);
    g.setAttribute('aria-selected', String(selected));
    g.setAttribute('aria-level', String(s.layout.depth[id] + 1));
    const what = leaf ? `, ${OUTCOMES[outcome]?.title ?? outcome}` : open ? ', not explored yet' : '';
    const kids = node.children?.length ?? 0;
    const below = !leaf && kids > 0 ? `, ${kids} branch${kids === 1 ? '' : 'es'} below` : '';
    g.setAttribute('aria-label', `Node ${id}${node.line ? `, line ${node.line}` : ''}: ${node.label || 'start'}${what}${below}`);
    g.querySelector('title').textContent = [node.label || 'start', node.change?.formula, node.line ? `line ${node.line}` : null, node.text].filter(Boolean).join('\n');
  }

  /**
   * Whether the overview drawn last no longer covers `rect` at this zoom. The overview is drawn
   * for a region larger than the viewport, so panning and small zooms reuse it.
   */
  function overviewStale(rect) {
    const o = s.overview;
    return !o || o.lv !== s.layoutVersion || o.sv !== s.styleVersion || o.bucket !== zoomBucket()
      || rect.x0 < o.rect.x0 || rect.x1 > o.rect.x1 || rect.y0 < o.rect.y0 || rect.y1 > o.rect.y1;
  }

  function zoomBucket() {
    return Math.round(Math.log(s.t.k) / Math.log(1.5));
  }

  /** Far out: all edges as one path and the dots as one path per outcome. */
  function drawOverview(rect) {
    const w = rect.x1 - rect.x0;
    const h = rect.y1 - rect.y0;
    const big = { x0: rect.x0 - w / 2, x1: rect.x1 + w / 2, y0: rect.y0 - h / 2, y1: rect.y1 + h / 2 };
    const ids = visibleIds(s.nodes, s.layout, big);
    s.overview = { rect: big, lv: s.layoutVersion, sv: s.styleVersion, bucket: zoomBucket() };
    const { x, y } = s.layout;
    const links = [];
    const dots = new Map();
    const r = 2.5 / 1.5 ** s.overview.bucket;
    const circle = (i, radius) => `M${x[i] - radius},${y[i]}a${radius},${radius} 0 1,0 ${2 * radius},0a${radius},${radius} 0 1,0 ${-2 * radius},0`;
    for (const id of ids) {
      const p = s.nodes[id].parent;
      if (p != null && p >= 0 && p < id) links.push(`M${x[p]},${y[p]}H${x[p] + STUB}V${y[id]}H${x[id]}`);
      const key = s.nodes[id].outcome ?? 'inner';
      if (!dots.has(key)) dots.set(key, []);
      dots.get(key).push(circle(id, key === 'inner' ? r * 0.7 : r));
    }
    const parts = [`<path class="ov-links" d="${links.join('')}"/>`];
    for (const [key, d] of dots) parts.push(`<path class="ov-dots" data-outcome="${key}" d="${d.join('')}"/>`);
    const fresh = [];
    for (let i = Math.max(s.freshFrom, s.layout.count - 200); i < s.layout.count; i++) fresh.push(circle(i, 3 * r));
    if (fresh.length) parts.push(`<path class="ov-fresh" d="${fresh.join('')}"/>`);
    overviewLayer.innerHTML = parts.join('');
  }

  // ---- input -------------------------------------------------------------------------------------
  function select(id) {
    if (id == null || id < 0 || id >= s.layout.count) return;
    s.following = false;
    store.dispatch({ type: 'explore/select', node: id });
  }

  /** The node nearest to a point of the screen, within a few pixels (for the overview). */
  function nodeNear(sx, sy) {
    const lx = (sx - s.t.x) / s.t.k;
    const ly = (sy - s.t.y) / s.t.k;
    const reach = Math.max(8 / s.t.k, 6);
    let best = null;
    let bestD = reach * reach;
    const { x, y, count } = s.layout;
    for (let i = 0; i < count; i++) {
      const d = (x[i] - lx) ** 2 + (y[i] - ly) ** 2;
      if (d <= bestD) {
        bestD = d;
        best = i;
      }
    }
    return best;
  }

  let drag = null;
  svg.addEventListener('pointerdown', (e) => {
    if (e.button !== 0) return;
    drag = { id: e.pointerId, x: e.clientX, y: e.clientY, t: s.t, moved: false };
  });
  svg.addEventListener('pointermove', (e) => {
    if (!drag || drag.id !== e.pointerId) return;
    const dx = e.clientX - drag.x;
    const dy = e.clientY - drag.y;
    if (!drag.moved && Math.hypot(dx, dy) < 4) return;
    if (!drag.moved) {
      drag.moved = true;
      try {
        svg.setPointerCapture(e.pointerId);
      } catch {
        // A synthetic pointer (tests) cannot be captured; dragging still works inside the svg.
      }
      svg.classList.add('tree-dragging');
      s.following = false;
      cancelAnimationFrame(tween);
    }
    s.t = { ...drag.t, x: drag.t.x + dx, y: drag.t.y + dy };
    schedule();
  });
  const endDrag = (e) => {
    if (!drag || drag.id !== e.pointerId) return;
    // The click that ends a drag must not select: remember it for the click handler below.
    dragged = drag.moved;
    drag = null;
    svg.classList.remove('tree-dragging');
  };
  svg.addEventListener('pointerup', endDrag);
  svg.addEventListener('pointercancel', endDrag);
  let dragged = false;
  svg.addEventListener('click', (e) => {
    if (dragged) {
      dragged = false;
      return;
    }
    const hit = e.target.closest?.('[data-node]');
    if (hit) {
      select(Number(hit.dataset.node));
    } else if (s.mode === 'overview') {
      const box = svg.getBoundingClientRect();
      select(nodeNear(e.clientX - box.left, e.clientY - box.top));
    }
  });

  svg.addEventListener('wheel', (e) => {
    e.preventDefault();
    const box = svg.getBoundingClientRect();
    const unit = e.deltaMode === 1 ? 16 : e.deltaMode === 2 ? box.height : 1;
    s.following = false;
    zoomAt(Math.exp(-e.deltaY * unit * 0.0015), e.clientX - box.left, e.clientY - box.top, false);
  }, { passive: false });

  el.querySelector('.tree-buttons').addEventListener('click', (e) => {
    const kind = e.target.closest('[data-export]')?.dataset.export;
    if (kind) {
      if (s.layout.count > 0) {
        exportPicture(svg, kind, 'heaplab-tree', { content: viewport })
          .catch((err) => store.dispatch({ type: 'log/add', kind: 'export', text: err.message }));
      }
      return;
    }
    const which = e.target.closest('[data-zoom]')?.dataset.zoom;
    const { width, height } = size();
    if (which === 'in') zoomAt(1.4, width / 2, height / 2, true);
    else if (which === 'out') zoomAt(1 / 1.4, width / 2, height / 2, true);
    else if (which === 'fit') fit();
    else if (which === 'all') fitAll();
    else if (which === 'newest') showNewest();
  });

  function showNewest() {
    s.following = true;
    const n = s.layout.count;
    if (n === 0) return;
    const from = Math.min(s.freshFrom, n - 1);
    const ids = [];
    for (let i = from; i < n; i++) ids.push(i);
    if (s.t.k < LABEL_MIN_SCALE) {
      // Too far out to read: zoom back to reading size around the newest node.
      const p = toScreen(n - 1);
      zoomAt(1 / s.t.k, p.x, p.y, true);
      return;
    }
    ensureVisible(ids, true);
  }

  svg.addEventListener('keydown', (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const { width, height } = size();
    const handled = {
      ArrowLeft: () => select(parentOf(focusNode())),
      ArrowRight: () => select(firstChildOf(focusNode())),
      ArrowUp: () => select(neighbourOf(focusNode(), -1)),
      ArrowDown: () => select(neighbourOf(focusNode(), 1)),
      Home: () => select(0),
      End: () => { select(s.layout.count - 1); showNewest(); },
      Enter: () => select(focusNode()),
      '+': () => zoomAt(1.4, width / 2, height / 2, true),
      '=': () => zoomAt(1.4, width / 2, height / 2, true),
      '-': () => zoomAt(1 / 1.4, width / 2, height / 2, true),
      0: () => fit(),
    }[e.key];
    if (!handled) return;
    e.preventDefault();
    handled();
  });

  function focusNode() {
    if (s.selected != null && s.selected < s.layout.count) return s.selected;
    return s.current != null && s.current < s.layout.count ? s.current : 0;
  }

  function parentOf(id) {
    const p = s.nodes[id]?.parent;
    return p != null && p >= 0 ? p : id;
  }

  function firstChildOf(id) {
    // Children come after their parent; the middle child keeps the eye near the same row.
    const kids = [];
    for (let i = id + 1; i < s.layout.count; i++) if (s.nodes[i].parent === id) kids.push(i);
    return kids.length ? kids[Math.floor((kids.length - 1) / 2)] : id;
  }

  /** The nearest node of the same depth above (-1) or below (+1). */
  function neighbourOf(id, dir) {
    const { y, depth, count } = s.layout;
    let best = id;
    let bestD = Infinity;
    for (let i = 0; i < count; i++) {
      if (depth[i] !== depth[id] || i === id) continue;
      const d = (y[i] - y[id]) * dir;
      if (d > 0 && d < bestD) {
        bestD = d;
        best = i;
      }
    }
    return best;
  }

  // Panels start hidden (tabs): lay out again once the canvas gets a size.
  new ResizeObserver((entries) => {
    const box = entries[entries.length - 1].contentRect;
    canvas = { width: Math.round(box.width), height: Math.round(box.height) };
    if (!s.placed && s.layout.count > 0) placeInitially();
    // The canvas often changes size as a run ends (the tests appear below it): a finished tree
    // the user has not moved is fitted again.
    if (s.status === 'done' && s.following) s.fitPending = true;
    schedule();
  }).observe(svg);

  return {
    sync,
    follow() {
      s.following = true;
    },
  };
}

function allIds(n) {
  return Array.from({ length: n }, (_, i) => i);
}

function nodeDomId(id) {
  return `tree-node-${id}`;
}

function cut(text, max) {
  // Whole words only (a screen reader's name must hold the shown words); a first word longer
  // than the room is shown whole and fades out.
  if (text.length <= max) return text;
  const space = text.lastIndexOf(' ', max);
  return space > 0 ? text.slice(0, space) : text.split(' ')[0];
}
