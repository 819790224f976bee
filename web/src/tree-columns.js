// A slice's new tree nodes cross from the engine's worker to the page as columns
// (`TreeColumnsJs`, see heaplab-wasm's explore.rs): one typed array per field, handed over
// without a copy, and a table of the strings they index. A run of 800,000 nodes (`lazy` at
// k = 3) would otherwise make as many objects in the worker and copy them all into the page;
// the page makes each node's object once, here.

/** The buffers of `columns`, to transfer with the message that carries them. */
export function columnBuffers(columns) {
  return [columns.parent, columns.path, columns.line, columns.label, columns.outcome, columns.colour, columns.text]
    .map((column) => column.buffer);
}

/** How many nodes `columns` holds. */
export const columnLength = (columns) => columns.parent.length;

/** The nodes of `columns` as `TreeNodeJs` objects (`treeSince`'s shape). */
export function nodesOfColumns(columns) {
  const { first, parent, path, line, label, outcome, colour, text, strings } = columns;
  const string = (i) => (i === 0 ? null : strings[i]);
  const nodes = new Array(parent.length);
  for (let i = 0; i < nodes.length; i++) {
    nodes[i] = {
      id: first + i,
      parent: parent[i] < 0 ? null : parent[i],
      label: strings[label[i]],
      path: path[i] < 0 ? null : path[i],
      outcome: string(outcome[i]),
      colour: string(colour[i]),
      text: string(text[i]),
      line: line[i] === 0 ? null : line[i],
    };
  }
  return nodes;
}
