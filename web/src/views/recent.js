// The Recent menu in the header: the programs the editor held before a link, an example or
// another recent program replaced them (kept in this browser, newest first). Choosing one opens
// it; the program it replaces joins the list in turn, so nothing is ever lost.

const MINUTE = 60 * 1000;

/** `just now`, `5 min ago`, `3 h ago`, or the date. */
export function when(savedAt, now = Date.now()) {
  const ago = now - savedAt;
  if (ago < MINUTE) return 'just now';
  if (ago < 60 * MINUTE) return `${Math.round(ago / MINUTE)} min ago`;
  if (ago < 24 * 60 * MINUTE) return `${Math.round(ago / (60 * MINUTE))} h ago`;
  return new Date(savedAt).toLocaleDateString();
}

export function mount(el, store) {
  el.innerHTML = `
    <button type="button" class="menu-button" aria-haspopup="menu" aria-expanded="false"
      aria-controls="recent-menu">Recent <span aria-hidden="true">▾</span></button>
    <div id="recent-menu" class="menu" role="menu" aria-label="Recent programs" hidden></div>
  `;
  const button = el.querySelector('button');
  const menu = el.querySelector('[role=menu]');
  const items = () => [...menu.querySelectorAll('[role=menuitem]')];

  function setOpen(open, focusFirst = false) {
    if (open) render(store.getState().recent);
    menu.hidden = !open;
    button.setAttribute('aria-expanded', String(open));
    if (open && focusFirst) items()[0]?.focus();
  }
  button.addEventListener('click', () => setOpen(menu.hidden, true));
  button.addEventListener('keydown', (e) => {
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      setOpen(true, true);
    }
  });
  menu.addEventListener('keydown', (e) => {
    const list = items();
    const i = list.indexOf(document.activeElement);
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      list[(i + (e.key === 'ArrowDown' ? 1 : -1) + list.length) % list.length]?.focus();
    } else if (e.key === 'Escape') {
      setOpen(false);
      button.focus();
    }
  });
  document.addEventListener('click', (e) => {
    if (!menu.hidden && !el.contains(e.target)) setOpen(false);
  });
  menu.addEventListener('click', (e) => {
    const item = e.target.closest('[role=menuitem]');
    if (!item) return;
    setOpen(false);
    button.focus();
    store.dispatch({ type: 'recent/open', id: item.dataset.id });
  });

  function render(recent) {
    menu.innerHTML = '';
    if (recent.length === 0) {
      const none = document.createElement('p');
      none.className = 'description menu-empty';
      none.textContent = 'No other programs yet: a program replaced by a link or an example is kept here.';
      menu.append(none);
      return;
    }
    for (const [i, r] of recent.entries()) {
      const item = document.createElement('button');
      item.type = 'button';
      item.setAttribute('role', 'menuitem');
      item.dataset.id = r.id;
      item.tabIndex = -1;
      const title = Object.assign(document.createElement('span'), { className: 'title', textContent: r.title });
      const lines = r.snap.source.split('\n').length;
      const description = Object.assign(document.createElement('span'), {
        className: 'description', textContent: `${when(r.savedAt)} · ${lines} line${lines === 1 ? '' : 's'}`,
      });
      title.id = `recent-${i}-title`;
      description.id = `recent-${i}-description`;
      item.setAttribute('aria-labelledby', title.id);
      item.setAttribute('aria-describedby', description.id);
      item.append(title, description);
      menu.append(item);
    }
  }

  render(store.getState().recent);
  store.subscribe((state, action) => {
    if (action.type === 'recent/set' && !menu.hidden) render(state.recent);
  });
}
