// Duels in a program's text. An instructor marks the reference with two comment lines:
//
//   // @duel method=BST.insert reference=insertRef k=3
//   void insertRef(BST self, int x) requires ... { ... }   (the hidden part: top-level code)
//   // @end duel
//
// Opened from a link, an example or an embed, the marked part is taken out of the editor and kept
// hidden (the student edits `BST.insert`); in the instructor's own editor it stays visible. A run
// appends the hidden part after the student's program (`composeDuel`), so every line the student
// sees keeps its number.

const START = /^[ \t]*\/\/[ \t]*@duel\b(.*)$/m;
const END = /^[ \t]*\/\/[ \t]*@end(?:[ \t]+duel)?[ \t]*$/m;
const NAME = /^[A-Za-z_]\w*(\.[A-Za-z_]\w*)?$/;

/** The settings of a `// @duel ...` line: `{ method, reference, k }`, or null when malformed. */
export function parseMarker(text) {
  const spec = {};
  for (const [, key, value] of String(text).matchAll(/(\w+)=(\S+)/g)) spec[key] = value;
  if (!NAME.test(spec.method ?? '') || !NAME.test(spec.reference ?? '')) return null;
  const k = Number.parseInt(spec.k ?? '', 10);
  return { method: spec.method, reference: spec.reference, k: Number.isInteger(k) && k >= 0 && k <= 8 ? k : 3 };
}

/**
 * A duel in `source`: `{ spec, visible, hidden }` (`visible` without the marked part, `hidden`
 * the marked part with its marker lines), or null when the program has no `// @duel` line.
 */
export function splitDuel(source) {
  const text = String(source ?? '');
  const start = START.exec(text);
  if (!start) return null;
  const spec = parseMarker(start[1]);
  if (!spec) return null;
  const from = start.index;
  END.lastIndex = 0;
  const rest = text.slice(from);
  const end = END.exec(rest);
  const to = end ? from + end.index + end[0].length : text.length;
  const hidden = text.slice(from, to).replace(/\s+$/, '');
  const visible = (text.slice(0, from).replace(/\s+$/, '') + '\n' + text.slice(to).replace(/^\s*\n/, '')).replace(/\n+$/, '\n');
  return { spec, visible, hidden };
}

/** The program a duel runs: the student's text, then the hidden reference. */
export function composeDuel(visible, hidden) {
  if (!hidden) return visible;
  return `${visible.replace(/\n*$/, '\n')}\n${hidden}\n`;
}
