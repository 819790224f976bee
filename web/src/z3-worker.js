// The Z3 worker: Z3 wasm (z3-built.js/.wasm, through z3-bridge.js) in a worker of its own, started
// by engine.js only when something needs Z3: the first query the engine cannot decide itself, or
// the SMT console. The page's first visit therefore downloads no Z3 at all.
//
// Bundled as a classic script (not a module worker): Z3's Emscripten glue, z3-built.js, must be
// loaded with importScripts as its own file, because its pthreads start new workers from it.
//
// Two ways in:
//  - from the page (engine.js): requests `{ id, type, ...payload }` answered by
//    `{ id, ok, result | error, errorName }` (`load`, `smt`, `resources`), the ports of engine
//    workers (`{ type: 'port' }` with a transferred MessagePort), and status events pushed
//    without an id: `{ type: 'z3', state, loaded, total, ms }`, `{ type: 'z3busy', busy }`,
//    `{ type: 'log', kind, text }`;
//  - from an engine worker, over its MessagePort: `{ id, text }` (one SMT-LIB2 script) answered by
//    `{ id, ok, result | error, name }`; the worker also says `{ type: 'ready' }` on every port
//    once Z3 answers, so that the engine knows it may ask without waiting.

import { initZ3, solve } from './z3-bridge.js';

// Emscripten's glue and z3-solver expect a `global`; a worker has only `self`/`globalThis`.
globalThis.global = globalThis;

/* global __Z3_WASM_BYTES__ */
// The uncompressed size of z3-built.wasm, written in by build.mjs, for the progress bar.
const Z3_WASM_BYTES = typeof __Z3_WASM_BYTES__ === 'number' ? __Z3_WASM_BYTES__ : 0;
// The SMT console's time limit for Z3 (its `:timeout` option; check-sat then says unknown).
const SMT_TIMEOUT_MS = 10000;

const post = (message) => self.postMessage(message);
const log = (kind, text) => post({ type: 'log', kind, text });

let loading = null;
let ready = false;
const ports = new Set();

/** Downloads z3-built.wasm ourselves so that the page can show progress. */
async function fetchWithProgress(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  const total = Z3_WASM_BYTES || Number(response.headers.get('Content-Length')) || 0;
  if (!response.body) return new Uint8Array(await response.arrayBuffer());
  const reader = response.body.getReader();
  const chunks = [];
  let loaded = 0;
  let lastPost = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    loaded += value.length;
    const now = performance.now();
    if (now - lastPost > 100) {
      lastPost = now;
      post({ type: 'z3', state: 'downloading', loaded, total });
    }
  }
  post({ type: 'z3', state: 'downloading', loaded, total: Math.max(total, loaded) });
  const bytes = new Uint8Array(loaded);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return bytes;
}

function load() {
  if (loading) return loading;
  loading = (async () => {
    const started = performance.now();
    if (typeof SharedArrayBuffer === 'undefined' || self.crossOriginIsolated === false) {
      throw Object.assign(new Error('SharedArrayBuffer is not available: the page is not cross-origin isolated'), {
        name: 'NotIsolated',
      });
    }
    post({ type: 'z3', state: 'downloading', loaded: 0, total: Z3_WASM_BYTES });
    const scriptUrl = new URL('z3-built.js', self.location.href).href;
    const wasmUrl = new URL('z3-built.wasm', self.location.href).href;
    const binary = await fetchWithProgress(wasmUrl);
    post({ type: 'z3', state: 'starting' });
    importScripts(scriptUrl);
    // z3-built.js defines `initZ3(moduleArg)`. In a worker it cannot find its own URL (there is
    // no document.currentScript), so tell it where it lives for its pthread workers, and hand
    // it the bytes we already downloaded.
    const emscriptenInit = globalThis.initZ3;
    globalThis.initZ3 = (moduleArg = {}) =>
      emscriptenInit({ mainScriptUrlOrBlob: scriptUrl, wasmBinary: binary, ...moduleArg });
    await initZ3();
    // A real query, so that "ready" means Z3 answers.
    const answer = (await solve('(declare-const x Int)(assert (> x 1))(check-sat)')).trim();
    if (answer !== 'sat') throw new Error(`Z3 answered "${answer}" to a trivial query`);
    const ms = Math.round(performance.now() - started);
    ready = true;
    post({ type: 'z3', state: 'ready', ms });
    log('z3', `Z3 ready in ${ms} ms`);
    for (const port of ports) port.postMessage({ type: 'ready' });
  })();
  loading.catch((err) => {
    loading = null;
    post({ type: 'z3', state: 'error', name: err?.name ?? 'Error', message: String(err?.message ?? err) });
  });
  return loading;
}

// Scripts in flight, for the page: Cancel restarts this worker only while Z3 is busy (a query
// that runs for long would otherwise hold up every later one).
let inFlight = 0;
async function solveCounted(text) {
  if (inFlight++ === 0) post({ type: 'z3busy', busy: true });
  try {
    await load();
    return await solve(text);
  } finally {
    if (--inFlight === 0) post({ type: 'z3busy', busy: false });
  }
}

/** An engine worker's channel: one script per message, answered with the same id. */
function attach(port) {
  ports.add(port);
  port.onmessage = async ({ data }) => {
    if (data?.type === 'close') {
      ports.delete(port);
      port.close();
      return;
    }
    const { id, text } = data;
    try {
      port.postMessage({ id, ok: true, result: await solveCounted(text) });
    } catch (err) {
      port.postMessage({ id, ok: false, error: String(err?.message ?? err), name: err?.name ?? 'Error' });
    }
  };
  if (ready) port.postMessage({ type: 'ready' });
}

const handlers = {
  async load() {
    await load();
    return true;
  },
  /**
   * The SMT console: one script, with Z3's own time limit, and error line numbers counted from
   * the script's first line (Z3's parser keeps counting lines across the scripts of one context,
   * so a probe just before the script says where it starts).
   */
  async smt({ text, timeoutMs = SMT_TIMEOUT_MS }) {
    const started = performance.now();
    const probe = await solveCounted('(heaplab-line-probe)');
    const at = /line:? (\d+)/.exec(probe);
    // The probe is the second line of its wrapped script (after the push), and the script it
    // is wrapped in ends two lines later; the console's script starts one line after that, with
    // the push and the time-limit line first.
    const first = at ? Number(at[1]) + 1 + 2 : null;
    const answer = await solveCounted(`(set-option :timeout ${timeoutMs})\n${text}`);
    const fixed = first === null ? answer
      : answer.replace(/\bline(:?) (\d+)/g, (m, colon, n) => `line${colon} ${Math.max(1, Number(n) - first)}`);
    log('smt', `${text.trim()}\n;; => ${fixed.trim()} (${Math.round(performance.now() - started)} ms)`);
    return fixed;
  },
  /** What this worker downloaded (Resource Timing), for the budget script and the debug panel. */
  async resources() {
    return performance.getEntriesByType('resource').map((e) => ({
      name: e.name, transferSize: e.transferSize, encodedBodySize: e.encodedBodySize,
    }));
  },
};

self.onmessage = async ({ data, ports: transferred }) => {
  if (data?.type === 'port') {
    attach(transferred[0]);
    return;
  }
  const { id, type } = data;
  try {
    const handler = handlers[type];
    if (!handler) throw new Error(`unknown request type "${type}"`);
    const result = await handler(data);
    if (id) post({ id, ok: true, result });
  } catch (err) {
    if (id) post({ id, ok: false, error: String(err?.message ?? err), errorName: err?.name ?? 'Error' });
  }
};
