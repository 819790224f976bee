// Java sources in wasm: every entry point reads a `.java` file through the Java front end, and
// the JUnit download of a Java program tests the pasted class itself. The oracle is the JDK: the
// downloaded tests compile next to the unmodified class with javac and pass under `java -ea`
// (the class's own `assert invariant()` runs on every generated input).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadEngine, loadBridge, ROOT } from './helpers.mjs';

const run = promisify(execFile);
const JUNIT = '/usr/share/java/junit-platform-console-standalone.jar';

let engine;
let bridge;
let tmp;
let source;

before(async () => {
  engine = await loadEngine();
  bridge = await loadBridge();
  tmp = await mkdtemp(path.join(tmpdir(), 'heaplab-java-'));
  source = await readFile(path.join(ROOT, 'examples/java/course/LinkedStack.java'), 'utf8');
});

after(async () => {
  await bridge?.shutdown();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

test('a .java name reads Java: no diagnostics, and the same text as .hl is told it looks like Java', () => {
  assert.equal(engine.looksLikeJava(source), true);
  assert.deepEqual(engine.check(source, 'LinkedStack.java').filter((d) => d.severity === 'error'), []);
  const asHl = engine.check(source, 'program.hl').filter((d) => d.severity === 'error');
  assert.ok(asHl.length > 0, 'the Java text is not HeapLab');
  assert.equal(engine.looksLikeJava('class Node { Node next; }\nmethod m(Node x) { }'), false);
});

test('methods of a Java program are its explorable methods, on their Java lines', () => {
  const ms = engine.methods(source, 'LinkedStack.java');
  const lines = source.split('\n');
  const push = ms.find((m) => /push/.test(m.name));
  assert.ok(push, `push is listed: ${JSON.stringify(ms.map((m) => m.name))}`);
  assert.match(lines[push.line - 1] + (lines[push.line] ?? ''), /push/);
});

test('methods of a Java program carry their Java signatures, and the left-out ones their reason', () => {
  const ms = engine.methods(source, 'LinkedStack.java');
  const lines = source.split('\n');
  const push = ms.find((m) => m.name === 'LinkedStack.push');
  assert.equal(push?.signature, 'LinkedStack.push(Item)', JSON.stringify(push));
  assert.equal(push.leftOut, undefined);
  // `iterator()` returns an `Iterator` (outside the subset): listed, with the reason the
  // checker gives, on its own line, and never offered as an explorable method.
  const iterator = ms.find((m) => m.signature === 'LinkedStack.iterator()');
  assert.ok(iterator, JSON.stringify(ms.map((m) => m.signature)));
  assert.match(iterator.leftOut, /Iterator/);
  assert.match(lines[iterator.line - 1], /\biterator\(\)/);
  const warnings = engine.check(source, 'LinkedStack.java').filter((d) => d.severity === 'warning');
  assert.ok(warnings.some((d) => d.message === iterator.leftOut), `the checker's warning: ${JSON.stringify(warnings.map((d) => d.message))}`);
  // A HeapLab program has neither.
  const hl = engine.methods('class Node { Node next; }\nvoid m(Node x) { }\n', 'program.hl');
  assert.deepEqual(hl.map((m) => [m.name, m.signature, m.leftOut]), [['m', undefined, undefined]]);
});

test('push explored under sl: the JUnit download compiles next to the class and passes with java -ea', async () => {
  const ms = engine.methods(source, 'LinkedStack.java');
  const push = ms.find((m) => /push/.test(m.name));
  const ex = new engine.Exploration(source, push.name, { strategy: 'sl', bounds: { k: 2 }, file: 'LinkedStack.java' }, bridge.solve);
  const summary = await ex.runToEnd(0);
  console.log(`push under sl: ${JSON.stringify(summary.paths ?? summary.counts ?? {})}`);
  const junit = ex.testsJunit('push');
  ex.free();
  assert.ok(junit.files.length > 0, `test files: ${JSON.stringify(junit)}`);
  const src = path.join(tmp, 'src');
  await mkdir(path.join(src, 'course'), { recursive: true });
  await writeFile(path.join(src, 'course/LinkedStack.java'), source);
  const written = [path.join(src, 'course/LinkedStack.java')];
  for (const f of junit.files) {
    const p = path.join(src, f.name);
    await mkdir(path.dirname(p), { recursive: true });
    await writeFile(p, f.text);
    written.push(p);
  }
  const out = path.join(tmp, 'out');
  await run('javac', ['-nowarn', '-cp', JUNIT, '-d', out, ...written], { maxBuffer: 1 << 24 });
  const res = await run('java', ['-ea', '-jar', JUNIT, '--class-path', out, '--scan-class-path', '--disable-banner', '--details=summary'], { maxBuffer: 1 << 24 }).catch((e) => e);
  const text = `${res.stdout}${res.stderr ?? ""}`;
  const found = Number(/(\d+) tests found/.exec(text)?.[1] ?? 0);
  const failed = Number(/(\d+) tests failed/.exec(text)?.[1] ?? -1);
  assert.ok(found > 0, text);
  assert.equal(failed, 0, text);
  console.log(`JUnit: ${found} tests found, ${failed} failed`);
});
