// The page's language (issue 29, item 5): the page detects HeapLab or Java once, in
// web/src/lang/detect.js, and names it in every request to the worker, so its rule must be the
// engine's. The oracle for detection is the wasm engine's own `looksLikeJava`
// (heaplab_java::looks_like_java), on every example of examples/ (HeapLab, duels, Java, course
// classes) and on texts near the rule's edges. Then: how the store keeps a chosen language
// across edits and a new program, and the links that carry it (share.js).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { loadEngine, ROOT } from './helpers.mjs';
import { detectLang, langOfFile, looksLikeJava } from '../../web/src/lang/detect.js';
import { createStore, initialState } from '../../web/src/store.js';
import {
  exampleFromUrl, fromUrl, langOfSnapshot, shareUrl, snapshot,
} from '../../web/src/share.js';

let engine;
before(async () => {
  engine = await loadEngine();
});

async function examples() {
  const out = [];
  for (const dir of ['examples', 'examples/duels', 'examples/java', 'examples/java/course']) {
    for (const f of (await readdir(path.join(ROOT, dir))).filter((n) => /\.(hl|java)$/.test(n))) {
      out.push({ file: `${dir}/${f}`, text: await readFile(path.join(ROOT, dir, f), 'utf8') });
    }
  }
  return out;
}

test('the page detects the language as the engine does, on every example and at the edges', async () => {
  const all = await examples();
  const java = all.filter((e) => e.file.endsWith('.java'));
  assert.ok(java.length >= 13, `Java examples: ${java.length}`);
  for (const { file, text } of all) {
    assert.equal(looksLikeJava(text), engine.looksLikeJava(text), file);
    // Every example is detected as what its name says.
    assert.equal(detectLang(text), langOfFile(file), file);
  }
  const edges = [
    'class Node { Node next; }\nmethod m(Node x) { }',
    '// public class A {}\nclass A { int x; }',
    '/* package a; */\nclass A { }',
    ' * import x;\nclass A { }',
    '@Override\nvoid f() {}',
    'class A {\n  private int x;\n}',
    'class A { private int x; }',
    '\n'.repeat(3) + 'final class A {}',
    `${'class A {}\n'.repeat(20)}public class B {}`,
    '',
  ];
  for (const text of edges) assert.equal(looksLikeJava(text), engine.looksLikeJava(text), JSON.stringify(text));
});

test('a chosen language survives edits; a new program pasted whole is detected again', () => {
  const java = 'public class A {\n  int x;\n}\n';
  const store = createStore(initialState({ source: 'class A { int x; }' }));
  assert.deepEqual([store.getState().lang, store.getState().langAuto], ['hl', true]);
  // Typing follows the text while the language is detected.
  store.dispatch({ type: 'source/changed', source: java });
  assert.deepEqual([store.getState().lang, store.getState().langAuto], ['java', true]);
  // Chosen in the menu: kept over edits that would be detected otherwise.
  store.dispatch({ type: 'lang/set', lang: 'hl' });
  store.dispatch({ type: 'source/changed', source: `${java}// more\n` });
  assert.deepEqual([store.getState().lang, store.getState().langAuto], ['hl', false]);
  // Another program pasted over the whole text is detected afresh.
  store.dispatch({ type: 'source/changed', source: `package p;\n${java}`, replaced: true });
  assert.deepEqual([store.getState().lang, store.getState().langAuto], ['java', true]);
  // A choice made for a program being opened holds when its text arrives after the choice
  // (a recent program opened from the menu), and Detect goes back to the text.
  const plain = 'class Node { Node next; }\n';
  store.dispatch({ type: 'lang/set', lang: 'java', source: plain });
  store.dispatch({ type: 'source/changed', source: plain, replaced: true });
  assert.deepEqual([store.getState().lang, store.getState().langAuto], ['java', false]);
  store.dispatch({ type: 'lang/set', auto: true });
  assert.deepEqual([store.getState().lang, store.getState().langAuto], ['hl', true]);
  // A link's language differing from detection starts the page with that choice.
  const linked = initialState({ source: plain, lang: 'java' });
  assert.deepEqual([linked.lang, linked.langAuto], ['java', false]);
});

test('share links carry the language; older links leave it to detection; Java examples have links', async () => {
  const plain = 'class Node { Node next; }\n';
  const state = { ...initialState({ source: plain, lang: 'java' }) };
  const url = await shareUrl('http://h/heaplab/', snapshot(state), { embed: 'explore' });
  const snap = await fromUrl(url);
  assert.equal(snap.source, plain);
  assert.equal(langOfSnapshot(snap), 'java');
  assert.equal(langOfSnapshot({ v: 1, source: plain }), null);
  assert.equal(langOfSnapshot({ v: 1, source: plain, lang: 'cobol' }), null);

  assert.equal(exampleFromUrl('http://h/#example=java/BST.java'), 'java/BST.java');
  assert.equal(exampleFromUrl('http://h/#example=java/course/LinkedStack.java'), 'java/course/LinkedStack.java');
  assert.equal(exampleFromUrl('http://h/#example=bst.hl'), 'bst.hl');
  assert.equal(exampleFromUrl('http://h/#example=duels/bst-insert.hl'), 'duels/bst-insert.hl');
  for (const bad of ['java/../index.html', 'java/.hidden.java', 'java/a/b/C.java', 'BST.java', '../x.hl', 'java/BST.hl']) {
    assert.equal(exampleFromUrl(`http://h/#example=${bad}`), null, bad);
  }
});

test('every Java example of the gallery checks clean when the page reads it as Java, with methods to explore', async () => {
  for (const { file, text } of (await examples()).filter((e) => e.file.endsWith('.java'))) {
    // The file name `java` reads Java, as the worker's `Program.java` does (`fileOf`).
    const errors = engine.check(text, 'java').filter((d) => d.severity === 'error');
    assert.deepEqual(errors.map((d) => `${d.line}:${d.col} ${d.message}`), [], file);
    const explorable = engine.methods(text, 'java').filter((m) => !m.leftOut);
    assert.ok(explorable.length > 0 && explorable.every((m) => m.signature), file);
  }
});
