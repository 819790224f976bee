// The JS half of HeapLab's wasm solver transport.
//
// The Rust engine (crates/heaplab-wasm) speaks SMT-LIB2 text; this module owns the one Z3 wasm
// instance and turns a script into Z3's printed response. It is the only file that knows the
// z3-solver package, so swapping Z3 builds touches nothing else.
//
// Works in node (tests, bench) and in a Web Worker (the page). In a browser, z3-solver's
// `z3-built.js` must be loaded as its own script (importScripts in the worker) before `init()`,
// because Emscripten spawns its pthread workers from that file; a bundler would break it.

// Every script runs in its own assertion scope, so that a declaration in one query can never
// leak into the next. push/pop is much cheaper than (reset); after an exception the context is
// reset to be safe.
const PUSH = '(push 1)\n';
const POP = '\n(pop 1)\n';
const RESET = '(reset)';

let ready = null; // Promise<{ Z3, ctx }> once init started.

/** Thrown when Z3 wasm cannot be loaded; `.name` lets the Rust side map it to WasmLoad. */
export class Z3LoadError extends Error {
  constructor(message, cause) {
    super(`Z3 wasm failed to load: ${message}`, { cause });
    this.name = 'Z3LoadError';
  }
}

async function loadInit() {
  // Bundles and workers have no `global`; Emscripten's glue and z3-solver expect it.
  if (typeof globalThis.global === 'undefined') globalThis.global = globalThis;
  const isNode = typeof process !== 'undefined' && process.versions != null && process.versions.node != null;
  if (isNode) {
    const mod = await import('z3-solver');
    return (mod.init ?? mod.default?.init);
  }
  const mod = await import('z3-solver/build/browser.js');
  return (mod.init ?? mod.default?.init);
}

async function start() {
  if (typeof SharedArrayBuffer === 'undefined') {
    throw new Z3LoadError(
      'SharedArrayBuffer is not available (serve the page with COOP/COEP headers: ' +
        'Cross-Origin-Opener-Policy: same-origin, Cross-Origin-Embedder-Policy: require-corp)',
    );
  }
  let api;
  try {
    const init = await loadInit();
    if (typeof init !== 'function') throw new Error('z3-solver exports no init()');
    api = await init();
  } catch (err) {
    if (err instanceof Z3LoadError) throw err;
    throw new Z3LoadError(err && err.message ? err.message : String(err), err);
  }
  const { Z3 } = api;
  const cfg = Z3.mk_config();
  const ctx = Z3.mk_context(cfg);
  Z3.del_config(cfg);
  return { api, Z3, ctx };
}

/** Loads Z3 wasm once; later calls share the same instance. */
export function initZ3() {
  if (ready === null) {
    ready = start();
    // A failed load may be retried (e.g. after the user fixes headers).
    ready.catch(() => {
      ready = null;
    });
  }
  return ready;
}

// z3-solver's `Z3.eval_smtlib2_string` passes the script as a ccall 'string' argument, which
// Emscripten copies onto the wasm stack; the call returns (and the stack is reused) before Z3's
// worker thread has finished reading it. A long script could be overwritten mid-parse: garbled
// queries, and a `(pop 1)` that never runs, so declarations leak into later queries. We hand Z3
// a heap copy of the script that stays alive until Z3 has answered.
async function evalScript(api, ctx, text) {
  const em = api.em;
  if (!em || typeof em._malloc !== 'function' || typeof em.async_call !== 'function') {
    return api.Z3.eval_smtlib2_string(ctx, text);
  }
  // Encode into ordinary memory first: the wasm heap is a SharedArrayBuffer, which
  // TextEncoder.encodeInto refuses in browsers.
  const bytes = new TextEncoder().encode(text);
  const ptr = em._malloc(bytes.length + 1);
  if (!ptr) throw new Error('Z3 wasm is out of memory for a script of ' + bytes.length + ' bytes');
  try {
    // HEAPU8 is read after malloc: growing the heap replaces the view.
    em.HEAPU8.set(bytes, ptr);
    em.HEAPU8[ptr + bytes.length] = 0;
    return await em.async_call(() =>
      em.ccall('async_Z3_eval_smtlib2_string', 'void', ['number', 'number'], [ctx, ptr]),
    );
  } finally {
    em._free(ptr);
  }
}

// Z3 contexts are not re-entrant: queue scripts so that one finishes before the next starts.
let queue = Promise.resolve();

/**
 * Runs one SMT-LIB2 script on a fresh assertion stack and returns Z3's output text.
 * Z3 errors inside the script come back as `(error "...")` lines in the text, not as exceptions.
 * @param {string} text
 * @returns {Promise<string>}
 */
export function solve(text) {
  const run = async () => {
    const { api, ctx } = await initZ3();
    try {
      return await evalScript(api, ctx, PUSH + String(text) + POP);
    } catch (err) {
      await evalScript(api, ctx, RESET).catch(() => {});
      // Some z3-solver versions throw instead of printing the error; keep one text protocol.
      const msg = (err && err.message ? err.message : String(err)).replaceAll('"', '""');
      return `(error "${msg}")\n`;
    }
  };
  const res = queue.then(run, run);
  queue = res.catch(() => {});
  return res;
}

/**
 * Clears every declaration, assertion, scope and option of the context (`(reset)`): the SMT
 * console runs each query on a fresh solver, whatever the previous query left (an unclosed
 * parenthesis swallows the closing `(pop 1)`, a `(push)` of its own stays open).
 * @returns {Promise<void>}
 */
export function reset() {
  const run = async () => {
    const { api, ctx } = await initZ3();
    await evalScript(api, ctx, RESET).catch(() => {});
  };
  const res = queue.then(run, run);
  queue = res.catch(() => {});
  return res;
}

/** Stops Z3's worker threads so that node can exit. */
export async function shutdown() {
  if (ready === null) return;
  const { api, Z3, ctx } = await ready;
  ready = null;
  Z3.del_context(ctx);
  const mod = await import('z3-solver');
  const killThreads = mod.killThreads ?? mod.default?.killThreads;
  if (typeof killThreads === 'function') await killThreads(api.em);
}
