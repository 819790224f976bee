// The execution tree view's layout cost: lays out synthetic exploration trees of 1k, 5k and 20k
// nodes with the view's own `layoutTree` (web/src/draw/tree-layout.js) and `visibleIds`
// (web/src/views/tree.js) and prints a markdown table. The view lays out at most once per animation frame, so "layout" is the cost of
// one frame's relayout while a run grows the tree; "cull" is the per-frame cost of finding the
// nodes inside a viewport when panning. Prints times only: no assertions.
//
//   node tests/bench/tree-layout.mjs [--runs N]

import { layoutTree } from '../../web/src/draw/tree-layout.js';
import { visibleIds } from '../../web/src/views/tree.js';

const SIZES = [1000, 5000, 20000];
const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 7;

/** A deterministic pseudo-random source (a linear congruential generator). */
function random(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

/**
 * A tree shaped like an exploration: three-way lazy-initialization forks, two-way branches and
 * path ends, grown from randomly chosen open states until it has `n` nodes.
 */
function syntheticTree(n, seed) {
  const r = random(seed);
  const nodes = [];
  const add = (parent, label) => {
    const id = nodes.length;
    nodes.push({ id, parent, label, children: [], outcome: null });
    if (parent != null) nodes[parent].children.push(id);
    return id;
  };
  add(null, 'insert');
  const open = [0];
  while (nodes.length < n) {
    const parent = open.splice(Math.floor(r() * open.length), 1)[0];
    const roll = r();
    if (roll < 0.45) {
      for (const option of ['null', 'fresh o9', 'o1']) open.push(add(parent, `o1.left = ${option}`));
    } else if (roll < 0.85 || open.length === 0) {
      open.push(add(parent, 'x < t.key'), add(parent, '!(x < t.key)'));
    } else {
      nodes[parent].outcome = 'returned';
    }
  }
  return nodes.slice(0, n);
}

function median(xs) {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function time(fn) {
  const start = performance.now();
  const value = fn();
  return { ms: performance.now() - start, value };
}

// Warm the JIT first, so the first row does not pay for compiling the layout.
for (let i = 0; i < 5; i++) layoutTree(syntheticTree(2000, 7));

const rows = [];
for (const n of SIZES) {
  const nodes = syntheticTree(n, n);
  const first = time(() => layoutTree(nodes));
  const layouts = [];
  for (let i = 0; i < RUNS; i++) layouts.push(time(() => layoutTree(nodes)).ms);
  const layout = first.value;
  let maxDepth = 0;
  for (const d of layout.depth) maxDepth = Math.max(maxDepth, d);
  // A 900 x 500 px viewport at zoom 1 around the newest node, as while stepping.
  const cx = layout.x[n - 1];
  const cy = layout.y[n - 1];
  const rect = { x0: cx - 450, x1: cx + 450, y0: cy - 250, y1: cy + 250 };
  const culls = [];
  let visible = 0;
  for (let i = 0; i < RUNS; i++) {
    const c = time(() => visibleIds(nodes, layout, rect));
    culls.push(c.ms);
    visible = c.value.length;
  }
  rows.push({ n, maxDepth, first: first.ms, layout: median(layouts), cull: median(culls), visible });
}

const fmt = (ms) => ms.toFixed(2);
console.log(`Execution tree layout (node ${process.version}, median of ${RUNS} runs)\n`);
console.log('| nodes | depth | first layout ms | layout ms | cull ms | nodes drawn at zoom 1 |');
console.log('|---:|---:|---:|---:|---:|---:|');
for (const r of rows) {
  console.log(`| ${r.n} | ${r.maxDepth} | ${fmt(r.first)} | ${fmt(r.layout)} | ${fmt(r.cull)} | ${r.visible} |`);
}
