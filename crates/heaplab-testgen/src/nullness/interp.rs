//! The abstract interpreter of the nullness analysis: runs the bodies of the functions the
//! explored method reaches over [`Flow`]s, records which directions of each branch site some
//! state reaches, and joins each callee's entry over its call sites until nothing changes.

use crate::nullness::prep::{
    has_call, mod_sets, resolve, spec_exprs, summary, CallName, Func, Mods, Summary,
};
use crate::nullness::state::{
    join, kill_fields, kill_root, rebased, refine, Flow, Path, State, THIS,
};
use heaplab_syntax::ast::{BinOp, Block, Expr, ExprKind, NodeId, Stmt, StmtKind, UnOp};
use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// A loop that has not settled after this many rounds gives up the whole analysis (a finite
/// lattice settles long before; the cap only bounds the work).
const LOOP_ROUNDS: usize = 64;
/// Function bodies analysed, at most, per explored method.
const BODY_RUNS: usize = 4096;

/// What an expression evaluates to: whether it is null, if known, and the path it read.
#[derive(Clone, Debug, Default)]
struct Val {
    null: Option<bool>,
    path: Option<Path>,
}

impl Val {
    fn known(null: bool) -> Val {
        Val { null: Some(null), path: None }
    }
}

/// The directions some abstract state reached, per site: `[false, true]`.
pub type Reached = BTreeMap<NodeId, [bool; 2]>;

pub struct Interp<'p> {
    funcs: Vec<Func<'p>>,
    mods: Vec<Mods>,
    summaries: Vec<Option<Summary>>,
    entries: Vec<Flow>,
    work: VecDeque<usize>,
    pub reached: Reached,
    /// A loop or the whole run hit its cap: nothing is proved.
    pub gave_up: bool,
    /// The function whose body runs now, and its loops' break and continue states.
    current: usize,
    loops: Vec<(Flow, Flow)>,
}

impl<'p> Interp<'p> {
    pub fn new(funcs: Vec<Func<'p>>) -> Interp<'p> {
        let mods = mod_sets(&funcs);
        let summaries = funcs.iter().zip(&mods).map(|(f, m)| summary(f, m)).collect();
        let entries = vec![None; funcs.len()];
        Interp {
            funcs,
            mods,
            summaries,
            entries,
            work: VecDeque::new(),
            reached: Reached::new(),
            gave_up: false,
            current: 0,
            loops: Vec::new(),
        }
    }

    pub fn funcs(&self) -> &[Func<'p>] {
        &self.funcs
    }

    /// Runs every function reachable from `start` (entered with `entry`) to a fixpoint.
    pub fn run(&mut self, start: usize, entry: State) {
        self.enter(start, Some(entry));
        let mut runs = 0;
        while let Some(f) = self.work.pop_front() {
            runs += 1;
            if runs > BODY_RUNS || self.gave_up {
                self.gave_up = true;
                return;
            }
            self.current = f;
            self.loops.clear();
            let decl = self.funcs[f].decl;
            // A function's specifications run where it is called and returns: the calls in
            // them are entered with nothing known.
            for e in spec_exprs(decl) {
                self.eval(e, Some(State::new()));
            }
            self.block(&decl.body, self.entries[f].clone());
        }
    }

    /// Joins `flow` into a function's entry and queues the function when its entry changed
    /// (entries only lose facts, so this settles).
    fn enter(&mut self, f: usize, flow: Flow) {
        if flow.is_none() {
            return;
        }
        let joined = join(self.entries[f].clone(), flow);
        if joined != self.entries[f] {
            self.entries[f] = joined;
            if !self.work.contains(&f) {
                self.work.push_back(f);
            }
        }
    }

    fn mark(&mut self, site: NodeId, t: &Flow, f: &Flow) {
        let r = self.reached.entry(site).or_default();
        r[0] |= f.is_some();
        r[1] |= t.is_some();
    }

    fn block(&mut self, b: &Block, mut flow: Flow) -> Flow {
        for s in &b.stmts {
            // Past a `return`, `throw`, `break` or `continue`: nothing runs (no site reached).
            flow.as_ref()?;
            flow = self.stmt(s, flow);
        }
        flow
    }

    fn stmt(&mut self, s: &Stmt, flow: Flow) -> Flow {
        match &s.kind {
            StmtKind::Local { name, init, .. } => match init {
                Some(e) => self.assign(&name.name, e, flow),
                None => flow.map(|mut st| {
                    kill_root(&mut st, &name.name);
                    st
                }),
            },
            StmtKind::Assign { target, value } => self.assign(&target.name, value, flow),
            StmtKind::FieldStore { object, field, value } => {
                self.store(object, &field.name, value, flow)
            }
            StmtKind::IndexStore { array, index, value } => {
                let (flow, a) = self.eval(array, flow);
                let flow = deref(flow, &a);
                let (flow, _) = self.eval(index, flow);
                self.eval(value, flow).0
            }
            StmtKind::Expr(e) | StmtKind::Assert(e) => self.eval(e, flow).0,
            StmtKind::Assume(e) => self.cond(e, flow).0,
            StmtKind::Return(e) => {
                if let Some(e) = e {
                    self.eval(e, flow);
                }
                None
            }
            StmtKind::Throw(e) => {
                self.eval(e, flow);
                None
            }
            StmtKind::If { cond, then_branch, else_branch } => {
                let (t, f) = self.cond(cond, flow);
                self.mark(s.id, &t, &f);
                let t = self.block(then_branch, t);
                let f = match else_branch {
                    Some(b) => self.block(b, f),
                    None => f,
                };
                join(t, f)
            }
            StmtKind::While { cond, body } => self.while_loop(s.id, cond, body, flow),
            StmtKind::Block(b) => self.block(b, flow),
            StmtKind::Try { body, catches } => {
                let reached = flow.is_some();
                let mut out = self.block(body, flow);
                for c in catches {
                    // An exception may leave the body (or any callee) anywhere: a handler
                    // starts knowing nothing.
                    let entry = reached.then(State::new);
                    let done = self.block(&c.body, entry);
                    out = join(out, done);
                }
                out
            }
            StmtKind::Break => {
                if let Some(l) = self.loops.last_mut() {
                    l.0 = join(l.0.take(), flow);
                }
                None
            }
            StmtKind::Continue => {
                if let Some(l) = self.loops.last_mut() {
                    l.1 = join(l.1.take(), flow);
                }
                None
            }
        }
    }

    fn while_loop(&mut self, site: NodeId, cond: &Expr, body: &Block, entry: Flow) -> Flow {
        let mut head = entry.clone();
        for _ in 0..LOOP_ROUNDS {
            let (t, f) = self.cond(cond, head.clone());
            self.mark(site, &t, &f);
            self.loops.push((None, None));
            let end = self.block(body, t);
            let (breaks, continues) = self.loops.pop().expect("pushed above");
            let next = join(join(entry.clone(), end), continues);
            if next == head {
                return join(f, breaks);
            }
            head = next;
        }
        self.gave_up = true;
        None
    }

    /// `x = e` (or a local's initializer): `x` takes the value's nullness and, when the value
    /// is a path, the facts under that path.
    fn assign(&mut self, x: &str, e: &Expr, flow: Flow) -> Flow {
        let (flow, v) = self.eval(e, flow);
        let mut st = flow?;
        let copied = v.path.as_ref().map(|p| rebased(&st, p, x)).unwrap_or_default();
        kill_root(&mut st, x);
        st.extend(copied);
        if let Some(n) = v.null {
            st.insert(Path::var(x), n);
        }
        Some(st)
    }

    /// `o.f = e`: any object's `f` may be the one stored (aliases), so every fact reading `f`
    /// is forgotten; then `o.f` takes the value's nullness when `o` is a path that does not
    /// read `f` itself and nothing the value calls can have moved it.
    fn store(&mut self, object: &Expr, field: &str, value: &Expr, flow: Flow) -> Flow {
        let (flow, o) = self.eval(object, flow);
        let (flow, v) = self.eval(value, flow);
        let mut st = deref(flow, &o)?;
        kill_fields(&mut st, Some(&BTreeSet::from([field.to_string()])));
        if let (Some(p), Some(n)) = (&o.path, v.null) {
            if !p.fields.iter().any(|f| f == field) && !has_call(value) {
                if let Some(q) = p.field(field) {
                    st.insert(q, n);
                }
            }
        }
        Some(st)
    }

    /// A condition's states where it holds and where it does not, marking the sites in it.
    fn cond(&mut self, e: &Expr, flow: Flow) -> (Flow, Flow) {
        if flow.is_none() {
            return (None, None);
        }
        match &e.kind {
            ExprKind::Bool(true) => (flow, None),
            ExprKind::Bool(false) => (None, flow),
            ExprKind::Unary { op: UnOp::Not, operand } => {
                let (t, f) = self.cond(operand, flow);
                (f, t)
            }
            ExprKind::Binary { op: BinOp::And, lhs, rhs } => {
                let (lt, lf) = self.cond(lhs, flow);
                self.mark(e.id, &lt, &lf);
                let (rt, rf) = self.cond(rhs, lt);
                (rt, join(lf, rf))
            }
            ExprKind::Binary { op: BinOp::Or, lhs, rhs } => {
                let (lt, lf) = self.cond(lhs, flow);
                self.mark(e.id, &lt, &lf);
                let (rt, rf) = self.cond(rhs, lf);
                (join(lt, rt), rf)
            }
            ExprKind::Cond { cond, then_expr, else_expr } => {
                let (ct, cf) = self.cond(cond, flow);
                self.mark(e.id, &ct, &cf);
                let (at, af) = self.cond(then_expr, ct);
                let (bt, bf) = self.cond(else_expr, cf);
                (join(at, bt), join(af, bf))
            }
            ExprKind::Binary { op: op @ (BinOp::Eq | BinOp::Ne), lhs, rhs }
                if matches!(lhs.kind, ExprKind::Null) || matches!(rhs.kind, ExprKind::Null) =>
            {
                let other = if matches!(rhs.kind, ExprKind::Null) { lhs } else { rhs };
                let (flow, v) = self.eval(other, flow);
                let (null, not_null) = split(flow, &v);
                match op {
                    BinOp::Eq => (null, not_null),
                    _ => (not_null, null),
                }
            }
            ExprKind::Call { .. } | ExprKind::MethodCall { .. } => {
                let (flow, test) = self.call(e, flow);
                match test {
                    Some((path, true_when_null)) => {
                        let v = Val { null: None, path: Some(path) };
                        let (null, not_null) = split(flow, &v);
                        if true_when_null {
                            (null, not_null)
                        } else {
                            (not_null, null)
                        }
                    }
                    None => (flow.clone(), flow),
                }
            }
            _ => {
                let (flow, _) = self.eval(e, flow);
                (flow.clone(), flow)
            }
        }
    }

    /// An expression's value and the state after it, marking the sites in it.
    fn eval(&mut self, e: &Expr, flow: Flow) -> (Flow, Val) {
        if flow.is_none() {
            return (None, Val::default());
        }
        match &e.kind {
            ExprKind::Null => (flow, Val::known(true)),
            ExprKind::This => {
                let path = Path::var(THIS);
                (flow, Val { null: Some(false), path: Some(path) })
            }
            ExprKind::Var(v) => {
                let path = Path::var(&v.name);
                let null = flow.as_ref().and_then(|s| s.get(&path).copied());
                (flow, Val { null, path: Some(path) })
            }
            ExprKind::Field { object, field } => {
                let (flow, o) = self.eval(object, flow);
                let flow = deref(flow, &o);
                let path = o.path.and_then(|p| p.field(&field.name));
                let null = path.as_ref().and_then(|p| flow.as_ref()?.get(p).copied());
                (flow, Val { null, path })
            }
            ExprKind::Binary { op: BinOp::And | BinOp::Or, .. } => {
                let (t, f) = self.cond(e, flow);
                (join(t, f), Val::default())
            }
            ExprKind::Cond { cond, then_expr, else_expr } => {
                let (ct, cf) = self.cond(cond, flow);
                self.mark(e.id, &ct, &cf);
                let (a_flow, a) = self.eval(then_expr, ct);
                let (b_flow, b) = self.eval(else_expr, cf);
                let null = match (&a_flow, &b_flow) {
                    (Some(_), None) => a.null,
                    (None, Some(_)) => b.null,
                    _ if a.null == b.null => a.null,
                    _ => None,
                };
                (join(a_flow, b_flow), Val { null, path: None })
            }
            ExprKind::Call { .. } | ExprKind::MethodCall { .. } => {
                (self.call(e, flow).0, Val::default())
            }
            ExprKind::New { .. } | ExprKind::NewArray { .. } | ExprKind::ArrayLit { .. } => {
                (self.children(e, flow), Val::known(false))
            }
            ExprKind::Index { array, index } => {
                let (flow, a) = self.eval(array, flow);
                let flow = deref(flow, &a);
                (self.eval(index, flow).0, Val::default())
            }
            _ => (self.children(e, flow), Val::default()),
        }
    }

    fn children(&mut self, e: &Expr, mut flow: Flow) -> Flow {
        for c in e.kind.children() {
            flow = self.eval(c, flow).0;
        }
        flow
    }

    /// A call: its receiver and arguments, each possible callee entered with their facts, and
    /// the facts the callees may store forgotten. Also the null test the call amounts to, when
    /// its only callee is a summarized one and nothing in the call can move the tested path.
    fn call(&mut self, e: &Expr, flow: Flow) -> (Flow, Option<(Path, bool)>) {
        let (name, receiver, args) = match &e.kind {
            ExprKind::Call { callee, args } => (CallName::Plain(&callee.name), None, args),
            ExprKind::MethodCall { receiver, method, args } => {
                (CallName::Method(&method.name), Some(&**receiver), args)
            }
            _ => return (self.eval(e, flow).0, None),
        };
        let (mut flow, this) = match receiver {
            Some(r) => {
                let (flow, v) = self.eval(r, flow);
                (deref(flow, &v), v.path)
            }
            None => (flow, Some(Path::var(THIS))),
        };
        let mut vals = Vec::new();
        for a in args {
            let (f, v) = self.eval(a, flow);
            flow = f;
            vals.push(v);
        }
        let Some(mut st) = flow else { return (None, None) };
        let caller_class = self.funcs[self.current].class;
        let targets = resolve(&self.funcs, caller_class, &name);
        for &t in &targets {
            let entry = self.entry_of(t, &st, this.as_ref(), &vals);
            self.enter(t, Some(entry));
        }
        let mut test = None;
        if let [t] = targets[..] {
            let stable = !args.iter().any(has_call) && !receiver.is_some_and(has_call);
            if let (Some(s), true) = (&self.summaries[t], stable) {
                let base = match s.param {
                    None if self.funcs[t].class.is_some() => this.clone(),
                    None => None,
                    Some(i) => vals.get(i).and_then(|v| v.path.clone()),
                };
                test = base
                    .and_then(|b| s.fields.iter().try_fold(b, |p, f| p.field(f)))
                    .map(|p| (p, s.true_when_null));
            }
        }
        if targets.is_empty() {
            kill_fields(&mut st, None);
        } else {
            let mut all = false;
            let mut fields = BTreeSet::new();
            for &t in &targets {
                all |= self.mods[t].all;
                fields.extend(self.mods[t].fields.iter().cloned());
            }
            kill_fields(&mut st, (!all).then_some(&fields));
        }
        (Some(st), test)
    }

    /// A callee's entry state from the caller's state at the call: its `this` (a method's
    /// receiver, never null once the call happens) and parameters with the facts under the
    /// paths they were passed.
    fn entry_of(&self, t: usize, st: &State, this: Option<&Path>, vals: &[Val]) -> State {
        let f = &self.funcs[t];
        let mut entry = State::new();
        if f.class.is_some() {
            // A plain call `f(…)` resolves to a method only inside the same class, and passes
            // the caller's own `this` (`this` is then the path `this`).
            if let Some(p) = this {
                entry.extend(rebased(st, p, THIS));
            }
            entry.insert(Path::var(THIS), false);
        }
        for (param, v) in f.decl.params.iter().zip(vals) {
            let name = &param.name.name;
            if let Some(p) = &v.path {
                entry.extend(rebased(st, p, name));
            }
            if let Some(n) = v.null {
                entry.insert(Path::var(name), n);
            }
        }
        entry
    }
}

/// After a dereference of `v` the path it read is not null; bottom when it is known null (the
/// dereference throws, so nothing after it runs).
fn deref(flow: Flow, v: &Val) -> Flow {
    if v.null == Some(true) {
        return None;
    }
    match &v.path {
        Some(p) => refine(flow, p, false),
        None => flow,
    }
}

/// The states where a value is null and where it is not.
fn split(flow: Flow, v: &Val) -> (Flow, Flow) {
    match (v.null, &v.path) {
        (Some(true), _) => (flow, None),
        (Some(false), _) => (None, flow),
        (None, Some(p)) => (refine(flow.clone(), p, true), refine(flow, p, false)),
        (None, None) => (flow.clone(), flow),
    }
}
