// The page's single state, behind getState / subscribe / dispatch. Views read state, dispatch
// actions and never import one another; one reducer below says how every action changes state,
// so any bug reproduces from one state snapshot plus the actions that followed.

/** The state of a page that has just started. */
export function initialState({ source = '', settings = {}, embed = false, inIframe = false, readOnly = false } = {}) {
  return {
    source,
    settings: {
      tab: 'tests', // 'tests' | 'logic' | 'debug'
      formula: '',
      maxObjects: 3,
      ...settings,
    },
    embed,
    inIframe,
    readOnly, // ?readonly=1: a program to run, not to edit (course pages)
    isolated: typeof crossOriginIsolated !== 'undefined' && crossOriginIsolated === true,
    examples: [], // [{ file, title, description }]
    engine: { state: 'loading', message: '', version: '' }, // loading | ready | error
    z3: { state: 'idle', loaded: 0, total: 0, message: '' }, // idle | downloading | starting | ready | error
    diagnostics: { version: -1, list: [] },
    tests: { status: 'idle', results: [], error: '', ms: 0 }, // idle | running | done | error
    logic: { status: 'idle', result: null, error: '' },
    smt: { status: 'idle', answer: '', error: '' },
    log: [], // debug log entries { time, kind, text }
    notice: null, // { id, kind: 'error' | 'info', title, text, actions: [{ label, action }] }
  };
}

const LOG_LIMIT = 200;

function reduce(state, action) {
  switch (action.type) {
    case 'source/changed':
      return { ...state, source: action.source };
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
      return { ...state, tests: { status: 'idle', results: [], error: '', ms: 0 } };
    case 'tests/start':
      return { ...state, tests: { ...state.tests, status: 'running', error: '' } };
    case 'tests/done':
      return { ...state, tests: { status: 'done', results: action.results, error: '', ms: action.ms } };
    case 'tests/error':
      return { ...state, tests: { status: 'error', results: [], error: action.error, ms: 0 } };
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
    case 'log/add': {
      const entry = { time: Date.now(), kind: action.kind, text: action.text };
      return { ...state, log: [...state.log, entry].slice(-LOG_LIMIT) };
    }
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
