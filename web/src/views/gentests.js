// The generated tests of an exploration (inside the Explore tab): one card per test with its
// outcome, whether its input satisfies `requires`, a small picture of the input heap, the source
// lines it runs and its `test` block; plus downloads of one test or all of them (.hl, JSON,
// JUnit 5, or everything as one zip).
//
// Hovering or focusing a card shows its lines in the editor; pressing its name pins them there.
// Both go through `coverage/test` actions, which only the editor acts on.

import { zipSync, strToU8 } from 'fflate';
import { drawHeap, heapViewOfTestInput } from '../draw/heapgraph.js';
import { showReplay } from '../replay.js';

const VALIDITY = {
  valid: { text: 'valid', title: 'The input satisfies the method\'s `requires`.' },
  assumed: { text: 'assumed', title: 'The input was built assuming `requires`, so it satisfies it by construction.' },
  invalid: { text: 'invalid input', title: 'The input violates `requires`: this test exercises a case callers may not create.' },
  unknown: { text: 'unknown', title: 'Whether the input satisfies `requires` was not decided.' },
};

/** Test cards made at once; the next ones as the list is scrolled. */
const CARD_PAGE = 40;

export function mount(el, store, engine = null) {
  el.classList.add('gentests');
  el.innerHTML = `
    <div class="gt-head">
      <h3 id="gt-title">Generated tests</h3>
      <span class="gt-count" role="status" aria-live="polite"></span>
      <div class="gt-downloads" role="group" aria-label="Download the tests">
        <button type="button" data-download="hl" aria-label="Download .hl" title="The program followed by every test, runnable with heaplab test">.hl</button>
        <button type="button" data-download="json" aria-label="Download JSON" title="The tests as JSON (heaplab run --emit json)">JSON</button>
        <button type="button" data-download="junit" aria-label="Download JUnit" title="JUnit 5: the program translated to Java plus one test class (a zip)">JUnit</button>
        <button type="button" data-download="zip" class="gt-zip" aria-label="Download all (.zip)" title="tests.hl, tests.json and the JUnit files in one zip">All (.zip)</button>
      </div>
    </div>
    <p class="gt-junit-note" hidden></p>
    <section class="replay" aria-label="Replay" hidden></section>
    <ol class="gt-list" aria-labelledby="gt-title"></ol>
    <button type="button" class="gt-more" hidden></button>
  `;
  const count = el.querySelector('.gt-count');
  const downloads = el.querySelector('.gt-downloads');
  const junitNote = el.querySelector('.gt-junit-note');
  const list = el.querySelector('.gt-list');
  const more = el.querySelector('.gt-more');
  const replayPanel = el.querySelector('.replay');

  // The pinned test (its name) and the test whose lines the editor shows right now.
  let pinned = null;
  let shownLines = null;
  const heaps = lazyHeapDrawer();

  function showLines(lines) {
    if (shownLines === lines) return;
    shownLines = lines;
    store.dispatch({ type: 'coverage/test', lines });
  }
  const testByName = (name) => store.getState().explore.tests.find((t) => t.name === name) ?? null;
  const pinnedLines = () => (pinned ? testByName(pinned)?.lines ?? null : null);

  downloads.addEventListener('click', (e) => {
    const button = e.target.closest('[data-download]');
    if (button) downloadAll(store.getState(), button.dataset.download);
  });

  list.addEventListener('click', (e) => {
    const goto = e.target.closest('[data-line]');
    if (goto) {
      store.dispatch({ type: 'editor/goto', line: Number(goto.dataset.line) });
      return;
    }
    const card = e.target.closest('.gt-card');
    if (!card) return;
    if (e.target.closest('.gt-pin')) {
      pinned = pinned === card.dataset.name ? null : card.dataset.name;
      for (const pin of list.querySelectorAll('.gt-pin')) {
        pin.setAttribute('aria-pressed', String(pin.closest('.gt-card').dataset.name === pinned));
      }
      showLines(pinnedLines() ?? testByName(card.dataset.name)?.lines ?? null);
    } else if (e.target.closest('.gt-enlarge')) {
      const test = testByName(card.dataset.name);
      const big = !card.hasAttribute('data-big');
      card.toggleAttribute('data-big', big);
      e.target.closest('.gt-enlarge').setAttribute('aria-pressed', String(big));
      const picture = card.querySelector('.gt-heap');
      if (test && picture) {
        try {
          drawHeap(picture, heapViewOfTestInput(test), { compact: !big });
        } catch (err) {
          picture.textContent = `(no picture: ${err.message})`;
        }
      }
    } else if (e.target.closest('.gt-replay')) {
      const { explore } = store.getState();
      const index = explore.tests.findIndex((t) => t.name === card.dataset.name);
      if (!engine || index < 0) return;
      replayPanel.hidden = false;
      replayPanel.textContent = 'Replaying…';
      engine.request('exploreReplay', { runId: explore.runId, test: index }).then(
        (replay) => { showReplay(replayPanel, store, replay); replayPanel.focus(); },
        (err) => { replayPanel.textContent = `The replay failed: ${err?.message ?? err}`; },
      );
    } else if (e.target.closest('.gt-download-one')) {
      const test = testByName(card.dataset.name);
      if (test) downloadOne(store.getState(), test);
    }
  });
  // Preview on hover and keyboard focus; leaving falls back to the pinned test, if any.
  const preview = (e) => {
    const card = e.target.closest('.gt-card');
    if (card) showLines(testByName(card.dataset.name)?.lines ?? null);
  };
  const unpreview = (e) => {
    if (!e.relatedTarget?.closest?.('.gt-card')) showLines(pinnedLines());
  };
  list.addEventListener('mouseover', preview);
  list.addEventListener('focusin', preview);
  list.addEventListener('mouseout', unpreview);
  list.addEventListener('focusout', unpreview);

  let shownTests = null;
  let shownDownloads;
  let shownRunId = null;
  function render(explore) {
    if (explore.runId !== shownRunId) {
      // A new exploration: nothing pinned any more, and the editor forgets the old lines.
      shownRunId = explore.runId;
      pinned = null;
      shownLines = undefined;
      // A replay belongs to its exploration's tests.
      replayPanel.hidden = true;
      replayPanel.replaceChildren();
    }
    renderCount(count, explore);
    el.dataset.partial = String(Boolean(explore.partial));
    if (explore.downloads !== shownDownloads) {
      shownDownloads = explore.downloads;
      renderDownloads(downloads, junitNote, explore);
      // Test code opened before its block came with the downloads.
      for (const d of list.querySelectorAll('details.gt-code[open]')) d.dispatchEvent(new Event('toggle'));
    }
    if (explore.tests !== shownTests) {
      shownTests = explore.tests;
      heaps.reset();
      list.replaceChildren();
      appendCards();
    }
  }

  // Cards are made CARD_PAGE at a time, the next ones when the list's end scrolls into view (or
  // "Show more" is pressed): a run can yield hundreds of tests, and making every card at once
  // held the page for half a second and kept thousands of elements nobody scrolled to.
  function appendCards() {
    const tests = shownTests ?? [];
    const from = list.children.length;
    const to = Math.min(tests.length, from + CARD_PAGE);
    list.append(...tests.slice(from, to).map((t) => card(store, t, tests.length, heaps)));
    const left = tests.length - to;
    more.hidden = left === 0;
    more.textContent = `Show more tests (${left} more)`;
  }
  more.addEventListener('click', appendCards);
  if (typeof IntersectionObserver === 'function') {
    new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting) && !more.hidden) appendCards();
    }, { rootMargin: '200px' }).observe(more);
  }

  // The reducer replaces `state.explore` whenever any part of it changes.
  let shownExplore = null;
  const update = (state) => {
    if (!state.explore || state.explore === shownExplore) return;
    shownExplore = state.explore;
    render(state.explore);
  };
  update(store.getState());
  store.subscribe(update);
}

// ---- rendering ----------------------------------------------------------------------------

/**
 * Whether a finished exploration found no test because `requires` has no satisfying input: no
 * feasible path, and paths were discarded for the precondition (or, under sl, its formula had no
 * model), while nothing was cut by a bound.
 */
function noInputSatisfiesRequires(summary, options) {
  if (!summary || summary.paths_feasible > 0 || summary.paths_bounded > 0) return false;
  if ((options?.pre ?? summary.pre) === 'ignore') return false;
  return (summary.paths_precondition_discarded ?? 0) > 0 || (summary.sl?.no_model ?? 0) > 0;
}

function renderCount(count, explore) {
  // A live region: rewriting the same words on every exploration step would re-announce them.
  const text = countText(explore);
  if (count.textContent !== text) count.textContent = text;
}

function countText({ tests, status, partial, summary, method, options }) {
  if (tests.length > 0) {
    const invalid = tests.filter((t) => t.validity === 'invalid').length;
    const errors = tests.filter((t) => t.outcome === 'error').length;
    const parts = [plural(tests.length, 'test')];
    if (errors > 0) parts.push(plural(errors, 'error'));
    if (invalid > 0) parts.push(`${invalid} invalid input${invalid === 1 ? '' : 's'}`);
    if (partial) parts.push('partial: the exploration was cancelled');
    return parts.join(' · ');
  }
  if (status === 'running' || status === 'paused' || status === 'starting') return 'Tests appear when the exploration ends.';
  if (status === 'done' && partial) return 'No tests: the exploration was cancelled before any path ended.';
  if (status === 'done' && noInputSatisfiesRequires(summary, options)) {
    return `No tests: no input satisfies the precondition (requires) of ${method}, so every path was discarded. Check its requires clause.`;
  }
  if (status === 'done') return 'No tests: no path reached the end of the method.';
  return 'Run an exploration to generate tests.';
}

function renderDownloads(group, junitNote, explore) {
  const d = explore.downloads;
  for (const button of group.querySelectorAll('button')) {
    const kind = button.dataset.download;
    button.disabled = !d || (kind === 'junit' && !d.junit?.files);
  }
  const reason = d?.junit?.error;
  junitNote.hidden = !reason;
  junitNote.textContent = reason ? `No JUnit export: ${reason}` : '';
  const warnings = d?.junit?.warnings ?? [];
  if (!reason && warnings.length > 0) {
    junitNote.hidden = false;
    junitNote.textContent = `JUnit export: ${warnings.join('; ')}`;
  }
}

/** One test's card. `total` is the number of tests (for the title of the line list). */
function card(store, test, total, heaps) {
  const li = document.createElement('li');
  li.className = 'gt-card';
  li.dataset.name = test.name;
  li.dataset.outcome = test.outcome;
  li.dataset.validity = test.validity;
  // What a screen reader says of the card: the test, how it ends, and its input (the picture's
  // own label words the heap).
  const ends = test.outcome === 'returned' ? `returns ${test.expected}` : `ends with ${String(test.expected).replaceAll('_', ' ')}`;
  li.setAttribute('aria-label', `Test ${test.name}: ${ends}${VALIDITY[test.validity] ? `, input ${VALIDITY[test.validity].text}` : ''}`);

  const head = el('div', 'gt-card-head');
  const pin = el('button', 'gt-pin link');
  pin.type = 'button';
  pin.setAttribute('aria-pressed', 'false');
  pin.title = 'Keep this test\'s lines highlighted in the editor';
  breakable(pin, test.name);
  const one = el('button', 'gt-download-one');
  one.type = 'button';
  one.textContent = '⤓';
  one.setAttribute('aria-label', `Download test ${test.name} (.hl)`);
  one.title = 'Download the program with this test (.hl)';
  const enlarge = el('button', 'gt-enlarge');
  enlarge.type = 'button';
  enlarge.textContent = '⤢';
  enlarge.setAttribute('aria-label', `Enlarge the picture of test ${test.name}`);
  enlarge.setAttribute('aria-pressed', 'false');
  enlarge.title = 'Show this test\'s input heap bigger (again: smaller)';
  const replay = el('button', 'gt-replay');
  replay.type = 'button';
  replay.textContent = '▶';
  replay.setAttribute('aria-label', `Replay test ${test.name}`);
  replay.title = 'Run this test in the interpreter and step through it';
  head.append(pin, replay, enlarge, one);

  const badges = el('div', 'gt-badges');
  badges.append(outcomeBadge(test));
  const validity = VALIDITY[test.validity];
  if (validity) badges.append(badge(`gt-validity gt-${test.validity}`, validity.text, validity.title));
  if (test.kCut) badges.append(badge('gt-kcut', 'k bound', 'The input was cut at the reference-chain bound k.'));

  // The drawn picture is an `img` named by the drawing code; this title is for pointer users.
  const picture = el('div', 'gt-heap');
  picture.title = `Input heap: ${inputSummary(test)}`;
  heaps.observe(picture, test);

  li.append(head, badges, picture, linesRow(test.lines ?? [], total), codeDetails(store, test));
  return li;
}

function outcomeBadge(test) {
  if (test.outcome === 'error') {
    return badge('gt-outcome gt-error', `✗ ${test.expected}`, `The call ends with the error ${test.expected}.`);
  }
  const text = test.expected === 'void' || test.expected === '' ? '✓ returns' : `✓ returns ${test.expected}`;
  return badge('gt-outcome gt-returned', text, 'The call returns normally; the test asserts the result and the heap afterwards.');
}

function linesRow(lines, total) {
  const row = el('div', 'gt-lines');
  const label = el('span', 'gt-lines-label');
  label.textContent = lines.length === 0 ? 'No lines recorded' : `Lines`;
  row.append(label);
  for (const [from, to] of ranges(lines)) {
    const b = el('button', 'gt-line chip');
    b.type = 'button';
    b.dataset.line = from;
    b.textContent = from === to ? `${from}` : `${from}–${to}`;
    b.setAttribute('aria-label', from === to ? `Go to line ${from}` : `Go to lines ${from} to ${to}`);
    row.append(b);
  }
  row.title = `${plural(lines.length, 'line')} run by this test (of ${plural(total, 'test')})`;
  return row;
}

/**
 * A test's `test` block. A run's tests come without it (the worker makes the blocks with the
 * downloads, after the tests are shown); a concolic run's tests carry theirs.
 */
function testBlock(explore, test) {
  if (typeof test.hl === 'string') return test.hl;
  return explore.downloads?.blocks?.[explore.tests.indexOf(test)] ?? null;
}

/** The test's code, written when the details are opened (again when the downloads come). */
function codeDetails(store, test) {
  const details = el('details', 'gt-code');
  const summary = el('summary');
  summary.textContent = 'Test code';
  const pre = el('pre');
  details.addEventListener('toggle', () => {
    if (details.open) pre.textContent = testBlock(store.getState().explore, test) ?? 'Writing the test code…';
  });
  details.append(summary, pre);
  return details;
}

/**
 * Heap pictures are drawn when their card scrolls into view: a run can yield hundreds of tests,
 * and laying out every graph at once would freeze the page.
 */
function lazyHeapDrawer() {
  const pending = new Map();
  const drawNow = (container, test) => {
    try {
      drawHeap(container, heapViewOfTestInput(test), { compact: true });
    } catch (err) {
      container.textContent = `(no picture: ${err.message})`;
    }
  };
  const observer = typeof IntersectionObserver === 'function'
    ? new IntersectionObserver((entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting || !pending.has(entry.target)) continue;
        drawNow(entry.target, pending.get(entry.target));
        pending.delete(entry.target);
        observer.unobserve(entry.target);
      }
    }, { root: null, rootMargin: '200px' })
    : null;
  return {
    observe(container, test) {
      if (!observer) {
        drawNow(container, test);
        return;
      }
      pending.set(container, test);
      observer.observe(container);
    },
    reset() {
      for (const container of pending.keys()) observer?.unobserve(container);
      pending.clear();
    },
  };
}

// ---- downloads ----------------------------------------------------------------------------

/** `BST.insert` under `lazier#` → `BST.insert-lazier-sharp`: safe on every file system. */
export function fileStem(method, strategy) {
  const clean = (s) => s.replace(/#/g, '-sharp').replace(/[^A-Za-z0-9._-]+/g, '_');
  return `${clean(method || 'program')}-${clean(strategy || 'run')}`;
}

/** The program text as the run saw it: `downloads.hl` minus its generated-tests part. */
/** The program the tests were generated from (never the editor's text, which may have changed). */
function programOf(state) {
  if (typeof state.explore.source === 'string') return state.explore.source;
  const all = state.explore.downloads?.hl ?? '';
  const header = all.search(/\n\/\/ ---- \d+ tests? generated by /);
  return header < 0 ? all : all.slice(0, header);
}

function downloadOne(state, test) {
  const { method, strategy } = state.explore;
  const program = programOf(state).replace(/\n*$/, '\n');
  const block = testBlock(state.explore, test);
  if (block === null) return; // the worker has not sent the downloads yet (milliseconds)
  const text = `${program}\n// ---- test ${test.name}, generated by HeapLab for ${method} (${strategy}) ----\n\n${block}`;
  save(new Blob([text], { type: 'text/plain' }), `${fileStem(method, strategy)}-${test.name}.hl`);
}

function downloadAll(state, kind) {
  const { method, strategy, downloads } = state.explore;
  if (!downloads) return;
  const stem = `${fileStem(method, strategy)}-tests`;
  switch (kind) {
    case 'hl':
      save(new Blob([downloads.hl], { type: 'text/plain' }), `${stem}.hl`);
      break;
    case 'json':
      save(new Blob([downloads.json], { type: 'application/json' }), `${stem}.json`);
      break;
    case 'junit':
      save(zipBlob(junitEntries(downloads.junit, '')), `${stem}-junit.zip`);
      break;
    case 'zip': {
      const entries = { 'tests.hl': downloads.hl, 'tests.json': downloads.json, ...junitEntries(downloads.junit, 'junit/') };
      save(zipBlob(entries), `${stem}.zip`);
      break;
    }
    default:
      break;
  }
}

function junitEntries(junit, prefix) {
  const entries = {};
  for (const file of junit?.files ?? []) entries[prefix + file.name] = file.text;
  // The reason travels with the zip, so a missing junit/ folder explains itself.
  if (junit?.error) entries[`${prefix}JUNIT-NOT-EXPORTED.txt`] = `${junit.error}\n`;
  return entries;
}

function zipBlob(texts) {
  const files = {};
  for (const [name, text] of Object.entries(texts)) files[name] = strToU8(text);
  return new Blob([zipSync(files, { level: 6 })], { type: 'application/zip' });
}

function save(blob, name) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  // Revoked later: some browsers start reading the blob only after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 60000);
}

// ---- small helpers ------------------------------------------------------------------------

/** Sorted line numbers as runs of consecutive lines: [3,4,5,9] → [[3,5],[9,9]]. */
export function ranges(lines) {
  const sorted = [...new Set(lines)].sort((a, b) => a - b);
  const out = [];
  for (const n of sorted) {
    const last = out[out.length - 1];
    if (last && n === last[1] + 1) last[1] = n;
    else out.push([n, n]);
  }
  return out;
}

function inputSummary(test) {
  const objects = test.input?.objects ?? [];
  if (objects.length === 0) return 'no objects';
  return objects.map((o) => `${o.id} ${o.class}`).join(', ');
}

function plural(n, word) {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function el(tag, className) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  return node;
}

function badge(className, text, title) {
  const span = el('span', `gt-badge ${className}`);
  span.textContent = text;
  span.title = title;
  return span;
}

/** Long snake_case names may wrap after an underscore rather than mid-word. */
function breakable(node, name) {
  name.split('_').forEach((part, i, parts) => {
    node.append(part + (i < parts.length - 1 ? '_' : ''));
    if (i < parts.length - 1) node.append(document.createElement('wbr'));
  });
}
