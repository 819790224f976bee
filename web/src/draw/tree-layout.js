// The execution tree's layout: d3-hierarchy's tidy tree growing to the right, computed from the
// nodes' parent links alone. Pure: the tree view runs it for small trees, its layout worker
// (layout-worker.js) for large ones, and tests/bench/tree-layout.mjs in node.

import { hierarchy, tree as tidyTree } from 'd3-hierarchy';

export const COL = 172; // px between two depths: room for an edge label
export const ROW = 26; // px between two sibling leaves

/**
 * Lays out `nodes[0..count)` (store tree nodes: `{ id, parent }`, parents before children) as a
 * tidy tree growing to the right. Returns typed arrays indexed by node id (see layoutParents).
 */
export function layoutTree(nodes, count = nodes.length) {
  return layoutParents((i) => nodes[i]?.parent, count);
}

/**
 * The layout of nodes `0..count)` whose parents `parentOf(i)` gives (null, -1 or an id not
 * below `i`: a root). Children are taken from the parent links, in id order (the order the
 * explorer created them), so the picture does not depend on how the store keeps `children`.
 * Returns `{ count, x, y, depth, childCount, minY, maxY, maxX }`, the arrays indexed by id.
 */
export function layoutParents(parentOf, count) {
  const x = new Float64Array(count);
  const y = new Float64Array(count);
  const depth = new Int32Array(count);
  const childCount = new Int32Array(count);
  const layout = { count, x, y, depth, childCount, minY: 0, maxY: 0, maxX: 0 };
  if (count === 0) return layout;
  const { roots, kids } = childLists(parentOf, count);
  // Several parentless nodes hang off an invisible root one column to the left.
  const top = roots.length === 1 ? roots[0] : -1;
  const root = hierarchy(top, (id) => (id < 0 ? roots : kids[id]));
  tidyTree().nodeSize([ROW, COL]).separation((a, b) => (a.parent === b.parent ? 1 : 1.4))(root);
  const shift = top < 0 ? COL : 0;
  let minY = Infinity;
  let maxY = -Infinity;
  let maxX = 0;
  root.each((n) => {
    if (n.data < 0) return;
    x[n.data] = n.y - shift;
    y[n.data] = n.x;
    depth[n.data] = n.depth - (top < 0 ? 1 : 0);
    childCount[n.data] = n.children ? n.children.length : 0;
    if (n.x < minY) minY = n.x;
    if (n.x > maxY) maxY = n.x;
    if (n.y - shift > maxX) maxX = n.y - shift;
  });
  return Object.assign(layout, { minY, maxY, maxX });
}

function childLists(parentOf, count) {
  const roots = [];
  const kids = new Array(count);
  for (let i = 0; i < count; i++) {
    const p = parentOf(i);
    if (p == null || p < 0 || p >= i) {
      roots.push(i);
    } else {
      (kids[p] ??= []).push(i);
    }
  }
  return { roots, kids };
}

/** The buffers of a layout, to transfer with the message that carries it. */
export const layoutBuffers = (layout) => [layout.x.buffer, layout.y.buffer, layout.depth.buffer, layout.childCount.buffer];
