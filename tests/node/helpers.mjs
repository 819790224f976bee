// Loads the wasm engine (web/pkg, built by `./build.sh build`) and Z3 wasm (web/src/z3-bridge.js)
// the way node tests need them: the .wasm bytes are read from disk and passed to init.
import { before, after } from 'node:test';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const PKG = path.join(ROOT, 'web/pkg');

export async function loadEngine() {
  const mod = await import(path.join(PKG, 'heaplab_wasm.js'));
  let bytes;
  try {
    bytes = await readFile(path.join(PKG, 'heaplab_wasm_bg.wasm'));
  } catch (err) {
    throw new Error(`web/pkg is missing: run ./build.sh build first (${err.message})`);
  }
  await mod.default({ module_or_path: bytes });
  return mod;
}

export async function loadBridge() {
  return import(path.join(ROOT, 'web/src/z3-bridge.js'));
}

/**
 * For a test file that needs both: loads the engine and the bridge before its tests and shuts
 * the bridge down after them. The holder's `engine` and `bridge` are set once `before` ran.
 */
export function engineAndBridge() {
  const held = { engine: null, bridge: null };
  before(async () => {
    held.engine = await loadEngine();
    held.bridge = await loadBridge();
  });
  after(async () => {
    await held.bridge?.shutdown();
  });
  return held;
}

export async function loadCorpus() {
  const text = await readFile(path.join(ROOT, 'crates/heaplab-smt/tests/corpus/conformance.json'), 'utf8');
  return JSON.parse(text).cases;
}
