// The language switch in the header: says whether the program is read as HeapLab or Java, and
// lets the user override the detection. "Java (detected)" follows the text (a pasted class, an
// example, a link); choosing HeapLab or Java fixes the language until a new program is opened or
// pasted whole. The choice travels with every request to the worker and in share links.

const NAMES = { hl: 'HeapLab', java: 'Java' };

export function mount(el, store) {
  el.innerHTML = `
    <label class="lang-switch">Language
      <select data-lang title="How the program is read: detected from its text, or chosen here"></select>
    </label>
  `;
  const select = el.querySelector('select');
  const detected = document.createElement('option');
  detected.value = 'auto';
  const options = [detected, ...Object.entries(NAMES).map(([value, name]) => {
    const o = document.createElement('option');
    o.value = value;
    o.textContent = name;
    return o;
  })];
  select.append(...options);

  select.addEventListener('change', () => {
    store.dispatch(select.value === 'auto' ? { type: 'lang/set', auto: true } : { type: 'lang/set', lang: select.value });
  });

  function render(state) {
    detected.textContent = `${NAMES[state.lang]} (detected)`;
    select.value = state.langAuto ? 'auto' : state.lang;
    document.body.dataset.lang = state.lang;
  }
  render(store.getState());
  store.subscribe((state, action) => {
    if (action.type === 'lang/set' || action.type === 'source/changed') render(state);
  });
}
