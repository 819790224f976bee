// The Debug panel, for questions about the engine rather than the program: an SMT-LIB console
// answered by Z3 wasm, the log of solver queries with their answers, and the page's environment
// (versions, cross-origin isolation). `?debug=1` opens it.

const SAMPLE = `(declare-const x Int)
(declare-const y Int)
(assert (and (> x 2) (< y x) (> y 0)))
(check-sat)
(get-model)`;

export function mount(el, store) {
  el.innerHTML = `
    <div class="panel-head"><h2>Debug</h2></div>
    <form class="smt-form">
      <label for="smt-input">SMT-LIB query</label>
      <textarea id="smt-input" rows="6" spellcheck="false"></textarea>
      <div class="row"><button type="submit">Ask Z3</button>
        <span class="hint">Z3 stops after 10 s (check-sat then says unknown). Line numbers in Z3's errors count from the first line of this query.</span></div>
    </form>
    <section aria-labelledby="smt-answer-title">
      <h3 id="smt-answer-title">Z3 answer</h3>
      <pre class="smt-answer" role="status" aria-live="polite" aria-label="Z3 answer"></pre>
    </section>
    <section aria-labelledby="syntax-title">
      <h3 id="syntax-title">Parsed program</h3>
      <button type="button" data-syntax>Show how the parser reads the program</button>
      <pre class="syntax-pretty" aria-label="Parsed program" hidden></pre>
      <details class="syntax-ast" hidden><summary>Syntax tree</summary><pre></pre></details>
    </section>
    <section aria-labelledby="env-title">
      <h3 id="env-title">Environment</h3>
      <dl class="env"></dl>
    </section>
    <section aria-labelledby="log-title">
      <h3 id="log-title">Engine log</h3>
      <ol class="log" aria-label="Engine log"></ol>
    </section>
  `;
  const input = el.querySelector('#smt-input');
  const answer = el.querySelector('.smt-answer');
  const env = el.querySelector('.env');
  const log = el.querySelector('.log');
  const syntaxPretty = el.querySelector('.syntax-pretty');
  const syntaxAst = el.querySelector('.syntax-ast');
  input.value = SAMPLE;
  el.querySelector('[data-syntax]').addEventListener('click', () => store.dispatch({ type: 'run/syntax' }));

  el.querySelector('form').addEventListener('submit', (e) => {
    e.preventDefault();
    store.dispatch({ type: 'run/smt', text: input.value });
  });

  function renderEnv(state) {
    const rows = [
      ['Engine', state.engine.state === 'ready' ? `HeapLab ${state.engine.version} (wasm)` : state.engine.state],
      ['Z3', state.z3.state],
      ['Cross-origin isolated', String(state.isolated)],
      ['SharedArrayBuffer', String(typeof SharedArrayBuffer !== 'undefined')],
      ['Service worker', navigator.serviceWorker?.controller ? 'controlling this page' : 'not controlling this page'],
    ];
    env.innerHTML = '';
    for (const [k, v] of rows) {
      env.append(Object.assign(document.createElement('dt'), { textContent: k }));
      env.append(Object.assign(document.createElement('dd'), { textContent: v }));
    }
  }

  function renderAnswer({ smt }) {
    answer.textContent = smt.status === 'running' ? 'Waiting for Z3…'
      : smt.status === 'error' ? smt.error : smt.answer;
  }

  function renderLog(state) {
    log.innerHTML = '';
    for (const entry of state.log.slice().reverse()) {
      const item = document.createElement('li');
      const time = new Date(entry.time).toLocaleTimeString();
      item.append(Object.assign(document.createElement('span'), { className: 'log-kind', textContent: `${time} ${entry.kind}` }));
      item.append(Object.assign(document.createElement('pre'), { textContent: entry.text }));
      log.append(item);
    }
  }

  renderEnv(store.getState());
  store.subscribe((state, action) => {
    if (action.type.startsWith('smt/')) renderAnswer(state);
    if (action.type === 'log/add') renderLog(state);
    if (action.type === 'syntax/done') {
      syntaxPretty.hidden = false;
      syntaxAst.hidden = false;
      syntaxPretty.textContent = action.pretty;
      syntaxAst.querySelector('pre').textContent = action.ast;
    }
    if (action.type === 'engine/status' || action.type === 'z3/status') renderEnv(state);
  });
}
