// A slice's new tree nodes cross from the engine's worker to the page as rows of numbers
// (`TreeColumnsJs`, see heaplab-wasm's explore.rs): five numbers a node in one typed array,
// handed over without a copy, with a table of the strings they index and one of path ends. A run
// of 800,000 nodes (`lazy` at k = 3) would otherwise make as many objects in the worker and copy
// them all into the page; the page makes each node's object once, here.

/** A node's numbers in `rows`: parent, path, line, label, end. */
const ROW = 5;

/** The buffers of `columns`, to transfer with the message that carries them. */
export function columnBuffers(columns) {
  return [columns.rows.buffer, columns.ends.buffer];
}

/** How many nodes `columns` holds. */
export const columnLength = (columns) => columns.rows.length / ROW;

/** The nodes of `columns` as `TreeNodeJs` objects (`treeSince`'s shape). */
export function nodesOfColumns(columns) {
  const { first, rows, ends, strings } = columns;
  const nodes = new Array(rows.length / ROW);
  for (let i = 0, at = 0; i < nodes.length; i++, at += ROW) {
    const end = rows[at + 4];
    const e = 3 * (end - 1);
    nodes[i] = {
      id: first + i,
      parent: rows[at] < 0 ? null : rows[at],
      label: strings[rows[at + 3]],
      path: rows[at + 1] < 0 ? null : rows[at + 1],
      outcome: end === 0 ? null : strings[ends[e]],
      colour: end === 0 ? null : strings[ends[e + 1]],
      text: end === 0 ? null : strings[ends[e + 2]],
      line: rows[at + 2] === 0 ? null : rows[at + 2],
    };
  }
  return nodes;
}
