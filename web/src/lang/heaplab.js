// HeapLab (.hl) highlighting for CodeMirror 6: a small stream tokenizer following the lexical
// structure of docs/language.md (keywords, types, literals, comments, operators). It colours the
// text only; the real parser and checker run in the wasm engine and report diagnostics.

import { StreamLanguage, HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { tags as t } from '@lezer/highlight';
import { autocompletion } from '@codemirror/autocomplete';

const KEYWORDS = new Set([
  'class', 'pred', 'pure', 'test', 'expects', 'requires', 'ensures', 'exists', 'if', 'else',
  'while', 'for', 'throw', 'try', 'catch', 'return', 'break', 'continue', 'assert', 'assume',
  'new', 'old',
]);
const TYPES = new Set(['int', 'bool', 'void']);
const ATOMS = new Set(['null', 'true', 'false', 'this', 'result', 'emp']);
// Keywords that introduce a declared name (class, predicate, test).
const DECLARES = new Set(['class', 'pred', 'test']);

const parser = {
  name: 'heaplab',
  // `depth`: open braces and parentheses before this point, for auto-indent.
  startState: () => ({ inComment: false, declareNext: false, depth: 0 }),
  copyState: (st) => ({ ...st }),
  token(stream, state) {
    if (state.inComment) {
      if (stream.skipTo('*/')) {
        stream.match('*/');
        state.inComment = false;
      } else {
        stream.skipToEnd();
      }
      return 'comment';
    }
    if (stream.eatSpace()) return null;
    if (stream.match('//')) {
      stream.skipToEnd();
      return 'comment';
    }
    if (stream.match('/*')) {
      state.inComment = true;
      return 'comment';
    }
    if (stream.match(/^\d+/)) return 'number';
    const word = stream.match(/^[A-Za-z_][A-Za-z0-9_]*/);
    if (word) {
      const w = word[0];
      if (state.declareNext) {
        state.declareNext = false;
        return 'definition';
      }
      if (DECLARES.has(w)) state.declareNext = true;
      if (KEYWORDS.has(w)) return 'keyword';
      if (TYPES.has(w)) return 'typeName';
      if (ATOMS.has(w)) return 'atom';
      if (/^[A-Z]/.test(w)) return 'className';
      if (stream.match(/^\s*\(/, false)) return 'function';
      return 'variableName';
    }
    if (stream.match(/^(->|:=|==|!=|<=|>=|&&|\|\||[+\-*/%#<>!?:=|&.])/)) return 'operator';
    const bracket = stream.match(/^[(){}[\]]/);
    if (bracket) {
      state.depth = Math.max(0, state.depth + ('({['.includes(bracket[0]) ? 1 : -1));
      return 'bracket';
    }
    stream.next();
    return 'punctuation';
  },
  /**
   * Auto-indent: one unit per open brace or parenthesis, one less on a line that starts by
   * closing one (`}` or `)`). Enter after `{` indents the new line; typing `}` dedents it.
   */
  indent(state, textAfter, cx) {
    const closing = /^\s*[)}]/.test(textAfter) ? 1 : 0;
    return Math.max(0, state.depth - closing) * cx.unit;
  },
  tokenTable: {
    definition: t.definition(t.variableName),
    className: t.className,
    function: t.function(t.variableName),
  },
  languageData: {
    commentTokens: { line: '//', block: { open: '/*', close: '*/' } },
    closeBrackets: { brackets: ['(', '{', '"'] },
    indentOnInput: /^\s*[})]$/,
  },
};

export const heaplabLanguage = StreamLanguage.define(parser);

// Colours are the page's variables (style.css, `--hl-*`), one set per theme, each at least
// WCAG AA's 4.5:1 on the editor, on its highlighted lines and on the current line of a step
// (tests/browser/access.test.mjs checks them with axe-core).
export const style = HighlightStyle.define([
  { tag: t.keyword, color: 'var(--hl-keyword)', fontWeight: '600' },
  { tag: t.typeName, color: 'var(--hl-type)' },
  { tag: t.className, color: 'var(--hl-type)' },
  { tag: t.atom, color: 'var(--hl-atom)' },
  { tag: t.number, color: 'var(--hl-atom)' },
  { tag: t.comment, color: 'var(--hl-comment)', fontStyle: 'italic' },
  { tag: t.operator, color: 'var(--hl-operator)' },
  { tag: t.definition(t.variableName), color: 'var(--hl-function)', fontWeight: '600' },
  { tag: t.function(t.variableName), color: 'var(--hl-function)' },
]);

// Names declared in the program, for completion: classes, predicates, functions and fields.
const DECLARATION = /\b(?:class|pred)\s+([A-Za-z_]\w*)|\b(?:int|bool|void|[A-Z]\w*)\s+([A-Za-z_]\w*)\s*[(;,]/g;
const ERROR_KINDS = ['null_dereference', 'division_by_zero', 'assert_failed', 'ensures_failed',
  'requires_failed', 'integer_overflow', 'bound_exhausted', 'exception', 'index_out_of_bounds',
  'negative_array_size'];

/** Completes keywords, types and the names the program declares (no analysis needed). */
function complete(context) {
  const word = context.matchBefore(/[A-Za-z_]\w*/);
  if (!word || (word.from === word.to && !context.explicit)) return null;
  const names = new Map();
  for (const [, decl, member] of context.state.doc.toString().matchAll(DECLARATION)) {
    const name = decl ?? member;
    if (name && !KEYWORDS.has(name) && !TYPES.has(name)) names.set(name, /^[A-Z]/.test(name) ? 'class' : 'variable');
  }
  const before = context.state.sliceDoc(Math.max(0, word.from - 40), word.from);
  const options = /\bexpects\s*$/.test(before)
    ? ERROR_KINDS.map((label) => ({ label, type: 'constant' }))
    : [
      ...[...KEYWORDS].map((label) => ({ label, type: 'keyword' })),
      ...[...TYPES].map((label) => ({ label, type: 'type' })),
      ...[...ATOMS].map((label) => ({ label, type: 'constant' })),
      ...[...names].filter(([n]) => n !== word.text).map(([label, type]) => ({ label, type })),
    ];
  return { from: word.from, options, validFor: /^\w*$/ };
}

/** The language plus its colours and completion, ready to put in an editor's extensions. */
export function heaplab() {
  return [heaplabLanguage, syntaxHighlighting(style), completion()];
}

/** Completion of keywords and declared names (kept when the editor switches to Java). */
export function completion() {
  return autocompletion({ override: [complete] });
}

// Whether a text is Java: the page's one rule (detect.js), re-exported for the editor.
export { looksLikeJava } from './detect.js';
