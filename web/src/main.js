// HeapLab's page: wires the store, the views and the engine worker together. Views only read
// state and dispatch actions; the commands they dispatch (run tests, open an example, share...)
// are carried out here, the one place that talks to the engine (through engine.js).

import { createStore, initialState } from './store.js';
import { createEngine, Cancelled } from './engine.js';
import {
  snapshot, loadLocal, saveLocal, fromUrl, shareUrl, exampleFromUrl, iframeSnippet, loadRecent, rememberProgram,
  langOfSnapshot,
} from './share.js';
import { detectLang, langOfFile } from './lang/detect.js';
import * as editorView from './views/editor.js';
import * as controlsView from './views/controls.js';
import * as examplesView from './views/examples.js';
import * as tabsView from './views/tabs.js';
import * as testsView from './views/tests.js';
import * as logicView from './views/logic.js';
import * as debugView from './views/debug.js';
import * as statusView from './views/status.js';
import * as noticeView from './views/notice.js';
import * as exploreControlsView from './views/explore-controls.js';
import * as treeView from './views/tree.js';
import * as concolicView from './views/concolic.js';
import * as heapView from './views/heap.js';
import * as genTestsView from './views/gentests.js';
import * as compareView from './views/compare.js';
import * as learnView from './views/learn.js';
import * as duelView from './views/duel.js';
import * as recentView from './views/recent.js';
import * as languageView from './views/language.js';
import { createExplorer } from './explorer.js';
import { splitDuel, composeDuel } from './duel.js';
import { BOUNDS, DEFAULT_STRATEGY } from './vocabulary.js';

const CHECK_DELAY_MS = 250;
// The SMT console's time limit for Z3.
const SMT_TIMEOUT_MS = 10000;
const DEFAULT_EXAMPLE = 'sll.hl';

// Timings for tests/bench/web-budget.mjs and the debug panel.
const marks = { start: performance.now() };
globalThis.__heaplab = { marks };

const params = new URLSearchParams(location.search);
// `?embed=explore` (or `tests`, `logic`; `1` is `tests`): one compact tab for a course page.
const EMBED_TABS = { 1: 'tests', tests: 'tests', explore: 'explore', logic: 'logic', duel: 'duel' };
const embedTab = EMBED_TABS[params.get('embed')] ?? null;
const embed = embedTab !== null;
const inIframe = window.self !== window.top;
const TABS = ['tests', 'explore', 'compare', 'logic', 'duel', 'debug'];
// A duel stops after this many paths on which the two differ: the first clues are what a
// student needs, and they come long before the whole exploration would end.
const DUEL_CLUES = 3;
// Settings a link may carry in its query (`?tab=explore&method=BST.insert&strategy=sl&k=3`):
// the method, strategy, precondition mode and each bound the page shows, by its option name.
const LINK_KEYS = ['method', 'strategy', 'pre', ...BOUNDS.filter((b) => b.on_page).map((b) => b.name)];
// Links made before the bound table spelled bounds in camelCase (`maxPaths`); they still work.
const linkKey = (key) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

async function fetchText(url) {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  return res.text();
}

async function loadExamples() {
  try {
    return JSON.parse(await fetchText('examples/index.json'));
  } catch {
    return [];
  }
}

/**
 * The program to start with: a share link (`#p=`), else a named example (`#example=bst.hl`, for
 * course pages), else the last session, else the first example.
 */
async function initialProgram(examplesPromise) {
  let linkError = null;
  try {
    const shared = await fromUrl(location.href);
    if (shared) return { snap: shared, from: 'link' };
  } catch (err) {
    linkError = err;
  }
  const named = exampleFromUrl(location.href);
  if (named) {
    try {
      return { snap: { source: await fetchText(`examples/${named}`), settings: {}, lang: langOfFile(named) }, from: 'example' };
    } catch (err) {
      linkError = err;
    }
  }
  const local = embed ? null : loadLocal();
  if (local) return { snap: local, from: 'local', linkError };
  const examples = await examplesPromise;
  const file = examples.find((e) => e.file === DEFAULT_EXAMPLE)?.file ?? examples[0]?.file;
  let source = '// Write a HeapLab program here. Examples are in the Examples menu.\n';
  if (file) source = await fetchText(`examples/${file}`).catch(() => source);
  return { snap: { source, settings: {} }, from: 'example', linkError };
}

/** A duel a snapshot carries (`{ method, reference, k, hidden }`), checked; else null. */
function duelOfSnapshot(snap) {
  const d = snap?.duel;
  if (!d || typeof d !== 'object') return null;
  if (typeof d.method !== 'string' || typeof d.reference !== 'string' || typeof d.hidden !== 'string') return null;
  return { method: d.method, reference: d.reference, k: Number.isInteger(d.k) ? d.k : 3, hidden: d.hidden };
}

/**
 * The program and duel of an opened program: a duel the snapshot carries; else, for a program
 * that arrives by a link or an example, its `// @duel` part is taken out of the editor and kept
 * hidden; a program of the student's own (the last session) keeps its marked part in view.
 */
function programOf(snap, from) {
  const carried = duelOfSnapshot(snap);
  if (carried) return { source: snap.source, duel: carried };
  const split = splitDuel(snap.source);
  if (!split) return { source: snap.source, duel: null };
  if (from === 'link' || from === 'example') return { source: split.visible, duel: { ...split.spec, hidden: split.hidden } };
  return { source: snap.source, duel: { ...split.spec, hidden: '' } };
}

async function start() {
  document.body.classList.toggle('embed', embed);
  document.documentElement.classList.toggle('embed', embed);
  if (embed) document.body.dataset.embed = embedTab;
  const examplesPromise = loadExamples();
  const { snap, linkError, from } = await initialProgram(examplesPromise);
  const opened = programOf(snap, from);
  // A link opens beside the work saved in this browser, never over it: that program goes to
  // the recent list first (and a notice below offers it back).
  const saved = embed ? null : loadLocal();
  const keptAside = (from === 'link' || from === 'example') && saved && saved.source.trim() !== '' &&
    saved.source !== snap.source && saved.source !== opened.source;
  const keptEntry = keptAside ? rememberProgram(saved)[0] : null;
  const settings = { ...snap.settings };
  const readOnly = params.get('readonly') === '1';
  if (params.get('debug') === '1') settings.tab = 'debug';
  if (embed) settings.tab = embedTab;
  // A course page can link straight to an exploration: ?tab=explore&method=BST.insert&strategy=sl&k=2
  // (with #example=bst.hl for the program).
  if (TABS.includes(params.get('tab')) && !embed) settings.tab = params.get('tab');
  const linked = {};
  for (const [key, value] of params) {
    if (LINK_KEYS.includes(linkKey(key))) linked[linkKey(key)] = value;
  }
  if (Object.keys(linked).length > 0) settings.explore = { ...(settings.explore ?? {}), ...linked };
  if (settings.tab === 'duel' && !opened.duel) settings.tab = 'tests';
  if (!embed && opened.duel && from !== 'local' && opened.duel.hidden) settings.tab = 'duel';
  const store = createStore(initialState({
    source: opened.source, lang: langOfSnapshot(snap), settings, embed, embedTab, inIframe, readOnly, duel: opened.duel, recent: embed ? [] : loadRecent(),
  }));
  globalThis.__heaplab.store = store;

  const $ = (sel) => document.querySelector(sel);
  noticeView.mount($('#notice'), store);
  const editor = editorView.mount($('#editor'), store);
  marks.editorReady = performance.now();
  controlsView.mount($('#controls'), store);
  if (!embed) examplesView.mount($('#examples'), store);
  if (!embed) learnView.mount($('#learn'), store);
  if (!embed) recentView.mount($('#recent'), store);
  if (!embed) languageView.mount($('#lang'), store);
  const panels = {
    tests: $('#panel-tests'), explore: $('#panel-explore'), compare: $('#panel-compare'),
    logic: $('#panel-logic'), duel: $('#panel-duel'), debug: $('#panel-debug'),
  };
  tabsView.mount($('#tabs'), store, panels);
  // The Explore and Compare tabs widen the side pane (style: body[data-tab]).
  document.body.dataset.tab = store.getState().settings.tab;
  store.subscribe((state) => { document.body.dataset.tab = state.settings.tab; });
  testsView.mount(panels.tests, store);
  exploreControlsView.mount($('#explore-controls'), store);
  treeView.mount($('#explore-tree'), store);
  concolicView.mount($('#explore-tree'), store);
  heapView.mount($('#explore-heap'), store);
  // The engine is made below; the view asks it only on a click (Replay).
  genTestsView.mount($('#explore-tests'), store, { request: (type, payload) => engine.request(type, payload) });
  compareView.mount(panels.compare, store);
  duelView.mount(panels.duel, store);
  logicView.mount(panels.logic, store);
  debugView.mount(panels.debug, store);
  statusView.mount($('#status'), store);

  if (keptEntry) {
    store.dispatch({ type: 'notice/show', notice: keptNotice(keptEntry, from === 'link' ? 'the shared program' : 'the linked example') });
  }
  if (linkError) {
    store.dispatch({ type: 'notice/show', notice: {
      id: 'link', kind: 'error', title: 'This share link could not be read',
      text: `It may have been cut off when it was copied (${linkError.message}). Your last program was opened instead.`,
    } });
  }
  examplesPromise.then((examples) => store.dispatch({ type: 'examples/loaded', examples }));

  // ---- the engine -------------------------------------------------------------------------
  const engine = createEngine({ onEvent: (event) => onEngineEvent(store, event) });
  globalThis.__heaplab.engine = engine;
  const explorer = createExplorer(store, engine);
  // Opening the Debug tab's SMT console fetches Z3 (where it can run), so that the first script
  // typed there does not wait for the download.
  const z3ForConsole = (state) => {
    if (state.settings.tab === 'debug' && state.isolated && !engine.z3Started) engine.loadZ3();
  };
  z3ForConsole(store.getState());
  store.subscribe(z3ForConsole);

  let checkTimer = 0;
  let checkVersion = 0;
  async function checkNow() {
    const version = editor.version();
    const { source, lang } = store.getState();
    checkVersion = version;
    try {
      const list = await engine.request('check', { source, lang });
      // A newer check is on its way; this answer is for older text.
      if (version === checkVersion) store.dispatch({ type: 'diagnostics/set', version, list });
      const all = await engine.request('methods', { source, lang });
      // A Java program's left-out methods are listed with their reason, never explored.
      if (version === checkVersion) {
        store.dispatch({ type: 'methods/set', methods: all.filter((m) => !m.leftOut), leftOut: all.filter((m) => m.leftOut) });
      }
    } catch (err) {
      if (!(err instanceof Cancelled)) store.dispatch({ type: 'log/add', kind: 'check', text: String(err.message) });
    }
  }

  // The program as it was last opened (an example, a link, a recent program), to tell whether
  // the editor holds edits; null for the student's own program from the last session.
  // (The saved session says whether it held edits; older saves count as edited.)
  let baseline = from === 'local' && snap.edited !== false ? null : opened.source;
  const edited = () => {
    const { source } = store.getState();
    return source.trim() !== '' && source !== baseline;
  };

  /** Keeps the editor's program in the recent list (before something replaces it). */
  function keepCurrent(except) {
    const state = store.getState();
    if (state.source.trim() === '' || state.source === except) return null;
    const list = rememberProgram(snapshot(state));
    store.dispatch({ type: 'recent/set', recent: list });
    return list[0]?.snap.source === state.source ? list[0] : null;
  }

  /**
   * Replaces the editor's program with `program` (`{ source, duel }`, settings applied by the
   * caller), the old one kept in the recent list. Returns the recent entry holding the old one.
   */
  function replaceProgram(program) {
    const kept = embed ? null : keepCurrent(program.source);
    baseline = program.source;
    setDuel(program.duel);
    store.dispatch({ type: 'editor/replace', source: program.source });
    store.dispatch({ type: 'tests/reset' });
    store.dispatch({ type: 'explore/reset' });
    return kept;
  }

  /**
   * The language of a program just opened: the one its link, recent entry or example file
   * names, kept as a choice only where detection would read the text otherwise; null (an
   * older link) leaves it to detection.
   */
  function setLang(lang, source) {
    if (!lang) return;
    store.dispatch(lang === detectLang(source) ? { type: 'lang/set', auto: true } : { type: 'lang/set', lang, source });
  }

  /** Opens a program of the recent list (the editor's goes to the list in its place). */
  function openRecent(id) {
    const entry = store.getState().recent.find((r) => r.id === id);
    if (!entry) return;
    const { snap } = entry;
    const program = programOf(snap, 'recent');
    if (snap.settings) {
      const { explore, tab, ...rest } = snap.settings;
      store.dispatch({ type: 'settings/set', settings: {
        ...rest, ...(explore ? { explore: { ...store.getState().settings.explore, ...explore } } : {}),
      } });
    }
    replaceProgram(program);
    setLang(langOfSnapshot(snap), program.source);
    linkSource = null;
    if (/^#(p|example)=/.test(location.hash)) history.replaceState(null, '', location.pathname + location.search);
    store.dispatch({ type: 'notice/dismiss', id: 'kept' });
  }

  let persistTimer = 0;
  // The program the link in the address bar (`#p=`, `#example=`) describes.
  let linkSource = /^#(p|example)=/.test(location.hash) ? opened.source : null;
  function persist() {
    // A share link in the address bar no longer describes the edited program; drop it so that a
    // reload brings back the edits (kept in localStorage) rather than the old link.
    if (!embed && linkSource !== null && store.getState().source !== linkSource && /^#(p|example)=/.test(location.hash)) {
      history.replaceState(null, '', location.pathname + location.search);
      linkSource = null;
    }
    clearTimeout(persistTimer);
    persistTimer = setTimeout(async () => {
      const snap = snapshot(store.getState());
      if (!embed) saveLocal({ ...snap, edited: edited() });
      else store.dispatch({ type: 'share/ready', url: await shareUrl(location.href, snap), quiet: true });
    }, 400);
  }

  async function runTests() {
    const { source, lang, engine: status } = store.getState();
    if (status.state !== 'ready') return;
    store.dispatch({ type: 'settings/set', settings: { tab: 'tests' } });
    store.dispatch({ type: 'tests/start' });
    const started = performance.now();
    try {
      const results = await engine.request('runTests', { source, lang });
      store.dispatch({ type: 'tests/done', results, ms: Math.round(performance.now() - started) });
    } catch (err) {
      store.dispatch({ type: 'tests/error', error: err instanceof Cancelled ? 'Cancelled.' : err.message });
    }
  }

  /**
   * A duel: the student's method against the reference on the same inputs (heaplab duel). The
   * worker explores the product program and stops after DUEL_CLUES differing paths; the clues
   * are the inputs the interpreter confirmed.
   */
  async function runDuel() {
    const state = store.getState();
    if (!state.duel || state.engine.state !== 'ready') return;
    // Dispatched from a subscriber, `duel/start` is applied after this function returns: the
    // run's id is chosen here.
    const { duel } = state;
    const runId = duel.runId + 1;
    store.dispatch({ type: 'duel/start', runId });
    try {
      const verdict = await engine.request('duel', {
        source: composeDuel(state.source, duel.hidden), method: duel.method, reference: duel.reference,
        k: duel.k, maxClues: DUEL_CLUES, runId,
      });
      store.dispatch({ type: 'duel/done', runId, verdict });
    } catch (err) {
      store.dispatch({ type: 'duel/error', runId, error: err instanceof Cancelled ? 'Cancelled.' : err.message, kind: err.kind ?? '' });
    }
  }

  /** The duel of a program just opened (null: none; a hidden one of the previous program ends). */
  function setDuel(duel) {
    if (duel) store.dispatch({ type: 'duel/set', duel });
    else store.dispatch({ type: 'duel/clear' });
    // After the editor has the new text (dispatched next by the caller).
    if (duel) setTimeout(revealDuelMethod, 0);
  }

  /** Shows the duel's method in the editor (the part the student edits). */
  function revealDuelMethod() {
    const { duel, source } = store.getState();
    if (!duel) return;
    const name = duel.method.split('.').pop();
    const index = source.split('\n').findIndex((l) => new RegExp(`\\b${name}\\s*\\(`).test(l));
    if (index >= 0) store.dispatch({ type: 'editor/goto', line: index + 1, focus: false });
  }
  revealDuelMethod();

  /** The instructor's own editor: a `// @duel` part typed there makes (or ends) the duel. */
  function duelFromEditor(state) {
    if (state.duel?.hidden) return;
    const split = splitDuel(state.source);
    if (split) store.dispatch({ type: 'duel/set', duel: { ...split.spec, hidden: '' } });
    else if (state.duel) store.dispatch({ type: 'duel/clear' });
  }

  async function runLogic(enumerate) {
    const { source, settings } = store.getState();
    if (!settings.formula.trim()) {
      store.dispatch({ type: 'logic/error', error: 'Write a formula first, e.g. one of the predicates above.' });
      return;
    }
    store.dispatch({ type: 'logic/start' });
    try {
      const result = await engine.request('sat', {
        source, formula: settings.formula, enumerate, maxObjects: settings.maxObjects, lang: store.getState().lang,
      });
      store.dispatch({ type: 'logic/done', result });
    } catch (err) {
      store.dispatch({ type: 'logic/error', error: err instanceof Cancelled ? 'Cancelled.' : err.message });
    }
  }

  /**
   * The SMT console. Z3 stops a check-sat at its own time limit (SMT_TIMEOUT_MS, answering
   * unknown); a script that still has no answer a little later (Z3 stuck outside check-sat)
   * restarts the engine, so the console never hangs.
   */
  async function runSmt(text) {
    store.dispatch({ type: 'smt/start' });
    try {
      // The first script fetches Z3: the watchdog below is for Z3's answer, not its download.
      await engine.request('loadZ3');
    } catch (err) {
      store.dispatch({ type: 'smt/error', error: err instanceof Cancelled ? 'Cancelled.' : err.message });
      return;
    }
    let timedOut = false;
    const watchdog = setTimeout(() => {
      timedOut = true;
      engine.cancel();
      explorer.cancelled();
    }, SMT_TIMEOUT_MS + 5000);
    try {
      store.dispatch({ type: 'smt/done', answer: await engine.request('smt', { text, timeoutMs: SMT_TIMEOUT_MS }) });
    } catch (err) {
      const error = timedOut
        ? `Z3 did not answer within ${(SMT_TIMEOUT_MS + 5000) / 1000} s; the engine was restarted. Try a smaller query.`
        : err instanceof Cancelled ? 'Cancelled.' : err.message;
      store.dispatch({ type: 'smt/error', error });
    } finally {
      clearTimeout(watchdog);
    }
  }

  /**
   * Opens an example of the gallery. Over edits it asks first; either way the program it
   * replaces goes to the recent list.
   */
  async function openExample(file, confirmed) {
    if (!confirmed && edited()) {
      const title = store.getState().examples.find((e) => e.file === file)?.title ?? file;
      store.dispatch({ type: 'notice/show', notice: {
        id: 'replace', kind: 'info', title: `Open “${title}” in place of your program?`,
        text: 'Your program has changes. It will be kept in Recent programs, where you can open it again.',
        actions: [
          { label: 'Open the example', action: { type: 'example/open', file, confirmed: true } },
          { label: 'Keep my program', action: { type: 'notice/dismiss', id: 'replace' } },
        ],
      } });
      return;
    }
    store.dispatch({ type: 'notice/dismiss', id: 'replace' });
    try {
      const program = programOf({ source: await fetchText(`examples/${file}`), settings: {} }, 'example');
      const { source } = program;
      replaceProgram(program);
      setLang(langOfFile(file), source);
      // The choice goes to the URL, so the address bar is a link to this example (until an edit).
      linkSource = source;
      if (!embed) history.replaceState(null, '', `${location.pathname}${location.search}#example=${file}`);
    } catch (err) {
      store.dispatch({ type: 'notice/show', notice: {
        id: 'example', kind: 'error', title: 'The example could not be loaded', text: err.message,
      } });
    }
  }

  /**
   * A share link pasted into a tab that already has HeapLab open changes only the fragment: the
   * page loads the program it carries (a `#p=` link or an `#example=`).
   */
  async function openLink() {
    try {
      const shared = await fromUrl(location.href);
      const named = shared ? null : exampleFromUrl(location.href);
      if (!shared && !named) return;
      const program = programOf(shared ?? { source: await fetchText(`examples/${named}`), settings: {} }, shared ? 'link' : 'example');
      const { source } = program;
      if (source === store.getState().source) return;
      linkSource = source;
      if (shared?.settings) {
        const { explore, ...rest } = shared.settings;
        store.dispatch({ type: 'settings/set', settings: {
          ...rest, ...(explore ? { explore: { ...store.getState().settings.explore, ...explore } } : {}),
        } });
        checkStrategy();
      }
      // The program in the editor goes to the recent list, and the notice offers it back.
      const kept = replaceProgram(program);
      setLang(shared ? langOfSnapshot(shared) : langOfFile(named), source);
      if (kept) store.dispatch({ type: 'notice/show', notice: keptNotice(kept, shared ? 'the shared program' : 'the linked example') });
    } catch (err) {
      store.dispatch({ type: 'notice/show', notice: {
        id: 'link', kind: 'error', title: 'This share link could not be read',
        text: `It may have been cut off when it was copied (${err.message}). The program in the editor was kept.`,
      } });
    }
  }
  window.addEventListener('hashchange', openLink);

  /** A link naming a strategy HeapLab does not know says so (and uses the default instead). */
  function checkStrategy() {
    const { strategies, settings } = store.getState();
    const asked = settings.explore.strategy;
    if (strategies.length === 0 || strategies.some((s) => s.name === asked)) return;
    const fallback = strategies.find((s) => s.name === DEFAULT_STRATEGY)?.name ?? strategies[0].name;
    store.dispatch({ type: 'settings/set', settings: { explore: { ...settings.explore, strategy: fallback } } });
    store.dispatch({ type: 'notice/show', notice: {
      id: 'strategy', kind: 'error', title: `Unknown strategy “${asked}”`,
      text: `This link asks for the strategy “${asked}”, which HeapLab does not have. ` +
        `The strategies are ${strategies.map((s) => s.name).join(', ')}; ${fallback} is selected instead.`,
    } });
  }

  async function share() {
    const url = await shareUrl(location.href, snapshot(store.getState()));
    linkSource = store.getState().source;
    history.replaceState(null, '', url);
    let copied = false;
    try {
      await navigator.clipboard.writeText(url);
      copied = true;
    } catch {
      // No clipboard permission (e.g. an automated browser): the link is shown instead.
    }
    store.dispatch({ type: 'share/ready', url, copied });
  }

  /** The `<iframe>` snippet a course page pastes to embed this program in one tab. */
  async function embedCode(tab) {
    const state = store.getState();
    const snap = snapshot({ ...state, settings: { ...state.settings, tab } });
    const url = await shareUrl(location.href, snap, { embed: tab });
    const code = iframeSnippet(url, tab);
    let copied = false;
    try {
      await navigator.clipboard.writeText(code);
      copied = true;
    } catch {
      // Shown in the menu to copy by hand.
    }
    store.dispatch({ type: 'share/embed', code, url, tab, copied });
  }

  // The language the program was read in before the latest action (see 'lang/set' below).
  let readAs = store.getState().lang;
  store.subscribe((state, action) => {
    const langChanged = state.lang !== readAs;
    readAs = state.lang;
    switch (action.type) {
      case 'source/changed':
        clearTimeout(checkTimer);
        checkTimer = setTimeout(checkNow, CHECK_DELAY_MS);
        duelFromEditor(state);
        persist();
        break;
      case 'duel/clear':
        if (state.settings.tab === 'duel') store.dispatch({ type: 'settings/set', settings: { tab: 'tests' } });
        break;
      case 'run/duel': runDuel(); break;
      case 'settings/set':
        persist();
        break;
      case 'lang/set':
        // The same text read in the other language is another program: check it again, and
        // forget results that describe the text as it was read before.
        if (langChanged) {
          store.dispatch({ type: 'tests/reset' });
          store.dispatch({ type: 'explore/reset' });
        }
        clearTimeout(checkTimer);
        checkTimer = setTimeout(checkNow, 0);
        persist();
        break;
      case 'engine/status':
        if (action.engine.state === 'ready') {
          checkNow();
          engine.request('info')
            .then((info) => {
              store.dispatch({ type: 'engine/info', ...info });
              checkStrategy();
            })
            .catch((err) => store.dispatch({ type: 'log/add', kind: 'engine', text: err.message }));
          checkZ3Possible(store);
        }
        break;
      case 'run/tests': runTests(); break;
      case 'run/logic': runLogic(action.enumerate); break;
      case 'run/smt': runSmt(action.text); break;
      case 'run/syntax':
        engine.request('syntax', { source: state.source })
          .then((dump) => store.dispatch({ type: 'syntax/done', ...dump }))
          .catch((err) => store.dispatch({ type: 'log/add', kind: 'syntax', text: err.message }));
        break;
      case 'run/cancel': {
        // Only an exploration running: stop it and keep its tests, as the Explore tab's Cancel.
        const others = [state.tests.status, state.logic.status, state.smt.status, state.compare.status, state.duel?.status].includes('running');
        if (!others && ['running', 'paused'].includes(state.explore.status)) {
          store.dispatch({ type: 'explore/cancel' });
          break;
        }
        engine.cancel();
        explorer.cancelled();
        break;
      }
      case 'example/open': openExample(action.file, action.confirmed); break;
      case 'recent/open': openRecent(action.id); break;
      case 'share/create': share(); break;
      case 'share/embedCode': embedCode(action.tab); break;
      case 'link/openFull':
        // The full page with this program and settings (a new link: the program may have changed).
        shareUrl(location.href, snapshot({ ...state, settings: { ...state.settings, tab: state.embedTab ?? state.settings.tab } }))
          .then((url) => window.open(url, '_blank', 'noopener'));
        break;
      case 'z3/retry':
        store.dispatch({ type: 'notice/dismiss', id: 'z3' });
        engine.loadZ3();
        break;
      case 'page/reload': location.reload(); break;
      default: break;
    }
  });
  if (embed) persist();

  // One run shortcut, in the editor keymap and page-wide.
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey) && !e.defaultPrevented) {
      e.preventDefault();
      store.dispatch({ type: 'run/tests' });
    }
  });

  registerServiceWorker(store);
}

/** The notice after a link replaced the editor's program: where that program went. */
function keptNotice(entry, what) {
  return {
    id: 'kept', kind: 'info', title: `Opened ${what}`,
    text: `Your program “${entry.title}” is kept in Recent programs.`,
    actions: [{ label: 'Back to my program', action: { type: 'recent/open', id: entry.id } }],
  };
}

let z3Checked = false;
/**
 * Z3 is 35 MB and most pages never need it: it is fetched (in its own worker, see engine.js) by
 * the first question the engine cannot decide itself, or when the SMT console opens. Here only
 * a page where it can never run says so once.
 */
function checkZ3Possible(store) {
  if (z3Checked) return;
  z3Checked = true;
  if (!store.getState().isolated) showNotIsolated(store);
}

function showNotIsolated(store) {
  const { inIframe: framed } = store.getState();
  store.dispatch({ type: 'z3/status', z3: { state: 'error', message: 'not cross-origin isolated' } });
  // An embed explores without Z3 and says so only when a query needs it (see the Explore tab).
  if (embed && framed) return;
  const full = new URL(location.href);
  full.searchParams.delete('embed');
  store.dispatch({ type: 'notice/show', notice: framed ? {
    id: 'z3', kind: 'info', title: 'Z3 cannot start inside this embedded frame',
    text: 'The page embedding HeapLab is not cross-origin isolated, and Z3 needs that (it uses ' +
      'SharedArrayBuffer). Tests still run here. To use the solver, open the full page.',
    actions: [{ label: 'Open the full page', href: full.href }],
  } : {
    id: 'z3', kind: 'error', title: 'Z3 cannot start: this page is not cross-origin isolated',
    text: 'Z3 needs SharedArrayBuffer, which browsers allow only with the COOP/COEP headers. ' +
      'Reload once so that HeapLab\'s offline helper can add them; if that does not help, serve ' +
      'the site with `heaplab serve web/dist`. Tests and diagnostics work meanwhile.',
    actions: [{ label: 'Reload', action: { type: 'page/reload' } }],
  } });
}

function onEngineEvent(store, event) {
  switch (event.type) {
    case 'engine':
      store.dispatch({ type: 'engine/status', engine: {
        state: event.state, message: event.message ?? '', version: event.version ?? '',
      } });
      if (event.state === 'ready') globalThis.__heaplab.marks.engineReady = performance.now();
      if (event.state === 'error') {
        store.dispatch({ type: 'notice/show', notice: {
          id: 'engine', kind: 'error', title: 'The HeapLab engine could not start',
          text: `${event.message} Reload the page; if it keeps failing, your browser may lack WebAssembly support.`,
          actions: [{ label: 'Reload', action: { type: 'page/reload' } }],
        } });
      }
      break;
    case 'z3': {
      const z3 = { state: event.state, message: event.message ?? '' };
      if (event.state === 'downloading') Object.assign(z3, { loaded: event.loaded, total: event.total });
      // When Z3 wasm began to download (after the editor and the engine are up), for the tests.
      if (event.state === 'downloading') globalThis.__heaplab.marks.z3Fetch ??= performance.now();
      store.dispatch({ type: 'z3/status', z3 });
      if (event.state === 'ready') {
        globalThis.__heaplab.marks.z3Ready = performance.now();
        keepZ3Offline();
      }
      if (event.state === 'error') {
        if (event.name === 'NotIsolated') {
          showNotIsolated(store);
        } else {
          store.dispatch({ type: 'notice/show', notice: {
            id: 'z3', kind: 'error', title: 'Z3 failed to load',
            text: `${event.message}. Check your connection and try again; tests and diagnostics work without Z3.`,
            actions: [{ label: 'Try again', action: { type: 'z3/retry' } }],
          } });
        }
      }
      break;
    }
    case 'log':
      store.dispatch({ type: 'log/add', kind: event.kind, text: event.text });
      break;
    case 'z3wait':
      store.dispatch({ type: 'z3/waiting', waiting: event.waiting });
      break;
    case 'explore':
      store.dispatch({ type: 'explore/batch', runId: event.runId, nodes: event.nodes, columns: event.columns, events: event.events, eventsJson: event.eventsJson,
        summary: event.summary, solver: event.solver, status: 'running' });
      // The worker posts the next batch only once this one is handled (flow control).
      globalThis.__heaplab.engine.notify('exploreAck', { runId: event.runId });
      break;
    case 'exploreDownloads':
      store.dispatch({ type: 'explore/downloads', runId: event.runId, downloads: event.downloads });
      break;
    case 'compare':
      store.dispatch({ type: 'compare/progress', current: event.current, rows: event.rows });
      break;
    case 'duel':
      store.dispatch({ type: 'duel/progress', runId: event.runId, progress: event.progress });
      break;
    case 'concolicLive':
      store.dispatch({ type: 'concolic/live', runId: event.runId, pass: event.pass, events: event.events });
      break;
    case 'crash':
      store.dispatch({ type: 'notice/show', notice: {
        id: 'crash', kind: 'error', title: 'The engine crashed and was restarted',
        text: `${event.message} This is a bug in HeapLab; a share link of your program makes a good bug report.`,
      } });
      break;
    default:
      break;
  }
}

/**
 * The service worker caches every asset for offline use and, on static hosts that cannot send
 * COOP/COEP headers, adds them. Without isolation a top-level page reloads once when the worker
 * takes control (guarded so that it can never loop). Embedded frames register it too, once the
 * engine is up, so that a course page's embeds load offline after one visit.
 */
function registerServiceWorker(store) {
  if (!('serviceWorker' in navigator)) return;
  const register = () => navigator.serviceWorker.register('sw.js').catch((err) => {
    store.dispatch({ type: 'log/add', kind: 'sw', text: `service worker not registered: ${err.message}` });
  });
  // A frame never reloads for isolation (the page around it decides that), but it registers the
  // worker too, so that a course page's embed works offline once visited (the browser keeps
  // that registration for the course page's site).
  if (!store.getState().isolated && !inIframe) {
    const key = 'heaplab:reloaded-for-isolation';
    navigator.serviceWorker.addEventListener('controllerchange', () => {
      if (!sessionStorage.getItem(key)) {
        sessionStorage.setItem(key, '1');
        location.reload();
      }
    });
    register();
    return;
  }
  // Isolated already (heaplab serve): register once the engine is up, so that the worker's
  // precache reuses the browser's HTTP cache instead of downloading the engine a second time in
  // parallel. Z3 is not precached: the service worker keeps it once a question fetched it.
  let done = false;
  const once = () => {
    if (!done) {
      done = true;
      register();
    }
  };
  store.subscribe((state) => {
    if (state.engine.state === 'ready' || state.engine.state === 'error') once();
  });
  setTimeout(once, 30000);
}

let z3KeepAsked = false;

/**
 * Asks the service worker to keep Z3's files for offline use (sw.js `keepZ3`): Z3 fetched before
 * the worker controlled the page did not pass through it. No registration: nothing to do (the
 * `ready` promise then never settles).
 */
function keepZ3Offline() {
  // Once per page: a Z3 restarted after Cancel is the same files, already asked for.
  if (z3KeepAsked || !('serviceWorker' in navigator)) return;
  z3KeepAsked = true;
  navigator.serviceWorker.ready.then((reg) => reg.active?.postMessage({ type: 'keepZ3' })).catch(() => {});
}

start().catch((err) => {
  const box = document.querySelector('#notice');
  box.hidden = false;
  box.setAttribute('role', 'alert');
  box.textContent = `HeapLab could not start: ${err.message}. Reload the page.`;
  console.error(err);
});
