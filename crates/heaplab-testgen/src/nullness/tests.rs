//! The nullness analysis on small programs: what it must prove, and the kills, loops and calls
//! under which it must not (a proof there would be unsound: each "not proved" direction below
//! is taken by some execution, shown in its comment).

use super::analyze;
use heaplab_syntax::ast::{Block, Item, NodeId, StmtKind};
use heaplab_syntax::{analyze as parse, SourceFile};

/// The `if`/`while` sites of `class.method`'s program by line, and the analysis of the method.
fn sites(text: &str, class: &str, method: &str) -> (Vec<(usize, NodeId)>, super::Nullness) {
    let file = SourceFile::new("t.hl".to_string(), text.to_string());
    let a = parse(&file);
    assert!(!a.has_errors(), "{:?}", a.diagnostics);
    let mut out = Vec::new();
    let mut decl = None;
    for item in &a.program.items {
        if let Item::Class(c) = item {
            for m in &c.methods {
                collect(&m.body, &file, &mut out);
                if c.name.name == class && m.name.name == method {
                    decl = Some(m);
                }
            }
        }
    }
    let n = analyze(&a.program, decl.expect("the method exists")).expect("the analysis settles");
    (out, n)
}

fn collect(b: &Block, file: &SourceFile, out: &mut Vec<(usize, NodeId)>) {
    for s in &b.stmts {
        let line = file.line_col(s.span.start).line;
        match &s.kind {
            StmtKind::If { then_branch, else_branch, .. } => {
                out.push((line, s.id));
                collect(then_branch, file, out);
                else_branch.iter().for_each(|e| collect(e, file, out));
            }
            StmtKind::While { body, .. } => {
                out.push((line, s.id));
                collect(body, file, out);
            }
            StmtKind::Block(b) => collect(b, file, out),
            StmtKind::Try { body, catches } => {
                collect(body, file, out);
                catches.iter().for_each(|c| collect(&c.body, file, out));
            }
            _ => {}
        }
    }
}

/// Which directions of the site on `line` are proved: `[else, then]`.
fn proved(text: &str, class: &str, method: &str, line: usize) -> [bool; 2] {
    let (sites, n) = sites(text, class, method);
    let id = sites.iter().find(|(l, _)| *l == line).map(|(_, id)| *id).expect("a site there");
    [n.proves((id, false)), n.proves((id, true))]
}

const ALIAS: &str = "class N { N next; }
class C {
  N a;
  int m()
    requires this.a != null & this.a.next != null
  {
    if (this.a.next == null) return 1;
    N q = this.a;
    q.next = null;
    if (this.a.next == null) return 2;
    return 3;
  }
}
";

#[test]
fn a_store_through_an_alias_kills_the_fact() {
    // Line 7: `requires` decides it; line 10: `q` is `this.a`, so its `next` is now null (the
    // then direction runs), and the analysis must not keep `this.a.next != null`.
    assert_eq!(proved(ALIAS, "C", "m", 7), [false, true]);
    assert!(!proved(ALIAS, "C", "m", 10)[1]);
}

const LOOP: &str = "class N { N next; }
class C {
  N a;
  int m(int n)
    requires this.a != null
  {
    N p = this.a;
    if (p == null) return 0;
    int i = 0;
    while (i < n) {
      if (i == 3) p = null;
      i++;
    }
    if (p == null) return 1;
    return 2;
  }
}
";

#[test]
fn a_loop_that_nulls_a_path_proves_nothing_after_it() {
    assert_eq!(proved(LOOP, "C", "m", 8), [false, true], "before the loop `p` is `this.a`");
    // With n > 3 the loop nulls `p`: both directions run.
    assert_eq!(proved(LOOP, "C", "m", 14), [false, false]);
}

const SUMMARY: &str = "class N { N next; }
class It {
  N cur;
  bool done() { return this.cur == null; }
  N get() {
    if (done()) return null;
    return this.cur;
  }
  void reset() { this.cur = null; }
}
class C {
  int m(It it)
    requires it != null
  {
    if (!it.done()) { N x = it.get(); }
    return 0;
  }
  int n(It it)
    requires it != null
  {
    if (!it.done()) { it.reset(); N x = it.get(); }
    return 0;
  }
}
";

#[test]
fn a_boolean_null_test_is_summarized_and_a_storing_call_kills_it() {
    // From `m`, `get` runs only after `done()` said `cur` is not null.
    assert_eq!(proved(SUMMARY, "C", "m", 6), [false, true]);
    // From `n`, `reset` stores `cur` in between: `get`'s then direction runs.
    assert_eq!(proved(SUMMARY, "C", "n", 6), [false, false]);
    // `get` explored alone knows nothing of `cur`.
    assert_eq!(proved(SUMMARY, "It", "get", 6), [false, false]);
}

const RECURSION: &str = "class T {
  T l;
  T minAt(T t) {
    if (t == null) return null;
    else if (t.l == null) return t;
    return minAt(t.l);
  }
  T fromChild() requires this.l != null { return minAt(this.l); }
  T fromRoot() { return minAt(this.l); }
}
";

#[test]
fn recursion_joins_every_call_site_of_the_explored_method() {
    // Called on a non-null child and recursing only on a non-null `t.l`: never null.
    assert_eq!(proved(RECURSION, "T", "fromChild", 4), [false, true]);
    // From `fromRoot` the first call may pass null.
    assert_eq!(proved(RECURSION, "T", "fromRoot", 4), [false, false]);
    // Line 5 is reached both ways from either.
    assert_eq!(proved(RECURSION, "T", "fromChild", 5), [false, false]);
}

const CATCH: &str = "class N { N next; }
class E {}
class C {
  N a;
  int m()
    requires this.a != null
  {
    try {
      this.a = null;
      throw new E();
    } catch (E e) {
      if (this.a == null) return 1;
    }
    return 0;
  }
}
";

#[test]
fn a_handler_starts_knowing_nothing() {
    assert_eq!(proved(CATCH, "C", "m", 12), [false, false]);
}
