// Draws the fully symbolic heap of a `symheap` state (HeapView.symheap, see
// crates/heaplab-wasm/src/explore.rs) as paper 003 draws it: references are circles, locations
// are boxes (one row per field; a reference field points to the circle of the reference it
// holds), null is its own box, and a reference with the guarded value set
// {(g1, l1), (g2, null), ...} has one arrow per pair, labelled with its guard (one conjunct a
// line, over the inputs' source names). The method's inputs and locals point to their
// references' circles.
//
// A concrete world (`world`: for each reference of `view.symheap.refs`, the index of its entry
// whose guard holds) highlights the one heap of that world: each circle's true arrow is drawn
// strong (`data-world="on"`), the others and the boxes no true arrow reaches are dimmed.
// Laid out by dagre from left to right, deterministic for the same view.

import { graphlib, layout as dagreLayout } from '@dagrejs/dagre';

const SVG_NS = 'http://www.w3.org/2000/svg';
const INK = '#1f2330';
const MUTED = '#5b6275';
const EDGE = '#4b5163';
const GUARD = '#0e7490';
const WORLD = '#7c3aed';
const INPUT_HEADER = '#ede9fe';
const NEW_HEADER = '#dcfce7';
const REF_FILL = '#f0f9ff';
const M = { font: 12, charW: 7.25, row: 21, header: 23, pad: 8, cell: 14, gap: 14 };
/** Guard lines shown on an arrow at most (the whole guard is the arrow's tooltip). */
const MAX_GUARD_LINES = 4;
const MAX_LINE_CHARS = 34;

function svgEl(tag, attrs = {}, text) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) el.setAttribute(k, String(v));
  if (text !== undefined) el.textContent = text;
  return el;
}

const width = (text) => text.length * M.charW;
const cut = (text, max = MAX_LINE_CHARS) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);
const isRefValue = (v) => v?.kind === 'symref';

/** A guard as label lines: one conjunct a line (`&& ` leading the later ones). */
export function guardLines(guard) {
  if (!guard || guard === 'always') return [];
  const parts = splitTop(guard, ' && ');
  const lines = parts.map((p, i) => cut(i ? `&& ${p}` : p));
  if (lines.length > MAX_GUARD_LINES) return [...lines.slice(0, MAX_GUARD_LINES - 1), `&& … (${lines.length - MAX_GUARD_LINES + 1} more)`];
  return lines;
}

/** Splits `text` at `sep` outside parentheses. */
function splitTop(text, sep) {
  const out = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (depth === 0 && text.startsWith(sep, i)) {
      out.push(text.slice(start, i));
      start = i + sep.length;
      i += sep.length - 1;
    }
  }
  out.push(text.slice(start));
  return out;
}

function valueText(v) {
  switch (v?.kind) {
    case 'int': case 'bool': return v.text;
    case 'null': return 'null';
    case 'unread': return '?';
    case 'void': return 'void';
    default: return '';
  }
}

/** The scene: nodes with sizes and edges, before layout. */
function buildScene(view) {
  const sh = view.symheap;
  const nodes = new Map();
  const edges = [];
  const refIds = new Set(sh.refs.map((r) => r.id));
  const pointsToRef = (v) => isRefValue(v) && refIds.has(v.id);
  const addHolder = (key, name, value, title) => {
    const pointer = pointsToRef(value);
    const text = pointer ? '' : cut(valueText(value), 24);
    nodes.set(key, {
      key, shape: 'root', name, value, text, title,
      width: Math.ceil(width(name) + 6 + (pointer ? M.cell + 4 : width(text) + 2 * M.pad)), height: M.row + 4,
    });
    if (pointer) edges.push({ key: `${key}>`, from: key, to: `ref:${value.id}`, row: 0, kind: 'hold' });
  };
  for (const root of view.roots ?? []) addHolder(`root:${root.name}`, root.name, root.value, `input ${root.name}`);
  const frames = view.frames ?? [];
  frames.forEach((frame, i) => {
    const innermost = i === frames.length - 1;
    for (const local of frame.locals ?? []) {
      if ((view.roots ?? []).some((r) => r.name === local.name && JSON.stringify(r.value) === JSON.stringify(local.value))) continue;
      const name = innermost ? local.name : `${local.name} (call ${i + 1})`;
      addHolder(`local:${i}:${local.name}`, name, local.value, `a local of ${frame.unit}`);
    }
  });
  if (pointsToRef(view.returned)) addHolder('root:result', 'result', view.returned, 'the returned value');
  for (const ref of sh.refs) {
    const label = ref.input ?? ref.id;
    const sub = !ref.input && ref.copyOf ? `= ${ref.copyOf}` : '';
    const r = Math.max(17, Math.ceil(Math.max(width(label), width(sub) * 0.85) / 2 + 6));
    nodes.set(`ref:${ref.id}`, { key: `ref:${ref.id}`, shape: 'ref', ref, label, sub, r, width: 2 * r, height: 2 * r });
  }
  for (const loc of sh.locs) {
    const header = `${loc.id} : ${loc.class}${loc.origin === 'new' ? '  new' : ''}`;
    let w = width(header) + 2 * M.pad;
    for (const f of loc.fields) {
      const value = pointsToRef(f.value) || f.value?.kind === 'null' ? M.cell : width(cut(valueText(f.value), 24));
      w = Math.max(w, width(f.name) + M.gap + value + 2 * M.pad);
    }
    nodes.set(`loc:${loc.id}`, {
      key: `loc:${loc.id}`, shape: 'loc', loc, width: Math.ceil(w), height: M.header + loc.fields.length * M.row + (loc.fields.length ? 3 : 0),
    });
    loc.fields.forEach((f, i) => {
      if (pointsToRef(f.value)) edges.push({ key: `loc:${loc.id}.${f.name}`, from: `loc:${loc.id}`, to: `ref:${f.value.id}`, row: i, kind: 'hold' });
    });
  }
  for (const ref of sh.refs) {
    ref.entries.forEach((e, i) => {
      const to = e.loc == null ? 'null' : `loc:${e.loc}`;
      if (e.loc == null && !nodes.has('null')) nodes.set('null', { key: 'null', shape: 'null', width: 40, height: M.row + 4 });
      const lines = guardLines(e.guard);
      edges.push({
        key: `${ref.id}#${i}`, from: `ref:${ref.id}`, to, kind: 'guard', ref: ref.id, entry: i, guard: e.guard, lines,
        labelW: Math.ceil(Math.max(0, ...lines.map((l) => width(l) * 0.92)) + (lines.length ? 8 : 0)),
        labelH: lines.length ? lines.length * 15 + 4 : 0,
      });
    });
  }
  return { nodes, edges };
}

function layout(scene) {
  const g = new graphlib.Graph({ multigraph: true });
  g.setGraph({ rankdir: 'LR', nodesep: 18, ranksep: 46, edgesep: 10, marginx: 8, marginy: 8 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const n of scene.nodes.values()) g.setNode(n.key, { width: n.width, height: n.height });
  for (const e of scene.edges) {
    g.setEdge(e.from, e.to, { weight: e.kind === 'hold' ? 2 : 1, minlen: 1, width: e.labelW ?? 0, height: e.labelH ?? 0, labelpos: 'c' }, e.key);
  }
  dagreLayout(g);
  for (const n of scene.nodes.values()) {
    const p = g.node(n.key);
    n.x = p.x - n.width / 2;
    n.y = p.y - n.height / 2;
  }
  for (const e of scene.edges) {
    const p = g.edge(e.from, e.to, e.key);
    e.points = p?.points ?? [];
    e.lx = p?.x;
    e.ly = p?.y;
  }
  const gr = g.graph();
  scene.width = Math.ceil(gr.width ?? 0);
  scene.height = Math.ceil(gr.height ?? 0);
}

/** A smooth path through `points` (quadratic curves through the midpoints). */
function smooth(points) {
  const f = (n) => Math.round(n * 10) / 10;
  if (points.length < 2) return '';
  let d = `M${f(points[0].x)},${f(points[0].y)}`;
  for (let i = 1; i < points.length - 1; i++) {
    const mid = { x: (points[i].x + points[i + 1].x) / 2, y: (points[i].y + points[i + 1].y) / 2 };
    d += `Q${f(points[i].x)},${f(points[i].y)} ${f(mid.x)},${f(mid.y)}`;
  }
  const last = points[points.length - 1];
  return `${d}L${f(last.x)},${f(last.y)}`;
}

/** Where a holding edge leaves: the pointer cell of its row. */
function cellCentre(scene, e) {
  const n = scene.nodes.get(e.from);
  if (n.shape === 'root') return { x: n.x + n.width - M.cell / 2, y: n.y + n.height / 2 };
  return { x: n.x + n.width - M.pad - M.cell / 2, y: n.y + M.header + e.row * M.row + M.row / 2 + 1 };
}

/**
 * Draws `view` (with `view.symheap`) into `container`. `world`: null, or for each reference of
 * `view.symheap.refs` the index of its true entry.
 */
export function drawSymHeap(container, view, { world = null } = {}) {
  const scene = buildScene(view);
  layout(scene);
  const truth = new Map();
  if (world) view.symheap.refs.forEach((r, i) => truth.set(r.id, world[i]));
  const reached = new Set();
  if (world) {
    for (const e of scene.edges) if (e.kind === 'guard' && truth.get(e.ref) === e.entry) reached.add(e.to);
  }
  const uid = `shg${Math.random().toString(36).slice(2, 8)}`;
  const svg = svgEl('svg', {
    class: 'hg shg', role: 'img', width: scene.width, height: scene.height, viewBox: `0 0 ${scene.width} ${scene.height}`,
    'font-size': M.font, style: 'font-family: var(--mono, ui-monospace, monospace); overflow: visible',
    'aria-label': `Symbolic heap: ${view.symheap.refs.length} references, ${view.symheap.locs.length} locations${world ? ', one concrete world highlighted' : ''}`,
  });
  svg.dataset.world = world ? 'on' : 'off';
  const defs = svgEl('defs');
  for (const [name, colour] of [['arrow', EDGE], ['guard', GUARD], ['world', WORLD]]) {
    const marker = svgEl('marker', { id: `${uid}-${name}`, viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 8, markerHeight: 8, markerUnits: 'userSpaceOnUse', orient: 'auto' });
    marker.append(svgEl('path', { d: 'M0,0.5 L10,5 L0,9.5 z', fill: colour }));
    defs.append(marker);
  }
  const edgeLayer = svgEl('g', { class: 'shg-edges' });
  const labelLayer = svgEl('g', { class: 'shg-labels' });
  const nodeLayer = svgEl('g', { class: 'shg-nodes' });
  svg.append(defs, edgeLayer, nodeLayer, labelLayer);

  for (const e of scene.edges) {
    const points = [...e.points];
    if (e.kind === 'hold' && points.length) points[0] = cellCentre(scene, e);
    const on = e.kind === 'guard' && world ? truth.get(e.ref) === e.entry : null;
    const dim = world && (e.kind === 'guard' ? !on : !reached.has(e.from) && e.from.startsWith('loc:'));
    const colour = on ? WORLD : e.kind === 'guard' ? GUARD : EDGE;
    const path = svgEl('path', {
      d: smooth(points), fill: 'none', stroke: colour, 'stroke-width': on ? 2.6 : e.kind === 'guard' ? 1.4 : 1.3,
      'stroke-dasharray': e.kind === 'guard' && !on && e.guard !== 'always' ? '6 3' : null,
      'marker-end': `url(#${uid}-${on ? 'world' : e.kind === 'guard' ? 'guard' : 'arrow'})`, opacity: dim ? 0.18 : 1,
      'stroke-linecap': 'round',
    });
    path.dataset.edge = e.key;
    if (e.kind === 'guard') {
      path.dataset.ref = e.ref;
      path.dataset.guard = e.guard;
      if (world) path.dataset.world = on ? 'on' : 'off';
      path.append(svgEl('title', {}, `${e.guard === 'always' ? 'always' : `when ${e.guard}`}: ${e.ref} → ${e.to === 'null' ? 'null' : e.to.slice(4)}`));
    }
    edgeLayer.append(path);
    if (e.kind === 'guard' && e.lines.length && e.lx != null) {
      const g = svgEl('g', { transform: `translate(${e.lx - e.labelW / 2},${e.ly - e.labelH / 2})`, opacity: dim ? 0.25 : 1, 'data-label': e.key });
      g.append(svgEl('rect', { width: e.labelW, height: e.labelH, rx: 4, fill: on ? '#f5f3ff' : '#fff', stroke: on ? WORLD : '#cbd5e1', 'stroke-width': on ? 1.2 : 0.8, opacity: 0.95 }));
      e.lines.forEach((line, i) => g.append(svgEl('text', {
        x: 4, y: 2 + i * 15 + 8, 'dominant-baseline': 'central', fill: on ? WORLD : GUARD, 'font-size': M.font * 0.92, 'font-weight': on ? 700 : 400,
      }, line)));
      g.append(svgEl('title', {}, `guard: ${e.guard}`));
      labelLayer.append(g);
    }
  }
  for (const n of scene.nodes.values()) {
    const g = svgEl('g', { transform: `translate(${n.x},${n.y})`, 'data-key': n.key });
    const dim = world && (n.shape === 'loc' || n.shape === 'null') && !reached.has(n.key);
    if (dim) g.setAttribute('opacity', '0.3');
    g.append(...drawNode(n));
    if (n.shape === 'ref') {
      g.dataset.ref = n.ref.id;
      g.dataset.entries = String(n.ref.entries.length);
    }
    if (n.shape === 'loc') g.dataset.loc = n.loc.id;
    if (n.shape === 'root') g.dataset.root = n.name;
    nodeLayer.append(g);
  }
  container.replaceChildren(svg);
  return svg;
}

function drawNode(n) {
  switch (n.shape) {
    case 'ref': {
      const copy = n.sub ? ` (a copy of ${n.ref.copyOf}: the same value set)` : '';
      const tip = `${n.label}${copy}: a reference; ${n.ref.entries.length === 1 ? 'it denotes one location' : `one arrow per (guard, location) pair of its value set — exactly one guard holds in each world`}`;
      return [
        svgEl('circle', { cx: n.r, cy: n.r, r: n.r - 0.8, fill: REF_FILL, stroke: GUARD, 'stroke-width': 1.4 }),
        svgEl('text', { x: n.r, y: n.sub ? n.r - 6 : n.r, 'text-anchor': 'middle', 'dominant-baseline': 'central', fill: INK, 'font-weight': 700 }, n.label),
        ...(n.sub ? [svgEl('text', { x: n.r, y: n.r + 8, 'text-anchor': 'middle', 'dominant-baseline': 'central', fill: MUTED, 'font-size': M.font * 0.85 }, n.sub)] : []),
        svgEl('title', {}, tip),
      ];
    }
    case 'null':
      return [
        svgEl('rect', { width: n.width, height: n.height, rx: 4, fill: '#f8fafc', stroke: EDGE, 'stroke-width': 1.2 }),
        svgEl('text', { x: n.width / 2, y: n.height / 2, 'text-anchor': 'middle', 'dominant-baseline': 'central', fill: MUTED, 'font-weight': 700 }, 'null'),
      ];
    case 'root': {
      const cy = n.height / 2;
      const out = [svgEl('text', { x: 0, y: cy, 'dominant-baseline': 'central', fill: INK, 'font-weight': 700 }, n.name)];
      const x = width(n.name) + 6;
      if (!n.text) {
        out.push(svgEl('rect', { x, y: cy - M.cell / 2, width: M.cell, height: M.cell, rx: 2, fill: '#fbfbfe', stroke: EDGE }));
        out.push(svgEl('circle', { cx: x + M.cell / 2, cy, r: M.cell * 0.19, fill: EDGE }));
      } else {
        const w = n.width - x;
        out.push(svgEl('rect', { x, y: cy - M.row / 2 + 1, width: w, height: M.row - 2, rx: 3, fill: '#fbfbfe', stroke: EDGE }));
        out.push(svgEl('text', { x: x + w / 2, y: cy, 'text-anchor': 'middle', 'dominant-baseline': 'central', fill: INK }, n.text));
      }
      out.push(svgEl('title', {}, n.title));
      return out;
    }
    default: {
      const { loc } = n;
      const out = [
        svgEl('rect', { width: n.width, height: n.height, rx: 5, fill: '#fff', stroke: EDGE, 'stroke-width': 1.2 }),
        svgEl('path', { d: `M0.6,${M.header}V5Q0.6,0.6 5,0.6H${n.width - 5}Q${n.width - 0.6},0.6 ${n.width - 0.6},5V${M.header}Z`, fill: loc.origin === 'new' ? NEW_HEADER : INPUT_HEADER }),
        svgEl('line', { x1: 0, y1: M.header, x2: n.width, y2: M.header, stroke: EDGE, 'stroke-width': 0.8 }),
      ];
      const title = svgEl('text', { x: M.pad, y: M.header / 2, 'dominant-baseline': 'central', fill: INK });
      title.append(svgEl('tspan', { 'font-weight': 700 }, loc.id), svgEl('tspan', { fill: MUTED }, ` : ${loc.class}${loc.origin === 'new' ? '  new' : ''}`));
      out.push(title);
      loc.fields.forEach((f, i) => {
        const y = M.header + i * M.row;
        const cy = y + M.row / 2 + 1;
        if (i > 0) out.push(svgEl('line', { x1: 4, y1: y, x2: n.width - 4, y2: y, stroke: '#e2e5ee' }));
        out.push(svgEl('text', { x: M.pad, y: cy, 'dominant-baseline': 'central', fill: MUTED }, f.name));
        const cx = n.width - M.pad - M.cell;
        if (isRefValue(f.value) || f.value?.kind === 'null') {
          out.push(svgEl('rect', { x: cx, y: cy - M.cell / 2, width: M.cell, height: M.cell, rx: 2, fill: '#fbfbfe', stroke: EDGE }));
          if (f.value.kind === 'null') out.push(svgEl('line', { x1: cx + 2, y1: cy + M.cell / 2 - 2, x2: cx + M.cell - 2, y2: cy - M.cell / 2 + 2, stroke: EDGE, 'stroke-width': 1.3 }));
          else out.push(svgEl('circle', { cx: cx + M.cell / 2, cy, r: M.cell * 0.19, fill: EDGE }));
        } else {
          const text = cut(valueText(f.value), 24);
          out.push(svgEl('text', { x: n.width - M.pad, y: cy, 'text-anchor': 'end', 'dominant-baseline': 'central', fill: f.value?.kind === 'unread' ? MUTED : INK }, text));
        }
      });
      out.push(svgEl('title', {}, `${loc.id}: ${loc.origin === 'new' ? 'a location the method allocated' : 'a location of the input heap (it exists in the worlds where a reference denotes it)'}`));
      return out;
    }
  }
}
