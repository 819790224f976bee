// The page's single state, behind getState / subscribe / dispatch. Views read state, dispatch
// actions and never import one another; one reducer below says how every action changes state,
// so any bug reproduces from one state snapshot plus the actions that followed.

import { named, optionWords, plainLabel } from './words.js';
import { BOUNDS, DEFAULT_STRATEGY } from './vocabulary.js';
import { detectLang } from './lang/detect.js';
import { nodesOfColumns } from './tree-columns.js';

/** The bounds the page has controls for (the engine's table marks them), each unset. */
const PAGE_BOUNDS_EMPTY = Object.fromEntries(BOUNDS.filter((b) => b.on_page).map((b) => [b.name, '']));

/** The registry row named `name` among `strategies`, if any. */
export function strategyRow(strategies, name) {
  return strategies.find((s) => s.name === name) ?? null;
}

/** The state of a page that has just started. */
export function initialState({ source = '', lang = null, settings = {}, embed = false, embedTab = null, inIframe = false, readOnly = false, duel = null, recent = [] } = {}) {
  return {
    source,
    // The language the program is read in ('hl' or 'java'; every request to the worker names
    // it) and whether it follows the text (`langAuto`: detected on every change) or was chosen
    // in the Language menu or carried by a link.
    lang: lang === 'java' || lang === 'hl' ? lang : detectLang(source),
    langAuto: !(lang === 'java' || lang === 'hl') || lang === detectLang(source),
    langFor: source, // the text a choice was made for (see 'source/changed')
    settings: {
      tab: 'tests', // 'tests' | 'explore' | 'compare' | 'logic' | 'debug'
      formula: '',
      maxObjects: 3,
      // The exploration's method, strategy and bounds; empty bounds mean the engine's defaults.
      ...settings,
      explore: {
        // pre: how `requires` is used, the same in Explore and Compare: 'assume' (only inputs
        // that satisfy it are explored) or 'ignore' (every input; tests then say which inputs
        // violate it).
        // Each bound the page shows, by its option name (vocabulary.js); '' is the default.
        method: '', strategy: DEFAULT_STRATEGY, pre: 'assume', allHeaps: false, ...PAGE_BOUNDS_EMPTY,
        ...(typeof settings.explore === 'object' && settings.explore !== null ? settings.explore : {}),
      },
    },
    embed,
    embedTab, // the one tab an embed shows ('explore', 'tests', 'logic'), or null
    // A link to the full page with the current program (kept up to date in embeds).
    openUrl: '',
    // The last `<iframe>` snippet the Share menu made: { code, url, tab, copied }.
    embedCode: null,
    inIframe,
    readOnly, // ?readonly=1: a program to run, not to edit (course pages)
    isolated: typeof crossOriginIsolated !== 'undefined' && crossOriginIsolated === true,
    examples: [], // [{ file, title, description }]
    engine: { state: 'loading', message: '', version: '' }, // loading | ready | error
    z3: { state: 'idle', loaded: 0, total: 0, message: '' }, // idle | downloading | starting | ready | error
    // An exploration's query is waiting for Z3 to finish loading.
    z3Waiting: false,
    diagnostics: { version: -1, list: [] },
    // Every result keeps the program (`source`) it was computed from: an edit marks it stale.
    tests: { status: 'idle', results: [], error: '', ms: 0, source: null }, // idle | running | done | error
    logic: { status: 'idle', result: null, error: '' },
    smt: { status: 'idle', answer: '', error: '' },
    log: [], // debug log entries { time, kind, text }
    strategies: [], // the engine's registry rows (`strategies()`, as vocabulary.js STRATEGIES)
    methods: [], // methods and functions of the program that an exploration can start from
    // Methods of a Java program the front end left out: [{ name, signature, leftOut, line }].
    leftOut: [],
    explore: initialExplore(0),
    compare: { status: 'idle', method: '', rows: [], error: '', current: '', source: null, pre: 'assume' },
    // A duel (duel.js): the student's method against a reference, `hidden` when the reference
    // came with a link and is kept out of the editor ('' when it is in the editor's text).
    duel: duel ? initialDuel(duel) : null,
    // The programs the editor held before a link, an example or another program replaced them
    // (share.js `loadRecent`): `[{ id, title, savedAt, snap }]`, newest first.
    recent,
    notice: null, // { id, kind: 'error' | 'info', title, text, actions: [{ label, action }] }
  };
}

const LOG_LIMIT = 200;

/** A duel that has not run: `{ method, reference, k, hidden }` and no result. */
function initialDuel({ method, reference, k = 3, hidden = '' }, runId = 0) {
  return {
    method, reference, k, hidden,
    status: 'idle', // idle | running | done | error
    runId,
    progress: null, // { differ, agree, referenceFails, open }
    verdict: null, // DuelVerdict (crates/heaplab-wasm/src/duel.rs)
    error: '',
    errorKind: '',
    // The editor's program the result describes (an edit makes it stale).
    source: null,
  };
}

/** Whether a result (`{ source }`) was computed from another program than the editor's. */
export function isStale(state, result) {
  return result != null && typeof result.source === 'string' && result.source !== state.source;
}

/**
 * The method an exploration or comparison starts from: the one chosen in the Explore tab, else
 * the program's first method with a `requires`, else its first method ('' when it has none).
 */
export function exploreMethod({ settings, methods }) {
  return settings.explore.method || defaultMethod(methods);
}

/** The first method with a `requires`, else the first one ('' for none). */
export function defaultMethod(methods) {
  return (methods.find((m) => m.requires) ?? methods[0])?.name ?? '';
}

/**
 * An exploration that has not started. `tree.nodes[i].id === i`; the array is appended in place
 * (thousands of nodes) and `tree.version` bumps on every change, so views compare versions.
 */
function initialExplore(runId) {
  return {
    status: 'idle', // idle | starting | running | paused | done | error
    error: '',
    // The error's kind from the engine ('NoZ3': a query needed Z3 where it cannot run).
    errorKind: '',
    // The program and options the exploration runs on (its results describe that program).
    source: null,
    options: null,
    // Steps (Step / Step over) taken since the exploration started, if it was only stepped,
    // and the most recorded (after Step back, the later ones can be stepped to again): the
    // timeline's position and length (explorer.js).
    stepsTaken: 0,
    stepsRecorded: 0,
    // Cancel was pressed: exploration stops and the tests found so far are kept, marked partial.
    stopping: false,
    partial: false,
    runId,
    method: '',
    strategy: '',
    tree: { nodes: [], version: 0 },
    lastEvent: null,
    newNodes: [], // ids of the nodes the last step added
    selected: null,
    view: null,
    viewNode: null,
    // Why the selected node has no view: 'gone' (the worker no longer holds the run) or
    // 'notKept' (past the states the engine keeps views of).
    viewMissing: null,
    // symheap's "show one concrete world" for the selected node: { node, loading, worlds,
    // more, note, error, index } (explore/worlds, explore/worldsResult, explore/worldNext).
    worlds: null,
    /** The run summary (`heaplab run --format json`'s document). @type {import('./report-types.js').RunSummary | null} */
    summary: null,
    // Which solver answered how many queries (`Exploration.solverStats()`): decidedInRust,
    // sentToZ3, cacheHits, unknownWithoutZ3...
    solver: null,
    tests: [],
    coverage: null,
    downloads: null,
  };
}

/** What distinguishes each child of a forking event from its siblings (see the spec of `change`). */
function changesOf(event) {
  const d = event.details ?? {};
  switch (event.kind) {
    case 'lazyInit': {
      const unfold = d.fork === 'disjunct' && /^unfold /.test(d.target);
      const target = unfold ? d.target.replace(/^unfold /, '').replace(/ \(depth.*$/, '') : d.target;
      const kind = unfold ? 'unfold' : d.fork === 'resolve' ? 'resolve' : 'lazyInit';
      // `target` and `option` in learner words; the engine's own (`ref2`, `o1.root`, `loc1`) kept
      // for the code that finds them in a heap view.
      return (d.children ?? []).map((node, i) => ({
        node,
        change: {
          kind, target: named(target, event.names), option: optionWords(d.options?.[i] ?? '', event.names),
          engineTarget: target, engineOption: d.options?.[i] ?? '',
        },
      }));
    }
    case 'branch':
      return (d.children ?? []).map(({ direction, node }) => ({
        node, change: { kind: 'branch', target: named(d.condition, event.names), option: String(direction), engineTarget: d.condition },
      }));
    case 'disjuncts':
      // The option is the node's own label (`disjunct 3`): pruned disjuncts leave gaps.
      // `formula`: the case instantiated (`ref0 == null & emp`), when the engine knows it.
      return (d.children ?? []).map((node, i) => ({
        node, change: { kind: 'disjunct', target: '', option: null, formula: d.formulas?.[i] ?? null },
      }));
    default:
      return [];
  }
}

export { plainLabel };

/**
 * A run's slice of events from its JSON text: an event whose names an earlier one of the slice
 * has already (`sameNamesAs`, its index) gets that event's names, shared.
 */
function eventsOfJson(text) {
  const events = JSON.parse(text);
  for (const e of events) if (e.sameNamesAs !== undefined) e.names = events[e.sameNamesAs]?.names;
  return events;
}

/**
 * Adds a batch from the worker to the tree: `nodes` (TreeNodeJs, new since the last batch) and
 * the `events` that produced them (children's changes, path-end outcomes). The batch's node
 * objects become the tree's own, completed in place: a large run brings tens of thousands a
 * batch, and a copy of each was most of the page's garbage.
 */
function growTree(tree, nodes, events) {
  const all = tree.nodes;
  // Each label in words once a batch: a large run's nodes share a few thousand labels.
  const words = new Map();
  for (const n of nodes) {
    const old = all[n.id];
    const label = n.label;
    let plain = words.get(label);
    if (plain === undefined) {
      plain = plainLabel(label);
      words.set(label, plain);
    }
    n.label = plain;
    n.engineLabel = label;
    n.children = old?.children ?? [];
    n.change = old?.change ?? null;
    n.line = old?.line ?? n.line ?? null;
    all[n.id] = n;
    if (n.parent !== null && all[n.parent] && !all[n.parent].children.includes(n.id)) all[n.parent].children.push(n.id);
  }
  for (const e of events) {
    for (const { node, change } of changesOf(e)) {
      // The forking event names the objects of its state: the children's labels in those words.
      if (all[node] && e.names) all[node].label = plainLabel(all[node].engineLabel, e.names);
      if (all[node]) all[node].change = change.option === null ? { ...change, option: all[node].label } : change;
      // A branch's children start at the branch's line.
      if (all[node] && e.kind === 'branch' && e.line) all[node].line = e.line;
    }
    // A state is at the line of its latest event that has one (the start: the method's line; a
    // branch: its condition; a path's end: where it ended).
    if (e.line && e.node != null && all[e.node]) all[e.node].line = e.line;
    if (e.kind === 'pathEnd' && all[e.node]) {
      Object.assign(all[e.node], { outcome: e.details.outcome, colour: e.details.colour, text: e.details.text, path: e.details.path });
    }
  }
  return { nodes: all, version: tree.version + 1 };
}

/** Paths whose test input violates `requires` become 'invalid' leaves. */
function markInvalid(tree, tests) {
  const invalid = new Set(tests.filter((t) => t.validity === 'invalid').map((t) => t.path));
  if (invalid.size === 0) return tree;
  for (const n of tree.nodes) {
    if (n && n.path !== null && invalid.has(n.path)) Object.assign(n, { outcome: 'invalid', colour: 'orange' });
  }
  return { nodes: tree.nodes, version: tree.version + 1 };
}

function reduce(state, action) {
  switch (action.type) {
    case 'source/changed': {
      // A new program (pasted whole, or opened) is detected afresh, unless the language was
      // chosen for that very text (a link's or a recent program's, which may arrive after
      // its choice); an edit keeps a choice.
      const chosen = !state.langAuto && state.langFor === action.source;
      const detect = state.langAuto || (action.replaced && !chosen);
      return { ...state, source: action.source, ...(detect ? { lang: detectLang(action.source), langAuto: true, langFor: null } : {}) };
    }
    case 'lang/set':
      // `auto`: follow the text again (the menu's Detect); else the language is fixed, for
      // `source` (a program being opened) or the editor's text.
      return action.auto
        ? { ...state, lang: detectLang(state.source), langAuto: true, langFor: null }
        : { ...state, lang: action.lang === 'java' ? 'java' : 'hl', langAuto: false, langFor: action.source ?? state.source };
    case 'settings/set':
      return { ...state, settings: { ...state.settings, ...action.settings } };
    case 'examples/loaded':
      return { ...state, examples: action.examples };
    case 'engine/status':
      return { ...state, engine: { ...state.engine, ...action.engine } };
    case 'z3/status':
      return { ...state, z3: { ...state.z3, ...action.z3 } };
    case 'diagnostics/set':
      return { ...state, diagnostics: { version: action.version, list: action.list } };
    case 'tests/reset':
      return { ...state, tests: { status: 'idle', results: [], error: '', ms: 0, source: null } };
    case 'tests/start':
      return { ...state, tests: { ...state.tests, status: 'running', error: '', source: state.source } };
    case 'tests/done':
      return { ...state, tests: { status: 'done', results: action.results, error: '', ms: action.ms, source: state.tests.source } };
    case 'tests/error':
      return { ...state, tests: { status: 'error', results: [], error: action.error, ms: 0, source: state.tests.source } };
    case 'logic/start':
      return { ...state, logic: { status: 'running', result: null, error: '' } };
    case 'logic/done':
      return { ...state, logic: { status: 'done', result: action.result, error: '' } };
    case 'logic/error':
      return { ...state, logic: { status: 'error', result: null, error: action.error } };
    case 'smt/start':
      return { ...state, smt: { status: 'running', answer: '', error: '' } };
    case 'smt/done':
      return { ...state, smt: { status: 'done', answer: action.answer, error: '' } };
    case 'smt/error':
      return { ...state, smt: { status: 'error', answer: '', error: action.error } };
    case 'engine/info':
      return { ...state, strategies: action.strategies };
    case 'methods/set':
      return { ...state, methods: action.methods, leftOut: action.leftOut ?? [] };
    case 'explore/start':
      return {
        ...state,
        explore: {
          ...initialExplore(state.explore.runId + 1), status: 'starting', method: action.method, strategy: action.strategy,
          source: state.source, options: action.options ?? null,
        },
      };
    case 'explore/batch': {
      const ex = state.explore;
      if (action.runId !== ex.runId) return state;
      // A run's slices bring their events as JSON text and their nodes as columns (see
      // worker.js sliceBatchOf), a step's as objects.
      const nodes = action.columns ? nodesOfColumns(action.columns) : action.nodes;
      const events = action.eventsJson !== undefined ? eventsOfJson(action.eventsJson) : action.events;
      const tree = growTree(ex.tree, nodes, events);
      const last = events[events.length - 1] ?? ex.lastEvent;
      // Stepping follows the newest state; a click elsewhere wins until the next step.
      const selected = action.follow && last?.node != null ? last.node : ex.selected;
      // A state keeps its node while it runs on (and a path's end can change its heap: sl
      // completes the input from a model): the selected node's view, taken earlier, is fetched
      // again whenever an event happened in it.
      const ended = events.some((e) => e.node === selected);
      return {
        ...state,
        explore: {
          ...ex,
          tree,
          lastEvent: last,
          newNodes: nodes.map((n) => n.id),
          summary: action.summary ?? ex.summary,
          solver: action.solver ?? ex.solver,
          status: action.status ?? ex.status,
          selected,
          viewNode: ended ? null : ex.viewNode,
        },
      };
    }
    case 'explore/status':
      return action.runId !== state.explore.runId ? state : { ...state, explore: { ...state.explore, status: action.status } };
    case 'explore/history':
      return action.runId !== state.explore.runId ? state
        : { ...state, explore: { ...state.explore, stepsTaken: action.steps, stepsRecorded: action.furthest } };
    case 'explore/done': {
      const ex = state.explore;
      if (action.runId !== ex.runId) return state;
      return {
        ...state,
        explore: {
          ...ex,
          status: 'done',
          partial: ex.stopping || Boolean(action.partial),
          stopping: false,
          summary: action.summary,
          tests: action.tests,
          coverage: action.coverage,
          // An exploration's downloads come in a message of their own (explore/downloads),
          // which may be here already.
          downloads: action.downloads ?? ex.downloads,
          tree: markInvalid(ex.tree, action.tests),
        },
      };
    }
    case 'explore/downloads':
      return action.runId !== state.explore.runId ? state : { ...state, explore: { ...state.explore, downloads: action.downloads } };
    case 'explore/error':
      return action.runId !== undefined && action.runId !== state.explore.runId
        ? state
        : { ...state, explore: { ...state.explore, status: 'error', error: action.error, errorKind: action.kind ?? '', stopping: false } };
    case 'explore/stopping':
      return action.runId !== state.explore.runId ? state : { ...state, explore: { ...state.explore, stopping: true } };
    case 'z3/waiting':
      return { ...state, z3Waiting: action.waiting };
    case 'explore/reset':
      return { ...state, explore: initialExplore(state.explore.runId + 1) };
    case 'explore/select':
      return { ...state, explore: { ...state.explore, selected: action.node, worlds: null } };
    case 'explore/worlds':
      return { ...state, explore: { ...state.explore, worlds: { node: action.node, loading: true, worlds: [], more: false, note: null, error: '', index: 0 } } };
    case 'explore/worldsResult': {
      const w = state.explore.worlds;
      if (action.runId !== state.explore.runId || w?.node !== action.node) return state;
      const r = action.result ?? { worlds: [], more: false, note: null };
      return { ...state, explore: { ...state.explore, worlds: { ...w, loading: false, worlds: r.worlds, more: r.more, note: r.note, error: action.error ?? '' } } };
    }
    case 'explore/worldNext': {
      const w = state.explore.worlds;
      if (!w || !w.worlds.length) return state;
      return { ...state, explore: { ...state.explore, worlds: { ...w, index: (w.index + 1) % w.worlds.length } } };
    }
    case 'explore/worldsHide':
      return { ...state, explore: { ...state.explore, worlds: null } };
    case 'explore/view':
      return action.runId !== state.explore.runId
        ? state
        // A new view of the node may list other references: its worlds are asked again.
        : { ...state, explore: { ...state.explore, view: action.view, viewNode: action.node, viewMissing: action.view ? null : action.missing ?? 'gone', worlds: action.view === state.explore.view ? state.explore.worlds : null } };
    case 'compare/start':
      return { ...state, compare: { status: 'running', method: action.method, rows: [], error: '', current: '', source: state.source, pre: action.pre ?? 'assume', errorKind: '' } };
    case 'compare/progress':
      return { ...state, compare: { ...state.compare, current: action.current, rows: action.rows ?? state.compare.rows } };
    case 'compare/done':
      return { ...state, compare: { ...state.compare, status: 'done', rows: action.rows, current: '' } };
    case 'compare/error':
      return { ...state, compare: { ...state.compare, status: 'error', error: action.error, errorKind: action.kind ?? '', current: '' } };
    case 'duel/set': {
      // The same duel keeps its result (an edit of the program only marks it stale).
      const d = state.duel;
      const same = d && d.method === action.duel.method && d.reference === action.duel.reference &&
        d.k === action.duel.k && d.hidden === (action.duel.hidden ?? '');
      return same ? state : { ...state, duel: initialDuel(action.duel, (d?.runId ?? 0) + 1) };
    }
    case 'recent/set':
      return { ...state, recent: action.recent };
    case 'duel/clear':
      return state.duel ? { ...state, duel: null } : state;
    case 'duel/k':
      return state.duel ? { ...state, duel: { ...state.duel, k: action.k } } : state;
    case 'duel/start':
      return state.duel ? { ...state, duel: { ...state.duel, status: 'running', runId: action.runId, progress: null, verdict: null, error: '', errorKind: '', source: state.source } } : state;
    case 'duel/progress':
      return state.duel?.runId === action.runId ? { ...state, duel: { ...state.duel, progress: action.progress } } : state;
    case 'duel/done':
      return state.duel?.runId === action.runId ? { ...state, duel: { ...state.duel, status: 'done', verdict: action.verdict, progress: action.verdict.progress ?? state.duel.progress } } : state;
    case 'duel/error':
      return state.duel?.runId === action.runId ? { ...state, duel: { ...state.duel, status: 'error', error: action.error, errorKind: action.kind ?? '' } } : state;
    case 'log/add': {
      const entry = { time: Date.now(), kind: action.kind, text: action.text };
      return { ...state, log: [...state.log, entry].slice(-LOG_LIMIT) };
    }
    case 'share/ready':
      return { ...state, openUrl: action.url };
    case 'share/embed':
      return { ...state, embedCode: { code: action.code, url: action.url, tab: action.tab, copied: action.copied } };
    case 'notice/show':
      return { ...state, notice: action.notice };
    case 'notice/dismiss':
      return state.notice && (!action.id || state.notice.id === action.id)
        ? { ...state, notice: null }
        : state;
    default:
      // Commands for one view (e.g. 'editor/replace', 'editor/goto', 'run/tests') change no
      // state: they are delivered to subscribers as they are.
      return state;
  }
}

export function createStore(initial) {
  let state = initial;
  const subscribers = new Set();
  const queue = [];
  let draining = false;
  return {
    getState: () => state,
    /** `fn(state, action)` runs after every action; returns an unsubscribe function. */
    subscribe(fn) {
      subscribers.add(fn);
      return () => subscribers.delete(fn);
    },
    /** Actions dispatched by a subscriber run after the current one has reached everybody. */
    dispatch(action) {
      queue.push(action);
      if (draining) return;
      draining = true;
      try {
        while (queue.length > 0) {
          const next = queue.shift();
          state = reduce(state, next);
          for (const fn of subscribers) fn(state, next);
        }
      } finally {
        draining = false;
      }
    },
  };
}
