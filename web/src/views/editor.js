// The program editor: CodeMirror 6 with HeapLab highlighting, bracket matching, line numbers,
// search, and inline diagnostics from the real checker (delivered through the store as UTF-16
// offsets). Ctrl/Cmd-Enter runs the tests.

import { EditorState, Compartment } from '@codemirror/state';
import {
  EditorView, keymap, lineNumbers, highlightActiveLine, highlightActiveLineGutter,
  drawSelection, highlightSpecialChars,
} from '@codemirror/view';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { bracketMatching, indentOnInput, foldGutter, foldKeymap } from '@codemirror/language';
import { closeBrackets, closeBracketsKeymap } from '@codemirror/autocomplete';
import { searchKeymap, highlightSelectionMatches } from '@codemirror/search';
import { lintGutter, setDiagnostics, lintKeymap } from '@codemirror/lint';
import { heaplab } from '../lang/heaplab.js';

const theme = EditorView.theme({
  '&': { height: '100%', fontSize: '14px', backgroundColor: 'var(--editor-bg)' },
  '.cm-scroller': { fontFamily: 'var(--mono)', lineHeight: '1.5' },
  '.cm-gutters': { backgroundColor: 'var(--editor-gutter)', borderRight: '1px solid var(--line)' },
  '.cm-activeLine': { backgroundColor: 'rgba(124, 58, 237, 0.05)' },
  '.cm-activeLineGutter': { backgroundColor: 'rgba(124, 58, 237, 0.08)' },
  '&.cm-focused': { outline: 'none' },
});

/** Where the document's version counter lives: bumped on every change. */
let version = 0;

export function mount(el, store) {
  const readOnly = new Compartment();
  const runKeys = keymap.of([
    { key: 'Mod-Enter', preventDefault: true, run: () => (store.dispatch({ type: 'run/tests' }), true) },
  ]);
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
        highlightSpecialChars(),
        history(),
        drawSelection(),
        indentOnInput(),
        bracketMatching(),
        closeBrackets(),
        highlightActiveLine(),
        highlightSelectionMatches(),
        heaplab(),
        EditorView.lineWrapping,
        theme,
        readOnly.of(EditorState.readOnly.of(store.getState().readOnly)),
        EditorState.tabSize.of(2),
        keymap.of([
          ...closeBracketsKeymap, ...defaultKeymap, ...searchKeymap, ...historyKeymap,
          ...foldKeymap, ...lintKeymap, indentWithTab,
        ]),
        EditorView.contentAttributes.of({ 'aria-label': 'Program editor' }),
        EditorView.updateListener.of((update) => {
          if (!update.docChanged) return;
          version += 1;
          store.dispatch({ type: 'source/changed', source: update.state.doc.toString(), version });
        }),
      ],
    }),
  });

  store.subscribe((state, action) => {
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

  return {
    view,
    /** The version counter matching the current document (for diagnostics). */
    version: () => version,
    focus: () => view.focus(),
  };
}
