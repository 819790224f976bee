// The concrete replay of one generated test (Explore → a test card's Replay): the interpreter
// runs the test's input in the worker (`Exploration.replay`, traced by the engine) and this
// panel steps through its statements with the Explore controls' gestures — Step back, Step,
// the timeline slider, and ←/→ on the panel — showing the current line in the editor, the
// frames with their locals, and the heap; at the end, the outcome beside the one the test
// expects. Beside it, the test's symbolic history: the exploration choices that made its path.

import { drawHeap, heapViewOfTestInput } from './draw/heapgraph.js';

/** Shows `replay` (a `Replay` of the wasm API) in `panel`, replacing what it showed. */
export function showReplay(panel, store, replay) {
  panel.hidden = false;
  panel.replaceChildren();
  panel.tabIndex = -1;
  let at = 0;
  const last = replay.events.length; // the position after the last statement: the outcome
  const h = (tag, cls, text) => {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  };

  const title = h('h4', 'rp-title', `Replay of ${replay.test}`);
  const close = h('button', 'rp-close', '×');
  close.type = 'button';
  close.setAttribute('aria-label', 'Close the replay');
  const controls = h('div', 'rp-controls');
  controls.setAttribute('role', 'group');
  controls.setAttribute('aria-label', 'Replay controls');
  const back = h('button', 'rp-back', 'Step back');
  const step = h('button', 'rp-step', 'Step');
  back.type = step.type = 'button';
  const slider = h('input', 'rp-slider');
  slider.type = 'range';
  slider.min = '0';
  slider.max = String(last);
  slider.setAttribute('aria-label', 'Replay timeline');
  const position = h('span', 'rp-position');
  position.setAttribute('role', 'status');
  controls.append(back, step, slider, position);

  const where = h('p', 'rp-line');
  const frames = h('ol', 'rp-frames');
  frames.setAttribute('aria-label', 'Call frames');
  const heap = h('div', 'rp-heap');
  const outcome = h('p', 'rp-outcome');
  outcome.setAttribute('role', 'status');
  const bound = h('p', 'rp-bound');
  bound.hidden = !replay.truncated;
  bound.textContent = `Only the first ${replay.maxEvents} statements are shown (the replay's event bound); the run went on to its outcome below.`;
  const history = h('details', 'rp-history');
  history.append(h('summary', '', 'How the symbolic run made this input'));
  const choices = h('ol', 'rp-choices');
  for (const c of replay.history) {
    const li = h('li', '', `${c.label}${c.line != null ? ` (line ${c.line})` : ''}`);
    choices.append(li);
  }
  history.append(choices);
  panel.append(close, title, controls, where, frames, heap, outcome, bound, history);

  function render() {
    slider.value = String(at);
    position.textContent = `${at} / ${last}`;
    back.disabled = at === 0;
    step.disabled = at >= last;
    const event = replay.events[Math.min(at, last - 1)];
    const done = at >= last;
    panel.dataset.position = String(at);
    panel.dataset.done = String(done);
    if (event) {
      where.textContent = done ? 'After the last statement' : `Line ${event.line}`;
      panel.dataset.line = done ? '' : String(event.line);
      if (!done) store.dispatch({ type: 'editor/goto', line: event.line });
      frames.replaceChildren(...event.frames.filter((f) => f.function !== '').map((f) => {
        const li = h('li', 'rp-frame');
        const locals = f.locals.map(([n, v]) => `${n} = ${valueText(v)}`);
        if (f.this != null) locals.unshift(`this = ${f.this}`);
        li.textContent = `${f.function}: ${locals.join(', ') || '(no locals)'}`;
        return li;
      }));
      const top = event.frames[event.frames.length - 1] ?? { locals: [], this: null };
      const view = heapViewOfTestInput({
        name: replay.test,
        params: top.locals.map(([n]) => n),
        input: { receiver: top.this, args: top.locals.map(([, v]) => v), objects: event.objects },
      });
      try {
        drawHeap(heap, view, { compact: false });
      } catch (err) {
        heap.textContent = `(no picture: ${err.message})`;
      }
    }
    outcome.hidden = !done;
    const got = replay.outcome === 'returned' ? `returned ${replay.expected}` : `ended with ${replay.expected}${replay.line != null ? ` at line ${replay.line}` : ''}: ${replay.message}`;
    const want = replay.testOutcome === 'returned' ? `return ${replay.testExpected}` : `end with ${replay.testExpected}`;
    const same = replay.outcome === replay.testOutcome && replay.expected === replay.testExpected;
    outcome.dataset.outcome = replay.outcome;
    outcome.dataset.expected = replay.expected;
    outcome.dataset.matches = String(same);
    outcome.textContent = `The call ${got}. The test expects it to ${want}: ${same ? 'as expected' : 'NOT as expected'}. (${replay.steps} of at most ${replay.maxSteps} steps.)`;
  }
  const go = (n) => {
    at = Math.max(0, Math.min(last, n));
    render();
  };
  back.addEventListener('click', () => go(at - 1));
  step.addEventListener('click', () => go(at + 1));
  slider.addEventListener('input', () => go(Number(slider.value)));
  panel.onkeydown = (e) => {
    if (e.target === slider) return;
    if (e.key === 'ArrowRight') { go(at + 1); e.preventDefault(); }
    if (e.key === 'ArrowLeft') { go(at - 1); e.preventDefault(); }
  };
  close.addEventListener('click', () => { panel.hidden = true; panel.replaceChildren(); });
  render();
}

function valueText(v) {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'object' && 'ref' in v) return String(v.ref);
  return String(v);
}
