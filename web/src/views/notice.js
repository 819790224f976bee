// A banner for problems that need the student's attention (the engine crashed, Z3 cannot start,
// the page is not cross-origin isolated), said in plain words with what to do about it.

export function mount(el, store) {
  el.className = 'notice';
  el.hidden = true;

  function render({ notice }) {
    el.hidden = !notice;
    el.innerHTML = '';
    if (!notice) return;
    el.dataset.kind = notice.kind;
    el.setAttribute('role', notice.kind === 'error' ? 'alert' : 'status');
    const text = document.createElement('div');
    const title = document.createElement('strong');
    title.textContent = notice.title;
    const body = document.createElement('p');
    body.textContent = notice.text;
    text.append(title, body);
    const actions = document.createElement('div');
    actions.className = 'actions';
    for (const a of notice.actions ?? []) {
      if (a.href) {
        const link = Object.assign(document.createElement('a'), { href: a.href, textContent: a.label });
        link.target = '_blank';
        link.rel = 'noopener';
        actions.append(link);
      } else {
        const b = Object.assign(document.createElement('button'), { type: 'button', textContent: a.label });
        b.addEventListener('click', () => store.dispatch(a.action));
        actions.append(b);
      }
    }
    const close = Object.assign(document.createElement('button'), { type: 'button', className: 'close', textContent: '×' });
    close.setAttribute('aria-label', 'Dismiss');
    close.addEventListener('click', () => store.dispatch({ type: 'notice/dismiss', id: notice.id }));
    actions.append(close);
    el.append(text, actions);
  }

  render(store.getState());
  store.subscribe((state, action) => {
    if (action.type.startsWith('notice/')) render(state);
  });
}
