// The execution tree's layout off the page's main thread, for large trees (see views/tree.js):
// d3's tidy tree takes about a millisecond per thousand nodes, and a `lazy` run at the default
// bound of 200,000 states made the page freeze for 200 ms at each of its later layouts.
//
// Message in: `{ id, parents }` (an Int32Array: each node's parent, -1 for the root).
// Message out: `{ id, layout }` (layoutParents' result, its arrays transferred).

import { layoutBuffers, layoutParents } from './draw/tree-layout.js';

self.onmessage = ({ data: { id, parents } }) => {
  const layout = layoutParents((i) => parents[i], parents.length);
  self.postMessage({ id, layout }, layoutBuffers(layout));
};
