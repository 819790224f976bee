// The right panel's tab strip (Tests / Explore / Compare / Logic / Debug), following the WAI-ARIA tabs pattern:
// arrow keys move between tabs, the selected tab is remembered in the settings.

const TABS = [
  { id: 'tests', label: 'Tests' },
  { id: 'explore', label: 'Explore' },
  { id: 'compare', label: 'Compare' },
  { id: 'logic', label: 'Logic' },
  // Only while the program holds a duel (state.duel).
  { id: 'duel', label: 'Duel' },
  { id: 'debug', label: 'Debug' },
];

/**
 * @param {HTMLElement} el the tab strip container
 * @param {Record<string, HTMLElement>} panels tab id -> panel element
 */
export function mount(el, store, panels) {
  el.setAttribute('role', 'tablist');
  el.setAttribute('aria-label', 'Panels');
  const buttons = TABS.map(({ id, label }) => {
    const tab = document.createElement('button');
    tab.type = 'button';
    tab.id = `tab-${id}`;
    tab.setAttribute('role', 'tab');
    tab.setAttribute('aria-controls', `panel-${id}`);
    tab.textContent = label;
    tab.addEventListener('click', () => store.dispatch({ type: 'settings/set', settings: { tab: id } }));
    const panel = panels[id];
    panel.id = `panel-${id}`;
    panel.setAttribute('role', 'tabpanel');
    panel.setAttribute('aria-labelledby', tab.id);
    panel.tabIndex = 0;
    el.append(tab);
    return tab;
  });

  el.addEventListener('keydown', (e) => {
    const shown = buttons.filter((b) => !b.hidden);
    const i = shown.indexOf(document.activeElement);
    if (i < 0 || !['ArrowLeft', 'ArrowRight', 'Home', 'End'].includes(e.key)) return;
    e.preventDefault();
    const next = e.key === 'Home' ? 0 : e.key === 'End' ? shown.length - 1
      : (i + (e.key === 'ArrowRight' ? 1 : -1) + shown.length) % shown.length;
    shown[next].focus();
    store.dispatch({ type: 'settings/set', settings: { tab: TABS[buttons.indexOf(shown[next])].id } });
  });

  function render(state) {
    const tab = state.settings.tab;
    TABS.forEach(({ id }, i) => {
      const selected = id === tab;
      buttons[i].hidden = id === 'duel' && !state.duel;
      buttons[i].setAttribute('aria-selected', String(selected));
      buttons[i].tabIndex = selected ? 0 : -1;
      panels[id].hidden = !selected;
    });
  }
  render(store.getState());
  store.subscribe((state) => render(state));
}
