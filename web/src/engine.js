// The only module that talks to the workers: the engine worker (worker.js, the wasm engine) and
// the Z3 worker (z3-worker.js), which starts only when something needs Z3: the first query the
// engine cannot decide itself (the engine worker says `z3need`), the SMT console, or `loadZ3()`.
// The two workers talk directly over a MessageChannel made here: the engine worker holds one end
// from its start, the Z3 worker gets the other when it starts (messages sent before wait in the
// channel). Requests are promises matched to answers by id; the workers also push status events
// (engine loaded, Z3 download progress, solver log). Cancel terminates the engine worker, so a
// runaway run can always be stopped, and starts a fresh one; Z3 keeps running unless it was in
// the middle of a query.

/** Rejection reason of requests that were running when the worker was cancelled. */
export class Cancelled extends Error {
  constructor() {
    super('cancelled');
    this.name = 'Cancelled';
  }
}

// Requests the Z3 worker answers (the page's own questions to Z3); every other goes to the engine.
const Z3_REQUESTS = { smt: 'smt', z3Resources: 'resources', loadZ3: 'load' };

/**
 * An answer with its tests as objects: the engine worker sends a finished exploration's tests as
 * JSON text (`testsText`), which crosses postMessage as one copy where objects are cloned field by
 * field at both ends.
 */
function withTests(result) {
  if (typeof result?.testsText !== 'string') return result;
  const { testsText, ...rest } = result;
  return { ...rest, tests: JSON.parse(testsText) };
}

/**
 * @param {{ onEvent: (event: object) => void, workerUrl?: string, z3WorkerUrl?: string }} options
 *   `onEvent` receives `{ type: 'engine', state, ... }`, `{ type: 'z3', state, loaded, total }`,
 *   `{ type: 'log', kind, text }` and `{ type: 'crash', message }`.
 */
export function createEngine({ onEvent, workerUrl = 'worker.js', z3WorkerUrl = 'z3-worker.js' }) {
  let worker = null;
  let nextId = 1;
  const pending = new Map(); // id -> { resolve, reject }
  // The Z3 side: its worker once started, its requests, whether a script is in flight there, and
  // the end of the current engine worker's channel that the Z3 worker has not received yet.
  let z3 = null;
  const z3Pending = new Map();
  let z3Busy = false;
  let z3PortWaiting = null;

  function rejectAll(map, err) {
    for (const { reject } of map.values()) reject(err);
    map.clear();
  }

  function settle(map, data) {
    const waiter = map.get(data.id);
    if (!waiter) return false;
    map.delete(data.id);
    if (data.ok) waiter.resolve(withTests(data.result));
    else waiter.reject(Object.assign(new Error(data.error), { name: data.errorName || 'Error', kind: data.errorKind }));
    return true;
  }

  function start() {
    worker = new Worker(workerUrl, { name: 'heaplab-engine' });
    worker.onmessage = ({ data }) => {
      if (data.id !== undefined) {
        settle(pending, data);
        if (data.crashed) restart('crash', data.error);
        return;
      }
      if (data.type === 'fatal') {
        restart('crash', data.message);
        return;
      }
      if (data.type === 'z3need') {
        startZ3();
        return;
      }
      onEvent(data);
    };
    worker.onerror = (event) => {
      event.preventDefault();
      const message = event.message || 'the engine worker could not start';
      rejectAll(pending, new Error(message));
      onEvent({ type: 'engine', state: 'error', message });
    };
    const channel = new MessageChannel();
    worker.postMessage({ type: 'z3port' }, [channel.port1]);
    z3PortWaiting = channel.port2;
    if (z3) giveZ3Port();
    onEvent({ type: 'engine', state: 'loading' });
  }

  function giveZ3Port() {
    if (!z3PortWaiting) return;
    z3.postMessage({ type: 'port' }, [z3PortWaiting]);
    z3PortWaiting = null;
  }

  /** Starts the Z3 worker once (it downloads and starts Z3 at its first script or `load`). */
  function startZ3() {
    if (z3) return z3;
    z3 = new Worker(z3WorkerUrl, { name: 'heaplab-z3' });
    z3.onmessage = ({ data }) => {
      if (data.id !== undefined) {
        settle(z3Pending, data);
        return;
      }
      if (data.type === 'z3busy') {
        z3Busy = data.busy;
        return;
      }
      onEvent(data);
    };
    z3.onerror = (event) => {
      event.preventDefault();
      onEvent({ type: 'z3', state: 'error', name: 'Error', message: event.message || 'the Z3 worker could not start' });
    };
    giveZ3Port();
    return z3;
  }

  /** Stops the Z3 worker (its scripts fail); the next need starts a fresh one. */
  function stopZ3(err) {
    if (!z3) return;
    z3.terminate();
    z3 = null;
    z3Busy = false;
    rejectAll(z3Pending, err);
    onEvent({ type: 'z3', state: 'idle' });
  }

  function restart(reason, message) {
    worker?.terminate();
    const err = reason === 'cancel' ? new Cancelled() : new Error(message || 'the engine stopped');
    rejectAll(pending, err);
    // A query Z3 is still working on would hold up every later one: start Z3 afresh too.
    if (z3Busy) stopZ3(err);
    if (reason === 'crash') onEvent({ type: 'crash', message });
    start();
  }

  start();

  function requestZ3(type, payload) {
    const id = nextId++;
    return new Promise((resolve, reject) => {
      z3Pending.set(id, { resolve, reject });
      startZ3().postMessage({ id, type: Z3_REQUESTS[type], ...payload });
    });
  }

  return {
    /** Sends one request; resolves with the worker's result or rejects with its error. */
    request(type, payload = {}) {
      if (type in Z3_REQUESTS) return requestZ3(type, payload);
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        worker.postMessage({ id, type, ...payload });
      });
    },
    /** Tells the engine worker something that needs no answer (`exploreAck`). */
    notify(type, payload = {}) {
      worker.postMessage({ type, ...payload });
    },
    /** Starts Z3 now (the SMT console, a retry after a failed load). */
    loadZ3() {
      requestZ3('loadZ3', {}).catch(() => {
        // The Z3 worker reports the failure as a `z3` event.
      });
    },
    /** Whether the Z3 worker exists (Z3 was needed or asked for). */
    get z3Started() {
      return z3 !== null;
    },
    /** Stops whatever the engine worker is doing: it is terminated and a fresh one starts. */
    cancel() {
      restart('cancel');
    },
    get busy() {
      return pending.size > 0 || z3Pending.size > 0;
    },
  };
}
