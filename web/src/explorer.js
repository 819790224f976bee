// Drives symbolic explorations for the page: carries out the Explore panel's commands
// (explore/run, explore/step, explore/stepOver, explore/pause, explore/select, compare/run) with
// the engine worker, and feeds what comes back into the store. The exploration itself lives in
// the worker (worker.js, "symbolic exploration"); this module only keeps which run is current.

import { Cancelled } from './engine.js';
import { exploreMethod, strategyRow } from './store.js';
import { BOUNDS, DEFAULT_STRATEGY } from './vocabulary.js';
// Cancel asks the worker to stop and keep the tests found so far; a worker that does not answer
// within this time (a long Z3 query) is restarted instead, and the tests are lost.
const STOP_GRACE_MS = 4000;

/**
 * The engine's run options (`Options` of report-types.js) from the settings: the strategy,
 * the precondition mode and every bound the user filled in (by the bound table's names).
 * Explore and Compare both use it, so that they run the same explorations.
 * @returns {import('./report-types.js').Options}
 */
export function exploreOptions(settings, strategies = []) {
  const options = { strategy: settings.strategy || DEFAULT_STRATEGY, pre: settings.pre === 'ignore' ? 'ignore' : 'assume', bounds: {} };
  for (const { name } of BOUNDS) {
    const text = String(settings[name] ?? '').trim();
    if (text !== '' && Number.isFinite(Number(text))) options.bounds[name] = Math.max(0, Math.floor(Number(text)));
  }
  // The all-heaps mode (a test for every distinct input heap of a path) concerns only the
  // strategies whose paths can have several heaps (the registry says which).
  if (strategyRow(strategies, options.strategy)?.all_heaps && settings.allHeaps === true) options.all_heaps = true;
  return options;
}

/** An engine error in words: a question that needed Z3 where it cannot run is said plainly. */
function plainError(err) {
  if (err?.kind === 'NoZ3') {
    return 'A question needs Z3, and Z3 cannot run here (this page is not cross-origin isolated). ' +
      'Open the program in HeapLab to go on.';
  }
  return String(err?.message ?? err);
}

export function createExplorer(store, engine) {
  // The worker's exploration belongs to this run id; commands for an older run are dropped.
  let started = -1;
  // The run whose exploration the worker holds (finished ones too, until the next start), so
  // that its nodes' heaps can still be shown.
  let inWorker = -1;
  // One command at a time: a click while a step is running waits for it.
  let queue = Promise.resolve();
  const enqueue = (work) => {
    queue = queue.then(work, work);
    return queue;
  };

  const explore = () => store.getState().explore;
  const fail = (err, runId) => {
    if (err?.name === 'Stale') return;
    const error = err instanceof Cancelled
      ? 'Cancelled: the engine was restarted. The tree keeps what was explored; start again to continue.'
      : plainError(err);
    store.dispatch({ type: 'explore/error', runId, error, kind: err?.kind ?? '' });
  };

  // The steps of the current run, when it was only stepped (a Run clears them): the Step /
  // Step over modes in order, and how many of them the shown state has taken (`position`; the
  // later ones are a future the timeline can go back to). Going back starts the same
  // exploration again and replays the first steps; the engine is deterministic, so the replay
  // ends in the state those steps reached.
  let history = { runId: -1, modes: [], position: 0 };
  const recordHistory = (runId, modes, position = modes.length) => {
    history = { runId, modes, position };
    store.dispatch({ type: 'explore/history', runId, steps: position, furthest: modes.length });
  };

  /**
   * Starts a new exploration in the worker unless the current one can go on; `again` starts
   * the given method and options (Step back's replay) whatever the settings say now.
   */
  async function ensureStarted(again = null) {
    const ex = explore();
    if (!again && ex.runId === started && (ex.status === 'paused' || ex.status === 'running')) return ex.runId;
    const { source, settings, strategies, lang } = store.getState();
    const method = again?.method ?? exploreMethod(store.getState());
    if (!method) throw new Error('The program has no method to explore.');
    const options = again?.options ?? exploreOptions(settings.explore, strategies);
    store.dispatch({ type: 'explore/start', method, strategy: options.strategy, options });
    const { runId } = explore();
    await engine.request('exploreStart', { source, method, options, runId, lang });
    started = runId;
    inWorker = runId;
    store.dispatch({ type: 'explore/status', runId, status: 'paused' });
    return runId;
  }

  /** Applies a step's or run's final answer. */
  function settle(runId, res, follow) {
    store.dispatch({ type: 'explore/batch', runId, nodes: res.nodes, columns: res.columns, events: res.events, eventsJson: res.eventsJson, summary: res.summary,
      solver: res.solver, status: res.over ? 'running' : 'paused', follow });
    if (res.over) {
      // The method's parameter names label each test's arguments in its picture.
      const method = store.getState().methods.find((m) => m.name === explore().method);
      const tests = res.tests.map((t) => ({ ...t, params: method?.params ?? [] }));
      store.dispatch({ type: 'explore/done', runId, summary: res.summary, tests,
        coverage: res.coverage, downloads: res.downloads });
      started = -1;
    }
  }

  /**
   * The `concolic` strategy: one request runs it all (concolicRun); views/concolic.js replays
   * its events run by run, and its tests go to the tests panel as an exploration's do.
   */
  async function concolic() {
    const { source, settings, lang } = store.getState();
    const method = exploreMethod(store.getState());
    if (!method) {
      store.dispatch({ type: 'explore/error', error: 'The program has no method to explore.' });
      return;
    }
    const options = exploreOptions(settings.explore, store.getState().strategies);
    store.dispatch({ type: 'explore/start', method, strategy: options.strategy, options });
    const { runId } = explore();
    started = -1;
    inWorker = -1;
    store.dispatch({ type: 'concolic/start', runId, method });
    store.dispatch({ type: 'explore/status', runId, status: 'running' });
    // The same options as an exploration (the Compare tab's concolic row passes them too):
    // the loop reads the order, the depth bound (phase 1), max_paths (runs) and timeout_ms.
    try {
      const res = await engine.request('concolicRun', { source, method, options, runId, lang });
      if (explore().runId !== runId) return;
      store.dispatch({ type: 'concolic/done', runId, result: res });
      const m = store.getState().methods.find((x) => x.name === method);
      const tests = res.tests.map((t) => ({ ...t, params: m?.params ?? [] }));
      // The run summary has an exploration's keys (report-types.js RunSummary).
      const summary = res.summary;
      store.dispatch({ type: 'explore/done', runId, summary, tests, coverage: null,
        downloads: { hl: res.hl, json: res.json, junit: res.junit } });
    } catch (err) {
      fail(err, runId);
    }
  }

  // A strategy with its own driver (the registry's `concolic` row) runs through concolicRun.
  const isConcolic = () => {
    const { strategies, settings } = store.getState();
    return strategyRow(strategies, settings.explore.strategy)?.driver === 'concolic_loop';
  };

  async function step(mode) {
    if (isConcolic()) return concolic();
    let runId;
    try {
      runId = await ensureStarted();
      const { modes, position } = history.runId === runId ? history : { modes: [], position: 0 };
      store.dispatch({ type: 'explore/status', runId, status: 'running' });
      const res = await engine.request('exploreStep', { runId, mode });
      settle(runId, res, true);
      // The same step as the recorded one keeps the future; another one replaces it.
      const kept = modes[position] === mode ? modes : [...modes.slice(0, position), mode];
      if (res.over) recordHistory(runId, []);
      else recordHistory(runId, kept, position + 1);
    } catch (err) {
      fail(err, runId);
    }
  }

  /**
   * The state after the first `target` recorded steps: forward by stepping on, back by starting
   * the same exploration again and replaying them (Step back is one step back).
   */
  async function goTo(target) {
    const ex = explore();
    const { source } = store.getState();
    const { modes, position } = history;
    if (history.runId !== ex.runId || ex.status !== 'paused' || ex.source !== source) return;
    if (!Number.isInteger(target) || target < 0 || target > modes.length || target === position) return;
    let runId = ex.runId;
    try {
      let from = position;
      if (target < position) {
        runId = await ensureStarted({ method: ex.method, options: ex.options });
        from = 0;
      }
      for (const mode of modes.slice(from, target)) {
        store.dispatch({ type: 'explore/status', runId, status: 'running' });
        const res = await engine.request('exploreStep', { runId, mode });
        settle(runId, res, true);
        if (res.over) return recordHistory(runId, []);
      }
      recordHistory(runId, modes, target);
    } catch (err) {
      fail(err, runId);
    }
  }

  async function run() {
    if (isConcolic()) return concolic();
    let runId;
    try {
      runId = await ensureStarted();
      recordHistory(runId, []);
      store.dispatch({ type: 'explore/status', runId, status: 'running' });
      const res = await engine.request('exploreRun', { runId });
      settle(runId, res, false);
    } catch (err) {
      fail(err, runId);
    }
  }

  /**
   * A resolved symbolic reference (`ref0 = null`, `loc1 = o2`) is gone from the child's heap; the
   * fields and roots that held it, read from the parent's heap, are what the step changed.
   */
  async function resolvedHolders(runId, node) {
    const n = explore().tree.nodes[node];
    if (!n || n.parent === null || n.change?.kind !== 'resolve') return [];
    const parent = await engine.request('exploreView', { runId, node: n.parent });
    const id = n.change.engineTarget ?? n.change.target;
    const holders = [];
    for (const o of parent?.objects ?? []) {
      for (const f of o.fields) if (f.value?.id === id) holders.push({ object: o.id, field: f.name });
    }
    for (const r of parent?.roots ?? []) if (r.value?.id === id) holders.push({ root: r.name });
    return holders;
  }

  /**
   * What a case of a predicate's definition added to the state, for a case whose event carries
   * no formula (a `requires` written with `|`): the facts, objects and folded instances the child has and its parent
   * has not. Null for other nodes.
   */
  async function addedByCase(runId, node, view) {
    const n = explore().tree.nodes[node];
    if (!n || n.parent === null || n.change?.kind !== 'disjunct' || n.change.formula || view.caseFormula) return null;
    const parent = await engine.request('exploreView', { runId, node: n.parent });
    if (!parent) return null;
    const had = (list, key) => new Set((list ?? []).map(key));
    const facts = had(parent.pathCondition, (f) => f);
    const objects = had(parent.objects, (o) => o.id);
    const preds = had(parent.predicates, (p) => p.text);
    return {
      facts: (view.pathCondition ?? []).filter((f) => !facts.has(f)),
      objects: (view.objects ?? []).filter((o) => !objects.has(o.id)).map((o) => `${o.id} : ${o.class}`),
      predicates: (view.predicates ?? []).filter((p) => !preds.has(p.text)).map((p) => p.text),
      gone: (parent.predicates ?? []).filter((p) => !(view.predicates ?? []).some((q) => q.text === p.text)).map((p) => p.text),
    };
  }

  /** Fetches the heap view of the selected node (dropped when a newer selection came). */
  async function fetchView() {
    const { selected, runId, viewNode, view } = explore();
    if (selected === null || (viewNode === selected && view)) return;
    if (inWorker !== runId) {
      // The worker no longer holds this run (cancelled or restarted): nothing to show.
      store.dispatch({ type: 'explore/view', runId, node: selected, view: null, missing: 'gone' });
      return;
    }
    try {
      const view = await engine.request('exploreView', { runId, node: selected });
      if (view) view.changedFields = await resolvedHolders(runId, selected);
      if (view) view.added = await addedByCase(runId, selected, view);
      // No view: the engine keeps the states of a run's first nodes only (VIEW_LIMIT).
      if (explore().selected === selected) store.dispatch({ type: 'explore/view', runId, node: selected, view, missing: view ? null : 'notKept' });
    } catch (err) {
      if (!(err instanceof Cancelled) && err?.name !== 'Stale') {
        store.dispatch({ type: 'log/add', kind: 'explore', text: `heap view of node ${selected}: ${err.message}` });
      }
    }
  }

  /**
   * Cancel that keeps the tests: the worker stops exploring at the next event and generates the
   * tests of the paths found so far (marked partial). If it does not answer soon (stuck in a
   * long solver query), the worker is restarted and only the tree is kept.
   */
  async function stop() {
    const ex = explore();
    if (ex.runId !== started || !['running', 'paused', 'starting'].includes(ex.status) || ex.stopping) {
      if (ex.status === 'starting' || ex.status === 'running') hardCancel();
      return;
    }
    const { runId } = ex;
    store.dispatch({ type: 'explore/stopping', runId });
    const timer = setTimeout(() => {
      if (explore().runId === runId && explore().stopping) hardCancel();
    }, STOP_GRACE_MS);
    try {
      // A run in progress answers its own request with the tests; otherwise this answers.
      let res = await engine.request('exploreStop', { runId });
      if (!res) {
        // A step was in flight: once it is over, stop again (a run settles by itself).
        await queue;
        if (explore().runId === runId && explore().stopping && explore().status !== 'done') {
          res = await engine.request('exploreStop', { runId });
        }
      }
      if (res && explore().runId === runId) settle(runId, res, false);
    } catch (err) {
      fail(err, runId);
    } finally {
      clearTimeout(timer);
    }
  }

  function hardCancel() {
    engine.cancel();
    api.cancelled();
  }

  async function compare() {
    const { source, settings, strategies } = store.getState();
    const method = exploreMethod(store.getState());
    if (!method) {
      store.dispatch({ type: 'compare/error', error: 'The program has no method to compare strategies on.' });
      return;
    }
    const options = exploreOptions(settings.explore, strategies);
    delete options.strategy;
    // Compare's rows count one test per path, as `heaplab compare` does.
    delete options.all_heaps;
    store.dispatch({ type: 'compare/start', method, pre: options.pre });
    try {
      const rows = await engine.request('compare', {
        source, method, options, strategies: strategies.map((s) => s.name), lang: store.getState().lang,
      });
      store.dispatch({ type: 'compare/done', rows });
    } catch (err) {
      store.dispatch({ type: 'compare/error', error: err instanceof Cancelled ? 'Cancelled.' : plainError(err), kind: err?.kind ?? '' });
    }
  }

  /** `symheap`: the concrete worlds of the selected node, asked once per node. */
  async function fetchWorlds(node) {
    const { runId } = explore();
    try {
      const result = await engine.request('exploreWorlds', { runId, node });
      store.dispatch({ type: 'explore/worldsResult', runId, node, result, error: result ? '' : 'no view of this node' });
    } catch (err) {
      store.dispatch({ type: 'explore/worldsResult', runId, node, result: null, error: err.message });
    }
  }

  store.subscribe((state, action) => {
    switch (action.type) {
      case 'explore/worlds': fetchWorlds(action.node); break;
      case 'explore/run': enqueue(run); break;
      case 'explore/step': enqueue(() => step('event')); break;
      case 'explore/stepOver': enqueue(() => step('decision')); break;
      case 'explore/stepBack': enqueue(() => goTo(history.position - 1)); break;
      case 'explore/goTo': enqueue(() => goTo(action.step)); break;
      case 'explore/cancel': stop(); break;
      case 'explore/pause':
        // Not queued: it must reach the worker while a run is in progress.
        if (state.explore.status === 'running') engine.request('explorePause', { runId: state.explore.runId }).catch(() => {});
        break;
      case 'explore/done':
        // The selected node's snapshot may have been taken before its path ended.
        if (state.explore.selected !== null) {
          store.dispatch({ type: 'explore/view', runId: state.explore.runId, node: null, view: null });
        }
        break;
      case 'explore/select':
      case 'explore/batch':
      case 'explore/view':
        if (state.explore.selected !== null && state.explore.viewNode !== state.explore.selected) fetchView();
        break;
      case 'source/changed':
        // The tree describes the old program: keep it on screen, but the next command starts over.
        started = -1;
        break;
      case 'compare/run': compare(); break;
      default: break;
    }
  });

  const api = {
    /** The worker was restarted: its exploration is gone. */
    cancelled() {
      if (started !== -1 || explore().status === 'running' || explore().status === 'starting') {
        fail(new Cancelled(), explore().runId);
      }
      started = -1;
      inWorker = -1;
    },
  };
  return api;
}
