// Which language a program text is written in, HeapLab or Java. The page decides this once, here,
// and sends its choice to the worker with every request (worker.js `fileOf`), so the editor's
// colours, the checker and the explorer always agree. The rule is the engine's own
// (heaplab_java::looks_like_java; tests/node/lang.test.mjs checks that the two agree on every
// example): among the first 20 lines of code (comment lines skipped), one starts with a word
// HeapLab does not have (`package`, `import`, an access modifier, `final`, `abstract`) or with
// an annotation.

const JAVA_FIRST_WORDS = new Set(['package', 'import', 'public', 'private', 'protected', 'final', 'abstract']);

/** Whether `text` is Java rather than HeapLab. */
export function looksLikeJava(text) {
  const code = String(text ?? '').split('\n').map((l) => l.trimStart())
    .filter((l) => l !== '' && !l.startsWith('//') && !l.startsWith('*') && !l.startsWith('/*'));
  return code.slice(0, 20).some((line) => JAVA_FIRST_WORDS.has(line.split(/\s+/)[0]) || line.startsWith('@'));
}

/** The language of a text: `'java'` or `'hl'`. */
export function detectLang(text) {
  return looksLikeJava(text) ? 'java' : 'hl';
}

/** The language an example file is written in, by its name (`java/BST.java`). */
export function langOfFile(file) {
  return /\.java$/i.test(String(file)) ? 'java' : 'hl';
}
