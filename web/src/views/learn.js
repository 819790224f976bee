// "Learn more": the one place for background and references. Labels, tooltips and notes
// elsewhere say what things do in plain words; where the ideas come from (the papers behind
// each strategy and example) is said here, once, in a dialog opened from the header. The
// strategies' paragraphs are the engine registry's (vocabulary.js), so every strategy is here.

import { STRATEGIES } from '../vocabulary.js';

const PAPERS = [
  {
    id: 'kiasan',
    text: 'Xianghua Deng. Contract-based Verification and Test Case Generation for Open Systems (Kiasan). PhD thesis, Kansas State University, 2007.',
    about: 'The lazy, lazier and lazier# strategies, the bound k, and the BST, TreeMap, merge, swap and insertion-sort examples with their case counts.',
  },
  {
    id: 'lazy',
    text: 'Sarfraz Khurshid, Corina S. Păsăreanu, Willem Visser. Generalized Symbolic Execution for Model Checking and Testing. TACAS 2003.',
    about: 'Lazy initialization: the lazy strategy.',
  },
  {
    id: 'jsf',
    text: 'Long H. Pham, Quang Loc Le, Quoc-Sang Phan, Jun Sun, Shengchao Qin. Enhancing Symbolic Execution of Heap-based Programs with Separation Logic for Test Input Generation (Java StarFinder). arXiv 1712.06025.',
    about: 'The sl strategy: preconditions in separation logic, unfolded as the program reads the heap; the list, tree and AA-tree examples and their predicates.',
  },
  {
    id: 'csf',
    text: 'Long H. Pham, Quang Loc Le, Quoc-Sang Phan, Jun Sun. Concolic Testing Heap-Manipulating Programs (Concolic StarFinder).',
    about: 'The BST remove example and more predicates for the examples.',
  },
  {
    id: 'tll',
    text: 'Quang Loc Le et al., CAV 2014, as cited by Java StarFinder and Concolic StarFinder.',
    about: 'The tree-with-linked-leaves example and its predicate tll.',
  },
  {
    id: 'weiss',
    text: 'Mark Allen Weiss. Data Structures and Algorithm Analysis in Java.',
    about: 'The textbook code of the stack, BST, AVL and AA-tree examples.',
  },
];

export function mount(el, store) {
  el.innerHTML = `
    <button type="button" data-learn aria-haspopup="dialog">Learn more</button>
    <dialog class="learn-dialog" aria-labelledby="learn-title">
      <div class="learn-head"><h2 id="learn-title">Learn more</h2>
        <button type="button" data-close aria-label="Close">×</button></div>
      <section>
        <h3>What HeapLab does</h3>
        <p>HeapLab runs a method on <em>symbolic</em> inputs: instead of one input heap it explores
          every shape of input the method can tell apart, up to the bounds you set. Each path that
          ends becomes a test with a concrete input. The tree shows the choices (a new input object,
          a branch, a case of a predicate); the heap view shows the state of one node of the tree.</p>
      </section>
      <section>
        <h3>Strategies</h3>
        <dl class="learn-strategies"></dl>
      </section>
      <section>
        <h3>Words on the page</h3>
        <dl>
          <dt>state</dt><dd>a circle of the tree: one point of one exploration path.</dd>
          <dt>path end</dt><dd>a leaf: the path returned, hit an error, was cut by a bound, or was infeasible.</dd>
          <dt>feasible path</dt><dd>a path some input really takes; each becomes a test.</dd>
          <dt>invalid input</dt><dd>a test whose input breaks the method's requires clause.</dd>
          <dt>questions</dt><dd>facts about a path's inputs that must be checked (can <code>x &lt; y</code> hold here?). HeapLab decides most itself; the rest go to the Z3 solver.</dd>
          <dt>k</dt><dd>how many objects deep the input may reach from each input reference.</dd>
        </dl>
      </section>
      <section>
        <h3>Embedding in a course page</h3>
        <p>Share → <em>Embed in a course page</em> gives an <code>&lt;iframe&gt;</code>. In an ordinary page HeapLab
          explores without Z3 and says when a question needs it; in a cross-origin isolated page Z3 runs too.</p>
      </section>
      <section>
        <h3>References</h3>
        <ol class="learn-papers"></ol>
      </section>
    </dialog>
  `;
  const dialog = el.querySelector('dialog');
  el.querySelector('[data-learn]').addEventListener('click', () => dialog.showModal());
  el.querySelector('[data-close]').addEventListener('click', () => dialog.close());
  const strategies = el.querySelector('.learn-strategies');
  for (const { name, learn } of STRATEGIES) {
    strategies.append(Object.assign(document.createElement('dt'), { textContent: name }));
    const dd = document.createElement('dd');
    // The paragraph ends with its source in parentheses, shown quieter.
    const [, text, source] = learn.match(/^(.*) (\([^()]*\))$/) ?? [null, learn, ''];
    dd.append(`${text} `, Object.assign(document.createElement('span'), { className: 'learn-source', textContent: source }));
    strategies.append(dd);
  }
  const papers = el.querySelector('.learn-papers');
  for (const p of PAPERS) {
    const li = document.createElement('li');
    li.id = `paper-${p.id}`;
    li.append(Object.assign(document.createElement('span'), { textContent: p.text }), document.createElement('br'),
      Object.assign(document.createElement('span'), { className: 'learn-source', textContent: p.about }));
    papers.append(li);
  }
  store.subscribe((state, action) => {
    if (action.type === 'learn/open') dialog.showModal();
  });
}
