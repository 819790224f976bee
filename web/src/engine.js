// The only module that talks to the worker (worker.js), which holds the wasm engine and Z3.
// Requests are promises matched to answers by id; the worker also pushes status events
// (engine loaded, Z3 download progress, solver log). Cancel terminates the worker, so a runaway
// run can always be stopped, and starts a fresh one.

/** Rejection reason of requests that were running when the worker was cancelled. */
export class Cancelled extends Error {
  constructor() {
    super('cancelled');
    this.name = 'Cancelled';
  }
}

/**
 * @param {{ onEvent: (event: object) => void, workerUrl?: string }} options
 *   `onEvent` receives `{ type: 'engine', state, ... }`, `{ type: 'z3', state, loaded, total }`,
 *   `{ type: 'log', kind, text }` and `{ type: 'crash', message }`.
 */
export function createEngine({ onEvent, workerUrl = 'worker.js' }) {
  let worker = null;
  let nextId = 1;
  const pending = new Map(); // id -> { resolve, reject }
  let z3Wanted = false;

  function rejectAll(err) {
    for (const { reject } of pending.values()) reject(err);
    pending.clear();
  }

  function start() {
    worker = new Worker(workerUrl, { name: 'heaplab-engine' });
    worker.onmessage = ({ data }) => {
      if (data.id !== undefined) {
        const waiter = pending.get(data.id);
        if (!waiter) return;
        pending.delete(data.id);
        if (data.ok) waiter.resolve(data.result);
        else waiter.reject(Object.assign(new Error(data.error), { name: data.errorName || 'Error', kind: data.errorKind }));
        if (data.crashed) restart('crash', data.error);
        return;
      }
      if (data.type === 'fatal') {
        restart('crash', data.message);
        return;
      }
      onEvent(data);
    };
    worker.onerror = (event) => {
      event.preventDefault();
      const message = event.message || 'the engine worker could not start';
      rejectAll(new Error(message));
      onEvent({ type: 'engine', state: 'error', message });
    };
    onEvent({ type: 'engine', state: 'loading' });
    if (z3Wanted) worker.postMessage({ id: 0, type: 'loadZ3' });
  }

  function restart(reason, message) {
    worker?.terminate();
    rejectAll(reason === 'cancel' ? new Cancelled() : new Error(message || 'the engine stopped'));
    if (reason === 'crash') onEvent({ type: 'crash', message });
    start();
  }

  start();

  return {
    /** Sends one request; resolves with the worker's result or rejects with its error. */
    request(type, payload = {}) {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        worker.postMessage({ id, type, ...payload });
      });
    },
    /** Starts loading Z3 in the worker (and again in every fresh worker after a cancel). */
    loadZ3() {
      z3Wanted = true;
      worker.postMessage({ id: 0, type: 'loadZ3' });
    },
    /** Stops whatever the worker is doing: it is terminated and a fresh one starts. */
    cancel() {
      restart('cancel');
    },
    get busy() {
      return pending.size > 0;
    },
  };
}
