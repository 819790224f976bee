// Draws a symbolic heap (a HeapView, see crates/heaplab-wasm/src/explore.rs) as an SVG picture in
// the style of a textbook figure: objects are boxes with one row per field, a reference field is a
// pointer cell with an arrow from its dot to the target box, null is a slash through the cell.
// What the explorer has not decided yet is dashed: a field not read yet (`?`), a symbolic
// reference (`ref0`, an oval: null or some object), a symbolic location (`loc1`, a box: some
// object) and a folded predicate instance (`bst(o2, lo, hi)`, a rounded tag hanging off its root).
//
// Layout is dagre's (left to right, so pointer cells on the right of a row lead into the next
// rank). The picture must not jump while the user steps: nodes are added in a fixed order
// (objects sorted by id), so the same heap always gets the same layout, and when a container is
// drawn again its elements are kept by key and moved with CSS transitions. All styling is in
// SVG attributes, so the picture looks the same wherever it is mounted (heap view, test
// thumbnails) and can be saved as a file as it is.

import { graphlib, layout as dagreLayout } from '@dagrejs/dagre';

const SVG_NS = 'http://www.w3.org/2000/svg';

const INK = '#1f2330';
const MUTED = '#5b6275';
const EDGE = '#4b5163';
const RULE = '#e2e5ee';
const HIGHLIGHT = '#7c3aed';
const MARKER_PEN = '#fef08a';
const COLOURS = {
  inputHeader: '#ede9fe',
  newHeader: '#dcfce7',
  newText: '#166534',
  symbolic: '#64748b',
  symbolicFill: '#f8fafc',
  predicate: '#0e7490',
  predicateFill: '#ecfeff',
};

/** Sizes for the full picture and the compact one (test thumbnails). */
const METRICS = {
  full: { font: 12, charW: 7.25, row: 21, header: 23, pad: 8, cell: 14, gap: 14, nodesep: 22, ranksep: 52 },
  compact: { font: 9.5, charW: 5.75, row: 15, header: 16, pad: 5, cell: 10, gap: 8, nodesep: 10, ranksep: 28 },
};

const MAX_VALUE_CHARS = 26;
let svgCount = 0;

/**
 * Draws `view` into `container`, replacing its content. `highlight` is a tree node's `change`
 * (`{ kind, target, option }`): the field or root just initialized and what it now points to,
 * the reference just resolved, or the root of the predicate just unfolded are emphasized.
 * `compact` draws a small picture without animation. When `container` already holds a picture
 * drawn here, its elements are reused so that positions animate from the old picture.
 */
export function drawHeap(container, view, { highlight = null, compact = false } = {}) {
  const m = compact ? METRICS.compact : METRICS.full;
  const scene = buildScene(view ?? emptyView(), m);
  markHighlight(scene, view ?? emptyView(), highlight);
  scene.words = describeHeap(view ?? emptyView(), scene.highlight.note);
  layoutScene(scene, m);
  render(container, scene, m, compact);
}

/**
 * The heap in words, for a screen reader (the picture's label): every object named by the
 * variable or field that reaches it, with its class and values, breadth first from the inputs,
 * then the locals of the innermost call, then what the step changed: `Heap: this is a BST, root
 * this.root; this.root is a Node, key 3, left null, right not known yet; x is 5`.
 */
export function describeHeap(view, note = '') {
  const MAX_OBJECTS = 30;
  const objects = new Map((view.objects ?? []).map((o) => [String(o.id), o]));
  const isRef = (v) => ['obj', 'symref', 'symloc'].includes(v?.kind);
  const frames = view.frames ?? [];
  const top = frames[frames.length - 1];
  const starts = [
    ...(view.roots ?? []).map((r) => [r.name, r.value]),
    ...(top?.locals ?? []).filter((l) => !(view.roots ?? []).some((r) => r.name === l.name)).map((l) => [l.name, l.value]),
  ];
  // First the name of everything reachable: the first path, breadth first from the inputs,
  // then from the locals (an input object keeps its input path).
  const named = new Map();
  const order = [];
  const walk = (start) => {
    const queue = [...start];
    while (queue.length > 0) {
      const [path, value] = queue.shift();
      order.push([path, value]);
      if (!isRef(value) || named.has(value.id)) continue;
      named.set(value.id, path);
      for (const f of objects.get(String(value.id))?.fields ?? []) {
        if (isRef(f.value) && !named.has(f.value.id)) queue.push([`${path}.${f.name}`, f.value]);
      }
    }
  };
  const inputs = (view.roots ?? []).length;
  walk(starts.slice(0, inputs));
  walk(starts.slice(inputs));
  // Integers over inputs name them as the program does (`o2.key` is `this.root.key`).
  const words = (text) => String(text).replace(/\b(o\d+)\b/g, (id) => named.get(id) ?? id);
  const kind = (value, path) => {
    const first = named.get(value?.id);
    if (isRef(value) && first && first !== path) return `the same object as ${first}`;
    switch (value?.kind) {
      case 'null': return 'null';
      case 'void': return 'nothing';
      case 'unread': return 'not read yet';
      case 'int': case 'bool': return words(value.text) === path ? `the input ${path}` : words(value.text);
      case 'symref': return 'not known yet (null or an object)';
      case 'symloc': return 'an object not known yet';
      case 'obj': return article(objects.get(String(value.id))?.class ?? 'object');
      default: return value?.text ?? '?';
    }
  };
  const sentences = [];
  const told = new Set();
  for (const [path, value] of order) {
    if (sentences.length >= MAX_OBJECTS) {
      sentences.push(`and ${order.length - MAX_OBJECTS} more`);
      break;
    }
    if (isRef(value) && told.has(value.id) && named.get(value.id) === path) continue;
    const obj = value?.kind === 'obj' && named.get(value.id) === path ? objects.get(String(value.id)) : null;
    if (isRef(value)) told.add(value.id);
    if (!obj) {
      sentences.push(`${path} is ${kind(value, path)}`);
      continue;
    }
    const fields = (obj.fields ?? []).map((f) => {
      const sub = `${path}.${f.name}`;
      return `${f.name} ${isRef(f.value) && named.get(f.value.id) === sub ? sub : kind(f.value, sub)}`;
    });
    sentences.push(`${path} is ${kind(value, path)}${fields.length ? `, ${fields.join(', ')}` : ''}`);
  }
  const text = sentences.length ? sentences.join('; ') : 'empty';
  return `Heap: ${text}${note ? `. ${note}` : ''}`;
}

function article(word) {
  return /^[aeiou]/i.test(word) ? `an ${word}` : `a ${word}`;
}

/**
 * A HeapView-like object for the input of a generated test (`GeneratedTestJs`, or its `input`:
 * `{ receiver, args, objects: [{ id, class, fields: { name: value } }] }`, values a number, a
 * boolean, null or `{ ref }`), so that a test's input heap can be drawn with `drawHeap`.
 * Arguments are named from `params` when given (`test.params` or `input.params`), else `arg1`...
 */
export function heapViewOfTestInput(test) {
  const input = test?.input ?? test ?? {};
  const params = test?.params ?? input.params ?? [];
  const roots = [];
  if (input.receiver != null) roots.push({ name: 'this', value: { kind: 'obj', id: String(input.receiver) } });
  (input.args ?? []).forEach((value, i) => {
    roots.push({ name: params[i] ?? `arg${i + 1}`, value: valOfHeapValue(value) });
  });
  const objects = (input.objects ?? []).map((o) => ({
    id: String(o.id),
    class: o.class,
    origin: 'input',
    fields: Object.entries(o.fields ?? {}).map(([name, value]) => ({ name, value: valOfHeapValue(value) })),
  }));
  return {
    node: -1, label: test?.name ?? '', at: 'created', objects, roots,
    symbolic: [], predicates: [], pathCondition: [], returned: null, outcome: null,
  };
}

function valOfHeapValue(value) {
  if (value === null || value === undefined) return { kind: 'null' };
  if (typeof value === 'number') return { kind: 'int', text: String(value) };
  if (typeof value === 'boolean') return { kind: 'bool', text: String(value) };
  if (typeof value === 'object' && 'ref' in value) return { kind: 'obj', id: String(value.ref) };
  return { kind: 'int', text: String(value) };
}

function emptyView() {
  return { objects: [], roots: [], symbolic: [], predicates: [], returned: null };
}

// ---- the scene: what to draw, with sizes, before layout -----------------------------------------

/**
 * Nodes (`key` → shape and size) and edges of the picture. Keys are stable across steps:
 * `obj:o1`, `root:this`, `sym:ref0`, `pred:<text>`, so elements can be reused between draws.
 */
function buildScene(view, m) {
  const scene = { nodes: new Map(), edges: [], highlight: { keys: new Set(), edges: new Set(), cells: new Set() } };
  const objects = [...(view.objects ?? [])].sort((a, b) => compareIds(a.id, b.id));
  const symbolic = [...(view.symbolic ?? [])].sort((a, b) => compareIds(a.id, b.id));

  for (const root of view.roots ?? []) addRoot(scene, root.name, root.value, m);
  addLocals(scene, view, m);
  if (view.returned && (view.returned.kind === 'obj' || view.returned.kind === 'symref' || view.returned.kind === 'symloc')) {
    addRoot(scene, 'result', view.returned, m, true);
  }
  for (const obj of objects) addObject(scene, obj, m);
  for (const sym of symbolic) addSymbolic(scene, sym.id, sym.kind, sym.class, m);

  // Edges last: a reference to something the view does not list still gets a node to point at.
  for (const node of [...scene.nodes.values()]) {
    for (const [i, row] of (node.rows ?? []).entries()) {
      const to = targetKey(scene, row.value, m);
      if (to) scene.edges.push({ key: `${node.key}.${row.name}`, from: node.key, row: i, to, kind: edgeKind(row.value) });
    }
  }
  // A folded instance hangs under what it describes (its root), so it adds no rank to the
  // picture; one whose root is not drawn stands on its own.
  for (const pred of view.predicates ?? []) {
    const owner = scene.nodes.get(attachKey(scene, pred.root));
    if (owner) hangPredicate(owner, pred, m);
    else addPredicate(scene, pred, m);
  }
  return scene;
}

function compareIds(a, b) {
  const na = Number(String(a).replace(/\D+/g, ''));
  const nb = Number(String(b).replace(/\D+/g, ''));
  return na - nb || String(a).localeCompare(String(b));
}

function textWidth(text, m) {
  return text.length * m.charW;
}

function valueText(value) {
  switch (value?.kind) {
    case 'int':
    case 'bool': return value.text;
    case 'void': return 'void';
    default: return '';
  }
}

function isPointer(value) {
  return ['obj', 'symref', 'symloc', 'null', 'unread'].includes(value?.kind);
}

function cut(text, max = MAX_VALUE_CHARS) {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function addObject(scene, obj, m) {
  const rows = (obj.fields ?? []).map((f) => ({ name: f.name, value: f.value }));
  const header = `${obj.id} : ${obj.class}${obj.origin === 'new' ? '  new' : ''}`;
  let width = textWidth(header, m) + 2 * m.pad;
  for (const row of rows) {
    const value = isPointer(row.value) ? m.cell : textWidth(cut(valueText(row.value)), m);
    width = Math.max(width, textWidth(row.name, m) + m.gap + value + 2 * m.pad);
  }
  scene.nodes.set(`obj:${obj.id}`, {
    key: `obj:${obj.id}`, shape: 'object', id: obj.id, cls: obj.class, origin: obj.origin, rows,
    width: Math.ceil(width), height: m.header + rows.length * m.row + (rows.length ? 3 : 0),
  });
}

function addRoot(scene, name, value, m, isResult = false, key = `root:${name}`) {
  const pointer = isPointer(value);
  const text = pointer ? '' : cut(valueText(value));
  const width = textWidth(name, m) + 6 + (pointer ? m.cell + 4 : textWidth(text, m) + 2 * m.pad);
  scene.nodes.set(key, {
    key, shape: 'root', name, value, text, isResult,
    rows: [{ name, value }], width: Math.ceil(width), height: m.row + 4,
  });
}

/**
 * The locals and parameters of every frame of the call stack, drawn like the method's inputs:
 * the innermost frame's by their names (`t`), an outer frame's with the frame's number
 * (`t (call 2)`, counting from the method under test). A value the input of the same name
 * already shows is not drawn twice.
 */
function addLocals(scene, view, m) {
  const frames = view.frames ?? [];
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  frames.forEach((frame, i) => {
    const innermost = i === frames.length - 1;
    for (const local of frame.locals ?? []) {
      if ((view.roots ?? []).some((r) => r.name === local.name && same(r.value, local.value))) continue;
      const name = innermost ? local.name : `${local.name} (call ${i + 1})`;
      addRoot(scene, name, local.value, m, false, `local:${i}:${local.name}`);
      const node = scene.nodes.get(`local:${i}:${local.name}`);
      node.frame = frame.unit;
    }
  });
}

function addSymbolic(scene, id, kind, cls, m) {
  const sub = kind === 'symloc' ? `some ${cls ?? 'object'}` : `null or ${cls ?? 'object'}`;
  const width = Math.max(textWidth(id, m), textWidth(sub, m) * 0.85) + (kind === 'symref' ? 30 : 18);
  scene.nodes.set(`sym:${id}`, {
    key: `sym:${id}`, shape: kind, id, sub, width: Math.ceil(width), height: Math.round(m.row * 1.75),
  });
}

function predicateShape(pred, m) {
  const text = cut(pred.text, 40);
  return { text, full: pred.text, depth: pred.depth, width: Math.ceil(textWidth(text, m) + 2 * m.pad + 10), height: m.row + 8 };
}

function addPredicate(scene, pred, m) {
  scene.nodes.set(`pred:${pred.text}`, { key: `pred:${pred.text}`, shape: 'predicate', ...predicateShape(pred, m) });
}

/**
 * Hangs a predicate instance under `owner`: dagre sees one box holding both (`layoutWidth`,
 * `layoutHeight`); the owner's own width and height stay those of its shape, for the arrows.
 */
function hangPredicate(owner, pred, m) {
  const tag = predicateShape(pred, m);
  owner.hang ??= [];
  const gap = Math.round(m.row * 0.6);
  tag.dy = owner.height + (owner.hang.length ? owner.hang.reduce((sum, t) => sum + t.height + gap, 0) : 0) + gap;
  owner.hang.push(tag);
  owner.layoutWidth = Math.max(owner.layoutWidth ?? owner.width, tag.width);
  owner.layoutHeight = tag.dy + tag.height;
}

/** The node a value points to (made on the fly for ids the view does not list), or null. */
function targetKey(scene, value, m) {
  if (!value) return null;
  if (value.kind === 'obj') {
    const key = `obj:${value.id}`;
    if (!scene.nodes.has(key)) addObject(scene, { id: value.id, class: '?', origin: 'input', fields: [] }, m);
    return key;
  }
  if (value.kind === 'symref' || value.kind === 'symloc') {
    const key = `sym:${value.id}`;
    if (!scene.nodes.has(key)) addSymbolic(scene, value.id, value.kind, null, m);
    return key;
  }
  return null;
}

function edgeKind(value) {
  return value.kind === 'obj' ? 'ref' : 'symbolic';
}

/** Where a predicate instance hangs: its root object, symbolic reference, root name or field. */
function attachKey(scene, root) {
  if (!root) return null;
  for (const key of [`obj:${root}`, `sym:${root}`, `root:${root}`]) if (scene.nodes.has(key)) return key;
  const field = /^(.+)\.([^.]+)$/.exec(root);
  if (field && scene.nodes.has(`obj:${field[1]}`)) return `obj:${field[1]}`;
  return null;
}

// ---- highlight: what the step that made this state changed --------------------------------------

/**
 * Marks the field, root or symbolic reference named by `change.target`, the edge out of it and
 * the node it points to now (or the option chosen); for an unfolding, the instance's root.
 */
function markHighlight(scene, view, change) {
  const hl = scene.highlight;
  if (!change) return;
  hl.note = describeChange(change);
  const mark = (key) => { if (key && scene.nodes.has(key)) hl.keys.add(key); };
  const markValue = (value) => {
    if (value?.kind === 'obj') mark(`obj:${value.id}`);
    if (value?.kind === 'symref' || value?.kind === 'symloc') mark(`sym:${value.id}`);
  };
  // The engine's names (`o1.root`, `ref2`) are what the view's keys use.
  const target = String(change.engineTarget ?? change.target ?? '');
  const option = String(change.engineOption ?? change.option ?? '');
  const optionId = /(o|ref|loc)\d+\s*$/.exec(option)?.[0].trim();
  if (change.kind === 'lazyInit' || change.kind === 'resolve') {
    const param = /^param\s+(.+)$/.exec(target);
    const field = /^(.+)\.([^.\s]+)$/.exec(target);
    if (param) {
      hl.cells.add(`root:${param[1]}#0`);
      hl.edges.add(`root:${param[1]}.${param[1]}`);
      markValue(view.roots?.find((r) => r.name === param[1])?.value);
    } else if (field && scene.nodes.has(`obj:${field[1]}`)) {
      const node = scene.nodes.get(`obj:${field[1]}`);
      const i = node.rows.findIndex((r) => r.name === field[2]);
      if (i >= 0) {
        hl.cells.add(`obj:${field[1]}#${i}`);
        hl.edges.add(`obj:${field[1]}.${field[2]}`);
        markValue(node.rows[i].value);
      }
    } else {
      mark(`sym:${target}`);
    }
    if (optionId) {
      mark(`obj:${optionId}`);
      mark(`sym:${optionId}`);
    }
    // A resolved reference no longer exists: what held it now holds the option. The page
    // names those places (`view.changedFields`, read from the parent state) when it can.
    if (change.kind === 'resolve' && optionId) markHolders(scene, optionId);
    for (const place of view.changedFields ?? []) {
      const key = place.root !== undefined ? `root:${place.root}` : `obj:${place.object}`;
      const node = scene.nodes.get(key);
      const i = place.root !== undefined ? 0 : node?.rows?.findIndex((r) => r.name === place.field) ?? -1;
      if (!node || i < 0) continue;
      hl.cells.add(`${key}#${i}`);
      hl.edges.add(`${key}.${place.root ?? place.field}`);
      markValue(node.rows?.[i]?.value);
    }
  } else if (change.kind === 'unfold') {
    const root = /\(\s*([^,)]+)/.exec(target)?.[1]?.trim();
    mark(`obj:${root}`);
    mark(`sym:${root}`);
    mark(`pred:${target}`);
    if (root) markHolders(scene, root);
  }
}

/** Marks the rows and roots that point to `id` (an object or a symbolic id). */
function markHolders(scene, id) {
  for (const node of scene.nodes.values()) {
    (node.rows ?? []).forEach((row, i) => {
      if (row.value?.id !== id) return;
      scene.highlight.cells.add(`${node.key}#${i}`);
      scene.highlight.edges.add(`${node.key}.${row.name}`);
    });
  }
}

function describeChange(change) {
  switch (change.kind) {
    case 'lazyInit': return `this step read ${change.target}: ${change.option}`;
    case 'resolve': return `this step decided ${change.target}: ${change.option}`;
    case 'unfold': return `this step unfolded ${change.target}`;
    case 'branch': return `this step took the branch ${change.target}${change.option ? `: ${change.option}` : ''}`;
    case 'disjunct': return `case ${change.option || change.target}`;
    default: return '';
  }
}

// ---- layout ---------------------------------------------------------------------------------------

function layoutScene(scene, m) {
  const g = new graphlib.Graph({ multigraph: true });
  g.setGraph({ rankdir: 'LR', nodesep: m.nodesep, ranksep: m.ranksep, edgesep: 8, marginx: 6, marginy: 6 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const node of scene.nodes.values()) {
    g.setNode(node.key, { width: node.layoutWidth ?? node.width, height: node.layoutHeight ?? node.height });
  }
  for (const edge of scene.edges) {
    if (edge.from === edge.to) continue; // self-loops are drawn by hand
    g.setEdge(edge.from, edge.to, { weight: 1, minlen: 1 }, edge.key);
  }
  dagreLayout(g, { constraints: orderConstraints(scene) });
  for (const node of scene.nodes.values()) {
    const placed = g.node(node.key);
    node.x = placed.x - node.width / 2;
    node.y = placed.y - (node.layoutHeight ?? node.height) / 2;
  }
  for (const edge of scene.edges) {
    edge.points = edge.from === edge.to ? [] : g.edge(edge.from, edge.to, edge.key)?.points ?? [];
  }
  const graph = g.graph();
  scene.width = Math.ceil(graph.width ?? 0);
  scene.height = Math.ceil(graph.height ?? 0);
  routeEdges(scene, m);
}

/**
 * Dagre orders the nodes of a rank to reduce crossings but knows nothing of rows: without help
 * `right`'s target may land above `left`'s and their arrows cross. Targets reached by a single
 * edge are kept in the order of the rows that point to them (and roots in parameter order);
 * each such target is constrained by its one source only, so the constraints cannot conflict.
 */
function orderConstraints(scene) {
  const inDegree = new Map();
  for (const e of scene.edges) inDegree.set(e.to, (inDegree.get(e.to) ?? 0) + 1);
  const constraints = [];
  const chain = (keys) => {
    for (let i = 1; i < keys.length; i++) constraints.push({ left: keys[i - 1], right: keys[i] });
  };
  chain([...scene.nodes.values()].filter((n) => n.shape === 'root').map((n) => n.key));
  const bySource = new Map();
  for (const e of scene.edges) {
    if (e.from === e.to || inDegree.get(e.to) !== 1) continue;
    if (!bySource.has(e.from)) bySource.set(e.from, []);
    bySource.get(e.from).push(e);
  }
  for (const edges of bySource.values()) chain(edges.sort((a, b) => a.row - b.row).map((e) => e.to));
  return constraints;
}

// ---- rendering ------------------------------------------------------------------------------------

function svgEl(tag, attrs = {}, text) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) el.setAttribute(k, String(v));
  if (text !== undefined) el.textContent = text;
  return el;
}

function render(container, scene, m, compact) {
  let svg = container.firstElementChild;
  const reuse = svg && svg.tagName.toLowerCase() === 'svg' && svg.classList.contains('hg') && container.childElementCount === 1;
  if (!reuse) {
    svg = createSvg(compact);
    container.replaceChildren(svg);
  }
  const uid = svg.dataset.uid;
  const { x0, y0, x1, y1 } = scene.box;
  const width = Math.ceil(Math.max(x1 - x0, 40));
  const height = Math.ceil(Math.max(y1 - y0, 24));
  svg.setAttribute('viewBox', `${f(x0)} ${f(y0)} ${width} ${height}`);
  svg.setAttribute('width', String(width));
  svg.setAttribute('height', String(height));
  svg.setAttribute('font-size', String(m.font));
  svg.setAttribute('aria-label', scene.words ?? describeScene(scene));
  const nodeLayer = svg.querySelector('.hg-nodes');
  const edgeLayer = svg.querySelector('.hg-edges');
  const animate = reuse && !compact;

  const old = new Map([...nodeLayer.children].map((el) => [el.dataset.key, el]));
  for (const node of scene.nodes.values()) {
    const g = old.get(node.key) ?? svgEl('g', { 'data-key': node.key });
    old.delete(node.key);
    const fresh = !g.parentNode;
    g.replaceChildren(...drawNode(node, scene.highlight, m));
    setNodeData(g, node, scene.highlight);
    // The position twice: as the SVG attribute, which an exported copy keeps (it drops the
    // page's CSS), and as CSS, which the browser can animate between steps (and which wins).
    g.setAttribute('transform', `translate(${f(node.x)},${f(node.y)})`);
    g.style.transform = `translate(${node.x}px, ${node.y}px)`;
    if (fresh) {
      nodeLayer.append(g);
      if (animate) fadeIn(g);
    }
  }
  for (const el of old.values()) el.remove();

  const oldEdges = new Map([...edgeLayer.children].map((el) => [el.dataset.key, el]));
  for (const edge of scene.edges) {
    const d = edge.d;
    if (!d) continue;
    let path = oldEdges.get(edge.key);
    oldEdges.delete(edge.key);
    const fresh = !path;
    if (fresh) path = svgEl('path', { 'data-key': edge.key, fill: 'none' });
    styleEdge(path, edge, scene.highlight.edges.has(edge.key), uid);
    path.setAttribute('d', d);
    // `d` as a CSS property can be transitioned (where supported, else it just jumps).
    if (animate) path.style.d = `path("${d}")`;
    if (fresh) {
      edgeLayer.append(path);
      if (animate) fadeIn(path);
    }
  }
  for (const el of oldEdges.values()) el.remove();
  svg.classList.toggle('hg-animate', animate);
  for (const el of [...nodeLayer.children, ...edgeLayer.children]) {
    el.style.transition = animate ? 'transform 0.35s ease, d 0.35s ease, opacity 0.35s ease' : '';
  }
}

function createSvg(compact) {
  const uid = `hg${++svgCount}`;
  const svg = svgEl('svg', {
    class: `hg${compact ? ' hg-compact' : ''}`, role: 'img', 'data-uid': uid,
    style: 'font-family: var(--mono, ui-monospace, monospace); overflow: visible',
  });
  svg.dataset.uid = uid;
  const defs = svgEl('defs');
  for (const [name, colour] of [['arrow', EDGE], ['arrow-hl', HIGHLIGHT], ['arrow-sym', COLOURS.symbolic]]) {
    const marker = svgEl('marker', {
      id: `${uid}-${name}`, viewBox: '0 0 10 10', refX: 9, refY: 5,
      markerWidth: compact ? 6 : 8, markerHeight: compact ? 6 : 8, markerUnits: 'userSpaceOnUse', orient: 'auto',
    });
    marker.append(svgEl('path', { d: 'M0,0.5 L10,5 L0,9.5 z', fill: colour }));
    defs.append(marker);
  }
  svg.append(defs, svgEl('g', { class: 'hg-edges' }), svgEl('g', { class: 'hg-nodes' }));
  return svg;
}

function fadeIn(el) {
  el.style.opacity = '0';
  requestAnimationFrame(() => requestAnimationFrame(() => { el.style.opacity = '1'; }));
}

function describeScene(scene) {
  const count = (shape) => [...scene.nodes.values()].filter((n) => n.shape === shape).length;
  const parts = [`${count('object')} object${count('object') === 1 ? '' : 's'}`];
  const refs = count('symref') + count('symloc');
  if (refs) parts.push(`${refs} symbolic reference${refs === 1 ? '' : 's'}`);
  if (count('predicate')) parts.push(`${count('predicate')} folded predicate${count('predicate') === 1 ? '' : 's'}`);
  return `Heap: ${parts.join(', ')}${scene.highlight.note ? `; ${scene.highlight.note}` : ''}`;
}

function setNodeData(g, node, hl) {
  g.setAttribute('class', `hg-node hg-${node.shape}`);
  for (const name of ['object', 'root', 'symbolic', 'predicate', 'frame']) delete g.dataset[name];
  if (node.frame) g.dataset.frame = node.frame;
  if (node.shape === 'object') g.dataset.object = node.id;
  else if (node.shape === 'root') g.dataset.root = node.name;
  else if (node.shape === 'predicate') g.dataset.predicate = node.full;
  else g.dataset.symbolic = node.id;
  if (hl.keys.has(node.key)) g.dataset.highlight = 'true';
  else delete g.dataset.highlight;
}

function drawNode(node, hl, m) {
  const own = {
    object: drawObject, root: drawRoot, symref: drawSymbolic, symloc: drawSymbolic, predicate: drawPredicate,
  }[node.shape](node, hl, m);
  return [...(node.hang ?? []).flatMap((tag) => drawHanging(node, tag, hl)), ...own];
}

/** A predicate tag under its owner, tied to it by a short dotted line. */
function drawHanging(owner, tag, hl) {
  const g = svgEl('g', { 'data-predicate': tag.full, transform: `translate(${(owner.width - tag.width) / 2},${tag.dy})` });
  const lit = hl.keys.has(`pred:${tag.full}`);
  if (lit) g.dataset.highlight = 'true';
  g.append(
    svgEl('line', { x1: tag.width / 2, y1: -2, x2: tag.width / 2, y2: owner.height - tag.dy, stroke: COLOURS.predicate, 'stroke-width': 1.4, 'stroke-dasharray': '1.5 3', 'stroke-linecap': 'round' }),
    ...drawPredicate({ ...tag, key: `pred:${tag.full}` }, hl),
  );
  return [g];
}

function drawObject(node, hl, m) {
  const { width: w, height: h } = node;
  const lit = hl.keys.has(node.key);
  const isNew = node.origin === 'new';
  const out = [];
  if (lit) out.push(svgEl('rect', { x: -3, y: -3, width: w + 6, height: h + 6, rx: 7, fill: 'none', stroke: HIGHLIGHT, 'stroke-width': 2.5, opacity: 0.35 }));
  out.push(svgEl('rect', { width: w, height: h, rx: 5, fill: '#fff', stroke: lit ? HIGHLIGHT : EDGE, 'stroke-width': lit ? 2 : 1.2 }));
  const r = 5;
  const hh = m.header;
  out.push(svgEl('path', {
    d: `M0.6,${hh}V${r}Q0.6,0.6 ${r},0.6H${w - r}Q${w - 0.6},0.6 ${w - 0.6},${r}V${hh}Z`,
    fill: isNew ? COLOURS.newHeader : COLOURS.inputHeader,
  }));
  if (node.rows.length) out.push(svgEl('line', { x1: 0, y1: hh, x2: w, y2: hh, stroke: lit ? HIGHLIGHT : EDGE, 'stroke-width': 0.8 }));
  const title = svgEl('text', { x: m.pad, y: hh / 2, 'dominant-baseline': 'central', fill: INK });
  title.append(svgEl('tspan', { 'font-weight': 700 }, node.id), svgEl('tspan', { fill: MUTED }, ` : ${node.cls}`));
  if (isNew) title.append(svgEl('tspan', { fill: COLOURS.newText, 'font-size': m.font * 0.8, 'font-weight': 700 }, '  new'));
  out.push(title);
  node.rows.forEach((row, i) => out.push(drawRow(node, row, i, hl, m)));
  return out;
}

function drawRow(node, row, i, hl, m) {
  const y = m.header + i * m.row;
  const g = svgEl('g', { 'data-field': `${node.id}.${row.name}`, 'data-value': row.value?.kind ?? '' });
  const lit = hl.cells.has(`${node.key}#${i}`);
  if (lit) {
    g.dataset.highlight = 'true';
    g.append(svgEl('rect', { x: 1.5, y: y + 1.5, width: node.width - 3, height: m.row - 1, rx: 3, fill: MARKER_PEN }));
  }
  if (i > 0) g.append(svgEl('line', { x1: 4, y1: y, x2: node.width - 4, y2: y, stroke: RULE }));
  const cy = y + m.row / 2 + 1;
  g.append(svgEl('text', { x: m.pad, y: cy, 'dominant-baseline': 'central', fill: lit ? INK : MUTED, 'font-weight': lit ? 700 : 400 }, row.name));
  const cellX = node.width - m.pad - m.cell;
  if (isPointer(row.value)) g.append(...drawCell(cellX, cy - m.cell / 2, row.value, lit, m));
  else g.append(valueLabel(node.width - m.pad, cy, row.value));
  const tip = tooltip(row.name, row.value);
  if (tip) g.append(svgEl('title', {}, tip));
  return g;
}

function valueLabel(x, y, value) {
  const full = valueText(value);
  const text = svgEl('text', { x, y, 'text-anchor': 'end', 'dominant-baseline': 'central', fill: INK }, cut(full));
  if (value?.kind === 'bool') text.setAttribute('fill', '#1d4ed8');
  if (full.length > MAX_VALUE_CHARS) text.append(svgEl('title', {}, full));
  return text;
}

function tooltip(name, value) {
  switch (value?.kind) {
    case 'null': return `${name} = null`;
    case 'unread': return `${name}: not read yet (the explorer has not looked at it)`;
    case 'obj': return `${name} → ${value.id}`;
    case 'symref': return `${name} → ${value.id}: null or some object, not decided yet`;
    case 'symloc': return `${name} → ${value.id}: some object, which one not decided yet`;
    default: return '';
  }
}

/** A pointer cell: a dot (an arrow leaves from it), a slash (null) or a dashed `?` (unread). */
function drawCell(x, y, value, lit, m) {
  const c = m.cell;
  const stroke = lit ? HIGHLIGHT : EDGE;
  const out = [];
  const dashed = value.kind === 'unread' || value.kind === 'symref' || value.kind === 'symloc';
  out.push(svgEl('rect', {
    x, y, width: c, height: c, rx: 2, fill: lit ? '#fff' : '#fbfbfe', stroke: value.kind === 'unread' ? COLOURS.symbolic : stroke,
    'stroke-width': lit ? 1.6 : 1, 'stroke-dasharray': dashed ? '2.5 2' : null,
  }));
  if (value.kind === 'null') {
    out.push(svgEl('line', { x1: x + 2, y1: y + c - 2, x2: x + c - 2, y2: y + 2, stroke, 'stroke-width': lit ? 1.8 : 1.3, 'stroke-linecap': 'round' }));
  } else if (value.kind === 'unread') {
    out.push(svgEl('text', { x: x + c / 2, y: y + c / 2 + 0.5, 'text-anchor': 'middle', 'dominant-baseline': 'central', fill: COLOURS.symbolic, 'font-size': m.font * 0.85, 'font-weight': 700 }, '?'));
  } else {
    const hollow = value.kind !== 'obj';
    out.push(svgEl('circle', { cx: x + c / 2, cy: y + c / 2, r: c * 0.19, fill: hollow ? '#fff' : stroke, stroke: hollow ? COLOURS.symbolic : 'none', 'stroke-width': 1.2 }));
  }
  return out;
}

function drawRoot(node, hl, m) {
  const lit = hl.cells.has(`${node.key}#0`);
  const out = [];
  const cy = node.height / 2;
  const nameW = textWidth(node.name, m);
  if (lit) out.push(svgEl('rect', { x: -3, y: 0, width: node.width + 6, height: node.height, rx: 4, fill: MARKER_PEN }));
  out.push(svgEl('text', {
    x: 0, y: cy, 'dominant-baseline': 'central', fill: INK, 'font-weight': 700,
    'font-style': node.isResult ? 'italic' : null,
  }, node.name));
  const x = nameW + 6;
  if (isPointer(node.value)) {
    out.push(...drawCell(x, cy - m.cell / 2, node.value, lit, m));
  } else {
    const w = node.width - x;
    out.push(svgEl('rect', { x, y: cy - m.row / 2 + 1, width: w, height: m.row - 2, rx: 3, fill: '#fbfbfe', stroke: EDGE, 'stroke-width': 1 }));
    out.push(svgEl('text', { x: x + w / 2, y: cy, 'text-anchor': 'middle', 'dominant-baseline': 'central', fill: INK }, node.text));
  }
  const tip = node.isResult ? 'the returned value'
    : node.frame ? `${tooltip(node.name, node.value) || `${node.name} = ${node.text}`} (a local of ${node.frame})` : tooltip(node.name, node.value);
  if (tip) out.push(svgEl('title', {}, tip));
  return out;
}

function drawSymbolic(node, hl, m) {
  const lit = hl.keys.has(node.key);
  const { width: w, height: h } = node;
  const stroke = lit ? HIGHLIGHT : COLOURS.symbolic;
  const attrs = { fill: COLOURS.symbolicFill, stroke, 'stroke-width': lit ? 2 : 1.3, 'stroke-dasharray': '5 3' };
  const shape = node.shape === 'symref'
    ? svgEl('ellipse', { cx: w / 2, cy: h / 2, rx: w / 2, ry: h / 2, ...attrs })
    : svgEl('rect', { width: w, height: h, rx: 3, ...attrs });
  const id = svgEl('text', { x: w / 2, y: h * 0.36, 'text-anchor': 'middle', 'dominant-baseline': 'central', fill: INK, 'font-weight': 700 }, node.id);
  const sub = svgEl('text', { x: w / 2, y: h * 0.7, 'text-anchor': 'middle', 'dominant-baseline': 'central', fill: MUTED, 'font-size': m.font * 0.82 }, node.sub);
  const tip = node.shape === 'symref'
    ? `${node.id}: a symbolic reference — null or some object; the explorer decides when it is used`
    : `${node.id}: a symbolic location — some object; which one is decided when it is compared`;
  return [shape, id, sub, svgEl('title', {}, tip)];
}

function drawPredicate(node, hl) {
  const lit = hl.keys.has(node.key);
  const { width: w, height: h } = node;
  const stroke = lit ? HIGHLIGHT : COLOURS.predicate;
  return [
    // Two stacked outlines: a folded instance stands for a whole region of the heap.
    svgEl('rect', { x: 3, y: 3, width: w - 3, height: h - 3, rx: (h - 3) / 2, fill: COLOURS.predicateFill, stroke, 'stroke-width': 1, opacity: 0.7 }),
    svgEl('rect', { width: w - 3, height: h - 3, rx: (h - 3) / 2, fill: COLOURS.predicateFill, stroke, 'stroke-width': lit ? 2 : 1.3 }),
    svgEl('text', { x: (w - 3) / 2, y: (h - 3) / 2, 'text-anchor': 'middle', 'dominant-baseline': 'central', fill: COLOURS.predicate, 'font-weight': 600 }, node.text),
    svgEl('title', {}, `${node.full}: a folded predicate instance${node.depth != null ? ` (unfolded ${node.depth} time${node.depth === 1 ? '' : 's'} above)` : ''}`),
  ];
}

function styleEdge(path, edge, lit, uid) {
  path.setAttribute('stroke', lit ? HIGHLIGHT : edge.kind === 'ref' ? EDGE : COLOURS.symbolic);
  path.setAttribute('stroke-width', lit ? '2.4' : '1.3');
  if (edge.kind === 'symbolic') path.setAttribute('stroke-dasharray', '5 3');
  else path.removeAttribute('stroke-dasharray');
  path.setAttribute('stroke-linecap', 'round');
  path.setAttribute('marker-end', `url(#${uid}-${lit ? 'arrow-hl' : edge.kind === 'ref' ? 'arrow' : 'arrow-sym'})`);
  path.dataset.edge = edge.key;
  if (lit) path.dataset.highlight = 'true';
  else delete path.dataset.highlight;
}

// ---- edge geometry --------------------------------------------------------------------------------

/** Where an edge leaves its source: the dot of the pointer cell, else the right side. */
function edgeStart(scene, edge, m) {
  const node = scene.nodes.get(edge.from);
  if (edge.row >= 0 && node.rows?.[edge.row]) {
    if (node.shape === 'root') return { x: node.x + node.width - m.cell / 2, y: node.y + node.height / 2 };
    return { x: node.x + node.width - m.pad - m.cell / 2, y: node.y + m.header + edge.row * m.row + m.row / 2 + 1 };
  }
  return { x: node.x + node.width, y: node.y + (node.shape === 'object' ? m.header / 2 : node.height / 2) };
}

function isBackEdge(scene, edge) {
  const from = scene.nodes.get(edge.from);
  const to = scene.nodes.get(edge.to);
  return edge.from === edge.to || to.x < from.x + from.width - 4;
}

/**
 * Every edge's path (`edge.d`), and the picture's extent including the detours of back edges.
 * Forward edges are smooth curves from the pointer cell into the target's left side (its header
 * for an object), through dagre's bend points when they span several ranks. Edges pointing back
 * (cycles, self-loops) are routed around: out to the right of the source, along a lane above or
 * below every box in between, and down (or up) into the target; each gets its own lane so that
 * several back edges stay apart.
 */
function routeEdges(scene, m) {
  const box = { x0: 0, y0: 0, x1: scene.width, y1: scene.height };
  let lane = 0;
  for (const edge of scene.edges) {
    if (!scene.nodes.get(edge.to)) continue;
    if (isBackEdge(scene, edge)) {
      const { points, d } = backRoute(scene, edge, m, lane++);
      edge.d = d;
      for (const p of points) {
        box.x0 = Math.min(box.x0, p.x - 4);
        box.x1 = Math.max(box.x1, p.x + 4);
        box.y0 = Math.min(box.y0, p.y - 4);
        box.y1 = Math.max(box.y1, p.y + 4);
      }
    } else {
      edge.d = forwardPath(scene, edge, m);
    }
  }
  scene.box = box;
}

function forwardPath(scene, edge, m) {
  const to = scene.nodes.get(edge.to);
  const s = edgeStart(scene, edge, m);
  const e = { x: to.x - 1, y: to.y + (to.shape === 'object' ? m.header / 2 : to.height / 2) };
  const bends = edge.points.length > 3 ? edge.points.slice(1, -1) : [];
  const points = [s, ...bends, e];
  let d = `M${f(s.x)},${f(s.y)}`;
  for (let i = 1; i < points.length; i++) {
    const a = points[i - 1];
    const b = points[i];
    const dx = Math.max(12, (b.x - a.x) * 0.5);
    d += `C${f(a.x + dx)},${f(a.y)} ${f(b.x - dx)},${f(b.y)} ${f(b.x)},${f(b.y)}`;
  }
  return d;
}

function backRoute(scene, edge, m, lane) {
  const from = scene.nodes.get(edge.from);
  const to = scene.nodes.get(edge.to);
  const s = edgeStart(scene, edge, m);
  const x0 = Math.min(to.x, from.x);
  const x1 = Math.max(from.x + from.width, to.x + to.width) + 12;
  let top = Infinity;
  let bottom = -Infinity;
  for (const n of scene.nodes.values()) {
    const w = n.layoutWidth ?? n.width;
    const left = n.x + n.width / 2 - w / 2;
    if (left < x1 && left + w > x0) {
      top = Math.min(top, n.y);
      bottom = Math.max(bottom, n.y + (n.layoutHeight ?? n.height));
    }
  }
  const gap = m.cell * 0.9;
  const exitX = from.x + from.width + gap + (lane % 4) * 5;
  const upY = top - gap - lane * 6;
  const downY = bottom + gap + lane * 6;
  const above = (s.y - upY) + (to.y - upY) <= (downY - s.y) + (downY - to.y - to.height);
  const laneY = above ? upY : downY;
  const endX = to.x + Math.min(to.width - 8, Math.max(8, to.width / 2 + ((lane % 5) - 2) * 7));
  const endY = above ? to.y - 1 : to.y + (to.layoutHeight ?? to.height) + 1;
  const points = [s, { x: exitX, y: s.y }, { x: exitX, y: laneY }, { x: endX, y: laneY }, { x: endX, y: endY }];
  return { points, d: roundedPath(points, 7) };
}

/** A polyline with its corners rounded (always the same commands for the same number of points). */
function roundedPath(points, radius) {
  let d = `M${f(points[0].x)},${f(points[0].y)}`;
  for (let i = 1; i < points.length - 1; i++) {
    const [a, b, c] = [points[i - 1], points[i], points[i + 1]];
    const r = Math.min(radius, Math.hypot(b.x - a.x, b.y - a.y) / 2, Math.hypot(c.x - b.x, c.y - b.y) / 2);
    const p = toward(b, a, r);
    const q = toward(b, c, r);
    d += `L${f(p.x)},${f(p.y)}Q${f(b.x)},${f(b.y)} ${f(q.x)},${f(q.y)}`;
  }
  const last = points[points.length - 1];
  return `${d}L${f(last.x)},${f(last.y)}`;
}

function toward(from, to, dist) {
  const len = Math.hypot(to.x - from.x, to.y - from.y) || 1;
  return { x: from.x + ((to.x - from.x) / len) * dist, y: from.y + ((to.y - from.y) / len) * dist };
}

function f(n) {
  return Math.round(n * 10) / 10;
}

// ---- legend ---------------------------------------------------------------------------------------

const LEGEND = [
  { key: 'object', text: 'object (input)', tip: 'An object of the input heap: class, id and one row per field.' },
  { key: 'new', text: 'new object', tip: 'An object the method allocated.' },
  { key: 'null', text: 'null', tip: 'A reference field that is null.' },
  { key: 'unread', text: 'not read yet', tip: 'An input field the method has not read: the explorer has not decided it.' },
  { key: 'symref', text: 'symbolic reference', tip: 'null or some object, decided when it is used (lazier#).' },
  { key: 'symloc', text: 'symbolic location', tip: 'Some object, which one decided when it is compared (lazier).' },
  { key: 'predicate', text: 'folded predicate', tip: 'A predicate instance not unfolded yet (sl): a whole region of the heap.' },
  { key: 'changed', text: 'changed by this step', tip: 'What the step into this state initialized, resolved or unfolded.' },
];

/** A legend of the shapes above, as a list of small samples drawn with the same code. */
export function drawLegend(container) {
  const m = METRICS.compact;
  const list = document.createElement('ul');
  list.className = 'hg-legend';
  list.setAttribute('aria-label', 'Legend');
  for (const item of LEGEND) {
    const li = document.createElement('li');
    li.title = item.tip;
    li.dataset.legend = item.key;
    const svg = svgEl('svg', { width: 26, height: 16, viewBox: '0 0 26 16', 'aria-hidden': 'true', style: 'font-family: var(--mono, monospace)' });
    svg.append(...legendSample(item.key, m));
    li.append(svg, document.createTextNode(item.text));
    list.append(li);
  }
  container.replaceChildren(list);
}

function legendSample(key, m) {
  switch (key) {
    case 'object':
    case 'new':
      return [
        svgEl('rect', { x: 2, y: 1.5, width: 22, height: 13, rx: 2.5, fill: '#fff', stroke: EDGE }),
        svgEl('path', { d: 'M2.5,6V3.5Q2.5,2 4.5,2H21.5Q23.5,2 23.5,3.5V6Z', fill: key === 'new' ? COLOURS.newHeader : COLOURS.inputHeader }),
        svgEl('line', { x1: 2, y1: 6, x2: 24, y2: 6, stroke: EDGE, 'stroke-width': 0.8 }),
      ];
    case 'null': return drawCell(6, 2, { kind: 'null' }, false, { ...m, cell: 12 });
    case 'unread': return drawCell(6, 2, { kind: 'unread' }, false, { ...m, cell: 12 });
    case 'symref':
      return [svgEl('ellipse', { cx: 13, cy: 8, rx: 11, ry: 6.5, fill: COLOURS.symbolicFill, stroke: COLOURS.symbolic, 'stroke-width': 1.2, 'stroke-dasharray': '3 2' })];
    case 'symloc':
      return [svgEl('rect', { x: 2, y: 2, width: 22, height: 12, rx: 2, fill: COLOURS.symbolicFill, stroke: COLOURS.symbolic, 'stroke-width': 1.2, 'stroke-dasharray': '3 2' })];
    case 'predicate':
      return [
        svgEl('rect', { x: 3, y: 3.5, width: 21, height: 11, rx: 5.5, fill: COLOURS.predicateFill, stroke: COLOURS.predicate, opacity: 0.7 }),
        svgEl('rect', { x: 1, y: 1.5, width: 21, height: 11, rx: 5.5, fill: COLOURS.predicateFill, stroke: COLOURS.predicate }),
      ];
    default:
      return [svgEl('rect', { x: 1, y: 2, width: 24, height: 12, rx: 3, fill: MARKER_PEN, stroke: HIGHLIGHT, 'stroke-width': 1.5 })];
  }
}
