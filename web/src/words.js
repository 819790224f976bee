// Learner words for what the engine names by its own ids: an object `o3`, an open reference
// `ref2`, a location `loc1` become the variable or field path that reaches them (`this.root.left`),
// from the `names` the engine sends with each forking event (heaplab-wasm `access_paths`). Ids
// without a name (no view kept for that state) stay as they are.

/** `o1.root < x` → `this.root < x`: every engine id in `text` by its name. */
export function named(text, names) {
  const s = String(text ?? '');
  if (!names) return s;
  return s.replace(/\b(?:o|ref|loc)\d+\b/g, (id) => names[id] ?? id);
}

/**
 * A tree label in words: `ref1 = null` → `this.root.left is null`; `ref1 = loc1` → `… is an
 * object`; `loc1 = o2` → `… is the same object as this.root`; `loc1 = fresh o3` → `… is a new
 * object`; `disjunct 2` → `case 2`; any other label with its ids named.
 */
export function plainLabel(label, names) {
  const text = String(label ?? '');
  const the = (id) => names?.[id];
  let m = /^(.+?) = null$/.exec(text);
  if (m) return `${named(m[1], names)} is null`;
  m = /^(.+?) = loc\d+$/.exec(text);
  if (m) return `${named(m[1], names)} is an object`;
  m = /^(.+?) = fresh o\d+ = (.+)$/.exec(text);
  if (m) return `${named(m[1], names)} is a new object, the same as ${named(m[2], names)}`;
  m = /^(.+?) = fresh o\d+$/.exec(text);
  if (m) return `${named(m[1], names)} is a new object`;
  m = /^(.+?) = (o\d+)$/.exec(text);
  if (m) return the(m[2]) ? `${named(m[1], names)} is the same object as ${the(m[2])}` : `${named(m[1], names)} is object ${m[2]}`;
  m = /^disjunct (\d+)$/.exec(text);
  if (m) return `case ${m[1]}`;
  return named(text, names);
}

/** One option of a choice in words (`null`, `an object`, `a new object`, `this.root`). */
export function optionWords(option, names) {
  const text = String(option ?? '');
  if (text === 'null') return 'null';
  if (/^loc\d+$/.test(text)) return 'an object';
  if (/^fresh o\d+$/.test(text)) return 'a new object';
  const alias = /^(o\d+)$/.exec(text);
  if (alias) return names?.[alias[1]] ? `the same object as ${names[alias[1]]}` : `object ${alias[1]}`;
  return named(text, names);
}
