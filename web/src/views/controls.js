// The header's controls: Run (Ctrl/Cmd-Enter), Cancel, Share link, and in embed mode the link
// that opens the program in the full page. Buttons only dispatch commands; main.js carries them
// out with the engine.

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

export function mount(el, store) {
  const { embed } = store.getState();
  el.innerHTML = `
    <button type="button" class="primary" data-run title="Run the tests (${isMac ? '⌘' : 'Ctrl'}-Enter)">
      <span aria-hidden="true">▶</span> Run tests</button>
    <button type="button" data-cancel title="Stop the engine and start a fresh one" disabled>Cancel</button>
    ${embed
      ? '<a data-open target="_blank" rel="noopener" href="./">Open in HeapLab <span aria-hidden="true">↗</span></a>'
      : '<button type="button" data-share title="Copy a link that reproduces this program">Share link</button>'}
    <span class="share-result" role="status" aria-live="polite"></span>
  `;
  const run = el.querySelector('[data-run]');
  const cancel = el.querySelector('[data-cancel]');
  const share = el.querySelector('[data-share]');
  const open = el.querySelector('[data-open]');
  const shareResult = el.querySelector('.share-result');

  run.addEventListener('click', () => store.dispatch({ type: 'run/tests' }));
  cancel.addEventListener('click', () => store.dispatch({ type: 'run/cancel' }));
  share?.addEventListener('click', () => store.dispatch({ type: 'share/create' }));

  store.subscribe((state, action) => {
    const busy = state.tests.status === 'running' || state.logic.status === 'running' ||
      state.smt.status === 'running' || state.explore.status === 'running' ||
      state.explore.status === 'starting' || state.compare.status === 'running';
    cancel.disabled = !busy;
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
  });
}
