// The header's controls: Run (Ctrl/Cmd-Enter), Cancel, the Share menu (a link, or the
// `<iframe>` code that embeds one tab in a course page), and in embed mode the link that opens
// the program in the full page. Buttons only dispatch commands; main.js carries them
// out with the engine.

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

export function mount(el, store) {
  const { embed, embedTab } = store.getState();
  const testsHere = !embed || embedTab === 'tests';
  el.innerHTML = `
    <button type="button" class="primary" data-run title="Run the test blocks of the program (${isMac ? '⌘' : 'Ctrl'}-Enter)" ${testsHere ? '' : 'hidden'}>
      <span aria-hidden="true">▶</span> Run tests</button>
    <button type="button" data-cancel title="Stop what is running (the engine restarts)" disabled ${testsHere ? '' : 'hidden'}>Cancel</button>
    ${embed
      ? '<a data-open target="_blank" rel="noopener" href="./" title="Open this program in the full HeapLab page">Open in HeapLab <span aria-hidden="true">↗</span></a>'
      : `<div class="share-menu">
          <button type="button" data-share-toggle aria-expanded="false" aria-controls="share-menu">Share <span aria-hidden="true">▾</span></button>
          <div id="share-menu" class="menu share-popup" hidden>
            <button type="button" data-share title="Copy a link that opens this program with these settings">Copy link</button>
            <p class="share-result" role="status" aria-live="polite"></p>
            <h4>Embed in a course page</h4>
            <label>Show <select data-embed-tab aria-label="Tab to embed">
              <option value="explore">Explore</option><option value="tests">Tests</option><option value="logic">Logic</option>
              <option value="duel" data-duel-option hidden>Duel (reference hidden)</option>
            </select></label>
            <button type="button" data-embed-code>Copy embed code</button>
            <textarea data-embed-snippet aria-label="Embed code" rows="4" readonly hidden></textarea>
            <p class="hint share-embed-note">Paste it into the HTML of a course page. It works in any page; see “Embedding” in Learn more for Z3 in embeds.</p>
          </div>
        </div>`}
  `;
  const run = el.querySelector('[data-run]');
  const cancel = el.querySelector('[data-cancel]');
  const share = el.querySelector('[data-share]');
  const open = el.querySelector('[data-open]');
  const shareResult = el.querySelector('.share-result');
  const toggle = el.querySelector('[data-share-toggle]');
  const popup = el.querySelector('.share-popup');
  const snippet = el.querySelector('[data-embed-snippet]');

  run.addEventListener('click', () => store.dispatch({ type: 'run/tests' }));
  cancel.addEventListener('click', () => store.dispatch({ type: 'run/cancel' }));
  share?.addEventListener('click', () => store.dispatch({ type: 'share/create' }));
  toggle?.addEventListener('click', () => {
    const opened = popup.hidden;
    popup.hidden = !opened;
    toggle.setAttribute('aria-expanded', String(opened));
  });
  el.querySelector('[data-embed-code]')?.addEventListener('click', () => {
    store.dispatch({ type: 'share/embedCode', tab: el.querySelector('[data-embed-tab]').value });
  });
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && popup && !popup.hidden) {
      popup.hidden = true;
      toggle.setAttribute('aria-expanded', 'false');
      toggle.focus();
    }
  });

  store.subscribe((state, action) => {
    const busy = state.tests.status === 'running' || state.logic.status === 'running' ||
      state.smt.status === 'running' || state.explore.status === 'running' ||
      state.explore.status === 'starting' || state.compare.status === 'running' || state.duel?.status === 'running';
    cancel.disabled = !busy;
    const duelOption = el.querySelector('[data-duel-option]');
    if (duelOption) duelOption.hidden = !state.duel;
    run.disabled = state.engine.state !== 'ready';
    run.setAttribute('aria-busy', String(state.tests.status === 'running'));
    if (action.type === 'share/ready') {
      // In embed mode main.js keeps this link in step with the program, so a student leaves the
      // iframe with their edits.
      if (open) open.href = action.url;
      if (share && !action.quiet) {
        shareResult.innerHTML = '';
        const link = document.createElement('a');
        link.href = action.url;
        link.textContent = action.copied ? 'Link copied' : 'Share link ready';
        link.title = 'The link holds the program and settings';
        shareResult.append(link);
      }
    }
    if (action.type === 'share/embed' && snippet) {
      snippet.hidden = false;
      snippet.value = state.embedCode.code;
      shareResult.textContent = state.embedCode.copied ? 'Embed code copied' : 'Embed code ready: copy it below';
      snippet.select();
    }
  });
}
