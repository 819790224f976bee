// The program editor: CodeMirror 6 with HeapLab highlighting, bracket matching, line numbers,
// search, and inline diagnostics from the real checker (delivered through the store as UTF-16
// offsets). Ctrl/Cmd-Enter runs the tests. After an exploration, a gutter shows which lines the
// generated tests cover, and the lines of one test can be highlighted (see `coverage` below).

import { EditorState, Compartment, StateField, StateEffect, RangeSet } from '@codemirror/state';
import {
  EditorView, keymap, lineNumbers, highlightActiveLine, highlightActiveLineGutter,
  drawSelection, highlightSpecialChars, gutter, GutterMarker, Decoration,
} from '@codemirror/view';
import {
  defaultKeymap, history, historyKeymap, indentWithTab, simplifySelection, temporarilySetTabFocusMode,
} from '@codemirror/commands';
import { bracketMatching, indentOnInput, foldGutter, foldKeymap } from '@codemirror/language';
import { closeBrackets, closeBracketsKeymap } from '@codemirror/autocomplete';
import { searchKeymap, highlightSelectionMatches } from '@codemirror/search';
import { lintGutter, setDiagnostics, lintKeymap } from '@codemirror/lint';
import { syntaxHighlighting } from '@codemirror/language';
import { java } from '@codemirror/lang-java';
import { completion, heaplabLanguage, style as heaplabStyle } from '../lang/heaplab.js';

/** The editor's grammar for the page's language (`state.lang`): Java's or HeapLab's, same colours. */
function languageFor(lang) {
  return [lang === 'java' ? java() : heaplabLanguage, syntaxHighlighting(heaplabStyle)];
}

/**
 * Whether an editor update brought a new program rather than an edit: an example or a link
 * replacing the text, or a paste over the whole of it (the language is then detected afresh).
 */
function replacesProgram(update) {
  return update.transactions.some((tr) => tr.isUserEvent('input.replace') ||
    (tr.isUserEvent('input.paste') && tr.startState.selection.ranges.some((r) => r.from === 0 && r.to === tr.startState.doc.length)));
}

const theme = EditorView.theme({
  '&': { height: '100%', fontSize: '14px', backgroundColor: 'var(--editor-bg)' },
  '.cm-scroller': { fontFamily: 'var(--mono)', lineHeight: '1.5' },
  '.cm-gutters': { backgroundColor: 'var(--editor-gutter)', color: 'var(--muted)', borderRight: '1px solid var(--line)' },
  '.cm-activeLine': { backgroundColor: 'rgba(124, 58, 237, 0.05)' },
  '.cm-activeLineGutter': { backgroundColor: 'rgba(124, 58, 237, 0.08)' },
  '&.cm-focused': { outline: 'none' },
});

/** Where the document's version counter lives: bumped on every change. */
let version = 0;

export function mount(el, store) {
  const readOnly = new Compartment();
  // Java or HeapLab, following the page's language (detected from the text, or chosen).
  const language = new Compartment();
  let shownLang = store.getState().lang;
  const runKeys = keymap.of([
    { key: 'Mod-Enter', preventDefault: true, run: () => (store.dispatch({ type: 'run/tests' }), true) },
    // Tab indents, so Escape is the way out: the next Tab (within two seconds) moves the
    // focus on instead of indenting, as the hint below the editor says.
    { key: 'Escape', run: (view) => { simplifySelection(view); return temporarilySetTabFocusMode(view); } },
  ]);
  // The way out of the editor, said when it has the focus and read with the editor's label.
  const hint = document.createElement('p');
  hint.id = 'editor-hint';
  hint.className = 'editor-hint';
  hint.innerHTML = 'Press <kbd>Esc</kbd> then <kbd>Tab</kbd> to leave the editor (<kbd>Tab</kbd> indents while you type).';
  const view = new EditorView({
    parent: el,
    state: EditorState.create({
      doc: store.getState().source,
      extensions: [
        runKeys,
        lineNumbers(),
        highlightActiveLineGutter(),
        foldGutter(),
        lintGutter(),
        coverageExtension,
        currentLineExtension,
        highlightSpecialChars(),
        history(),
        drawSelection(),
        indentOnInput(),
        bracketMatching(),
        closeBrackets(),
        highlightActiveLine(),
        highlightSelectionMatches(),
        language.of(languageFor(shownLang)),
        completion(),
        EditorView.lineWrapping,
        theme,
        readOnly.of(EditorState.readOnly.of(store.getState().readOnly)),
        EditorState.tabSize.of(2),
        keymap.of([
          ...closeBracketsKeymap, ...defaultKeymap, ...searchKeymap, ...historyKeymap,
          ...foldKeymap, ...lintKeymap, indentWithTab,
        ]),
        // tabindex: the content is focusable anyway (contenteditable); saying so lets checkers
        // see that the scrolling editor can be reached from the keyboard.
        EditorView.contentAttributes.of({ 'aria-label': 'Program editor', 'aria-describedby': 'editor-hint', tabindex: '0' }),
        EditorView.updateListener.of((update) => {
          if (!update.docChanged) return;
          const text = update.state.doc.toString();
          version += 1;
          store.dispatch({ type: 'source/changed', source: text, version, replaced: replacesProgram(update) });
        }),
      ],
    }),
  });
  el.after(hint);

  store.subscribe((state, action) => {
    if (state.lang !== shownLang) {
      shownLang = state.lang;
      // Not inside the update that changed the text (CodeMirror forbids nested updates).
      queueMicrotask(() => view.dispatch({ effects: language.reconfigure(languageFor(shownLang)) }));
    }
    switch (action.type) {
      case 'editor/replace': {
        // One transaction replacing the whole document, so Undo brings the old program back.
        view.dispatch({
          changes: { from: 0, to: view.state.doc.length, insert: action.source },
          selection: { anchor: 0 },
          scrollIntoView: true,
          userEvent: 'input.replace',
        });
        break;
      }
      case 'editor/goto': {
        const line = view.state.doc.line(Math.min(Math.max(1, action.line), view.state.doc.lines));
        // `focus: false` only shows the line, near the top (a duel opening at the student's
        // method), leaving the keyboard where it was: an embed must not take focus from its
        // course page.
        if (action.focus === false) {
          view.dispatch({ selection: { anchor: line.from }, effects: EditorView.scrollIntoView(line.from, { y: 'start', yMargin: 24 }) });
          break;
        }
        view.dispatch({ selection: { anchor: line.from }, scrollIntoView: true });
        view.focus();
        break;
      }
      case 'diagnostics/set': {
        // Results computed for an older text would point at the wrong places; the next check
        // brings fresh ones.
        if (action.version !== version) break;
        const len = view.state.doc.length;
        const diagnostics = action.list.map((d) => ({
          from: Math.min(d.from, len),
          to: Math.min(Math.max(d.to, d.from), len),
          severity: d.severity === 'note' ? 'info' : d.severity,
          message: d.notes?.length ? `${d.message}\n${d.notes.join('\n')}` : d.message,
          source: 'heaplab',
        }));
        view.dispatch(setDiagnostics(view.state, diagnostics));
        break;
      }
      default:
        break;
    }
  });
  syncCoverage(view, store);
  syncCurrentLine(view, store);

  return {
    view,
    /** The version counter matching the current document (for diagnostics). */
    version: () => version,
    focus: () => view.focus(),
  };
}

// ---- coverage ---------------------------------------------------------------------------------
// The exploration's coverage (`state.explore.coverage`) as a gutter of coloured bars, and the
// lines of one generated test (`coverage/test` actions) as a line highlight. Both live in one
// StateField so that they follow edits: markers are ranges, mapped through every change.

/** Replaces the coverage: `{ coverage, tests }` or null to clear it. */
const setCoverage = StateEffect.define();
/** Highlights one test's lines: `number[]` (1-based) or null. */
const setTestLines = StateEffect.define();

class CoverageMarker extends GutterMarker {
  constructor(kind, title) {
    super();
    this.kind = kind;
    this.title = title;
  }

  eq(other) {
    return other.kind === this.kind && other.title === this.title;
  }

  toDOM() {
    const bar = document.createElement('div');
    bar.className = `cm-coverage-mark cm-coverage-${this.kind}`;
    bar.title = this.title;
    return bar;
  }
}

const testLine = Decoration.line({ class: 'cm-test-line' });

const coverageField = StateField.define({
  create: () => ({ markers: RangeSet.empty, lines: Decoration.none }),
  update(value, tr) {
    let { markers, lines } = value;
    if (tr.docChanged) {
      markers = markers.map(tr.changes);
      lines = lines.map(tr.changes);
    }
    for (const effect of tr.effects) {
      if (effect.is(setCoverage)) {
        markers = effect.value ? coverageMarkers(tr.state.doc, effect.value) : RangeSet.empty;
        if (!effect.value) lines = Decoration.none;
      } else if (effect.is(setTestLines)) {
        lines = effect.value ? lineHighlights(tr.state.doc, effect.value) : Decoration.none;
      }
    }
    return markers === value.markers && lines === value.lines ? value : { markers, lines };
  },
  provide: (field) => EditorView.decorations.from(field, (value) => value.lines),
});

const coverageTheme = EditorView.theme({
  '.cm-coverage-gutter': { width: '6px', paddingLeft: '1px' },
  '.cm-coverage-gutter .cm-gutterElement': { padding: '0' },
  '.cm-coverage-mark': { width: '4px', height: '100%', borderRadius: '1px', cursor: 'help' },
  '.cm-coverage-covered': { backgroundColor: '#22c55e' },
  '.cm-coverage-uncovered': { backgroundColor: '#ef4444' },
  '.cm-coverage-partial': { backgroundColor: '#f59e0b' },
  '.cm-test-line': { backgroundColor: 'rgba(250, 204, 21, 0.2)' },
});

const coverageExtension = [
  coverageField,
  gutter({
    class: 'cm-coverage-gutter',
    markers: (view) => view.state.field(coverageField).markers,
  }),
  coverageTheme,
];

/**
 * The gutter markers: one per line of `doc` that is executable or holds a branch (a condition
 * in a `requires`/`ensures` clause is a branch without being a statement).
 */
function coverageMarkers(doc, { coverage, tests }) {
  const hits = new Map();
  for (const test of tests) {
    for (const line of new Set(test.lines ?? [])) hits.set(line, (hits.get(line) ?? 0) + 1);
  }
  const covered = new Set(coverage.covered);
  const branches = new Map();
  for (const b of coverage.branches) {
    if (!branches.has(b.line)) branches.set(b.line, []);
    branches.get(b.line).push(b);
  }
  const lines = [...new Set([...coverage.executable, ...coverage.covered, ...branches.keys()])]
    .filter((n) => n >= 1 && n <= doc.lines)
    .sort((a, b) => a - b);
  return RangeSet.of(lines.map((n) => {
    const onLine = branches.get(n) ?? [];
    const ran = covered.has(n) || onLine.some((b) => b.covered[0] || b.covered[1]);
    const { kind, title } = describeLine(ran, onLine, hits.get(n) ?? 0, tests.length);
    return new CoverageMarker(kind, title).range(doc.line(n).from);
  }));
}

/** The marker kind and tooltip of one line; `branches` are the conditions on it. */
function describeLine(ran, branches, hits, total) {
  if (!ran) return { kind: 'uncovered', title: 'not covered by any generated test' };
  const by = total > 0 && hits > 0 ? ` (covered by ${hits} of ${total} test${total === 1 ? '' : 's'})` : '';
  const where = (b) => (branches.length > 1 && b.column != null ? ` at column ${b.column}` : '');
  const half = branches.filter((b) => !(b.covered[0] && b.covered[1]));
  if (half.length > 0) {
    const notes = half.map((b) => {
      const taken = b.covered[1] ? 'only the true direction taken'
        : b.covered[0] ? 'only the false direction taken' : 'neither direction taken';
      return `branch${where(b)}: ${taken}`;
    });
    return { kind: 'partial', title: notes.join('; ') + by };
  }
  if (branches.length > 0) {
    const both = branches.length === 1 ? 'branch: both directions taken' : `${branches.length} branches: every direction taken`;
    return { kind: 'covered', title: both + by };
  }
  return { kind: 'covered', title: by ? by.slice(2, -1) : 'covered' };
}

function lineHighlights(doc, lines) {
  const inDoc = [...new Set(lines)].filter((n) => n >= 1 && n <= doc.lines).sort((a, b) => a - b);
  return Decoration.set(inDoc.map((n) => testLine.range(doc.line(n).from)));
}

/**
 * Keeps the field in step with the store: new coverage replaces the old, a new run (runId)
 * clears it, and so does loading another program (its lines are not the run's lines).
 */
function syncCoverage(view, store) {
  let shownCoverage = null;
  let shownTests = null;
  let shownRunId = null;
  const update = (state, action) => {
    const explore = state.explore;
    if (action?.type === 'editor/replace') {
      view.dispatch({ effects: [setCoverage.of(null)] });
      // The same coverage object must not come back; a new run brings a new one.
      return;
    }
    if (action?.type === 'coverage/test') {
      view.dispatch({ effects: setTestLines.of(action.lines?.length ? action.lines : null) });
      return;
    }
    if (!explore) return;
    if (explore.runId !== shownRunId) {
      shownRunId = explore.runId;
      shownCoverage = null;
      shownTests = null;
      view.dispatch({ effects: [setCoverage.of(null)] });
    }
    // Tooltips count tests per line, so new tests redraw the markers too.
    if (explore.coverage !== shownCoverage || explore.tests !== shownTests) {
      shownCoverage = explore.coverage;
      shownTests = explore.tests;
      const value = explore.coverage ? { coverage: explore.coverage, tests: explore.tests ?? [] } : null;
      view.dispatch({ effects: setCoverage.of(value) });
    }
  };
  update(store.getState(), null);
  store.subscribe(update);
}

// ---- the current line of an exploration -------------------------------------------------------
// Like Python Tutor's arrow: the line of the exploration state being looked at (the state a step
// led to, or the tree node clicked) is highlighted, with an arrow in the gutter. Lines come from
// the engine's events; states without one keep the nearest line above them in the tree.

/** Sets the current line: a 1-based number, or null to clear it. */
const setCurrentLine = StateEffect.define();

class ArrowMarker extends GutterMarker {
  eq() {
    return true;
  }

  toDOM() {
    const arrow = document.createElement('div');
    arrow.className = 'cm-current-arrow';
    arrow.textContent = '➜';
    arrow.title = 'The line of the exploration state shown';
    return arrow;
  }
}

const currentLineDeco = Decoration.line({ class: 'cm-current-line', attributes: { 'data-current-line': 'true' } });

const currentLineField = StateField.define({
  create: () => ({ line: null, deco: Decoration.none, arrows: RangeSet.empty }),
  update(value, tr) {
    let next = value;
    if (tr.docChanged && value.line !== null) {
      next = { ...value, deco: value.deco.map(tr.changes), arrows: value.arrows.map(tr.changes) };
    }
    for (const effect of tr.effects) {
      if (!effect.is(setCurrentLine)) continue;
      const n = effect.value;
      if (n === null || n < 1 || n > tr.state.doc.lines) {
        next = { line: null, deco: Decoration.none, arrows: RangeSet.empty };
      } else {
        const from = tr.state.doc.line(n).from;
        next = { line: n, deco: Decoration.set([currentLineDeco.range(from)]), arrows: RangeSet.of([new ArrowMarker().range(from)]) };
      }
    }
    return next;
  },
  provide: (field) => EditorView.decorations.from(field, (value) => value.deco),
});

export const currentLineExtension = [
  currentLineField,
  gutter({ class: 'cm-current-gutter', markers: (view) => view.state.field(currentLineField).arrows }),
  EditorView.theme({
    '.cm-current-line': { backgroundColor: 'rgba(124, 58, 237, 0.14)', boxShadow: 'inset 3px 0 0 #7c3aed' },
    '.cm-current-gutter': { width: '14px' },
    '.cm-current-arrow': { color: '#7c3aed', fontWeight: '700', textAlign: 'center' },
  }),
];

/** The line of tree node `id`: its own, else the nearest ancestor's. */
export function lineOfNode(nodes, id) {
  for (let n = nodes[id]; n; n = n.parent === null ? null : nodes[n.parent]) {
    if (n.line) return n.line;
  }
  return null;
}

function syncCurrentLine(view, store) {
  let shown = null;
  store.subscribe((state, action) => {
    if (!/^explore\//.test(action.type) && action.type !== 'editor/replace') return;
    const ex = state.explore;
    // The program the exploration ran on is not the editor's any more: its lines mean nothing.
    const stale = typeof ex.source === 'string' && ex.source !== state.source;
    const line = ex.selected === null || stale ? null : lineOfNode(ex.tree.nodes, ex.selected);
    if (line === shown) return;
    shown = line;
    const effects = [setCurrentLine.of(line)];
    if (line && line <= view.state.doc.lines) effects.push(EditorView.scrollIntoView(view.state.doc.line(line).from, { y: 'nearest' }));
    view.dispatch({ effects });
  });
}