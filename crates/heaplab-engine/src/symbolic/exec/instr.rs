//! One instruction of the stack bytecode ([`crate::symbolic::code::Instr`]) over one state:
//! [`Cx::exec`] dispatches, one method per instruction that needs more than a line. Heap
//! operations are the heap model's; this file never looks inside a reference.

use super::stack::{
    continue_all, in_range, internal, jump, local, move_values, next, peek, pop, pop_n, push_next,
    push_next_raw, set_local,
};
use super::{Cx, Succ, Then};
use crate::symbolic::code::{Instr, OperandKind, SlotType, Unit, UnitId};
use crate::symbolic::config::{Bound, MAX_NEW_ARRAY_LEN};
use crate::symbolic::disjuncts::DisjunctTexts;
use crate::symbolic::events::Event;
use crate::symbolic::outcome::PathOutcome;
use crate::symbolic::state::{Frame, LoopCount, SValue, State, VarOrigin};
use crate::symbolic::term::Sym;
use heaplab_syntax::ast::{BinOp, ErrorKind, NodeId, UnOp};
use heaplab_syntax::Span;

const OVERFLOW: &str = "the result leaves the int range";

impl Cx<'_> {
    /// Executes the instruction at `st`'s pc.
    pub fn exec(&mut self, mut st: State) -> Succ {
        st.steps += 1;
        if st.steps > self.config.bounds.steps_per_path {
            return Succ::End(st, PathOutcome::Bounded { bound: Bound::Steps, span: None });
        }
        let code = self.code;
        let heap = self.heap;
        let Some(frame) = st.frames.last() else {
            return internal(st, "no frame", None);
        };
        let Some(unit) = code.units.get(frame.unit) else {
            return internal(st, "unknown unit", None);
        };
        let pc = frame.pc;
        let Some(instr) = unit.code.get(pc) else {
            return internal(st, "ran off the end of the code", Some(unit.span));
        };
        match instr {
            // Loads, stores, constants, jumps: the explorer usually runs them in place
            // (`Explorer::step_in_place`); here for the states it hands over.
            i @ (Instr::Const(_)
            | Instr::Load(_)
            | Instr::Store(_)
            | Instr::Pop
            | Instr::Dup
            | Instr::Jump(_)) => match move_values(i, &mut st) {
                Ok(()) => Succ::Continue(st),
                Err(message) => internal(st, message, None),
            },
            Instr::LoadOrFresh(slot) => self.load_or_fresh(st, unit, *slot),
            Instr::BindOrAssumeEq { slot, kind, span } => {
                self.bind_or_assume(st, *slot, *kind, *span)
            }
            Instr::GetField { class: _, field, ty, node, span } => {
                heap.read_field(self, st, field, ty, *node, *span)
            }
            Instr::PutField { class: _, field, node, span } => {
                heap.write_field(self, st, field, *node, *span)
            }
            Instr::New { class, inits } => self.new_object(st, class, inits),
            Instr::ArrayLoad { node, span } => heap.array_access(self, st, false, *node, *span),
            Instr::ArrayStore { node, span } => heap.array_access(self, st, true, *node, *span),
            Instr::ArrayLength { node, span } => heap.array_length(self, st, *node, *span),
            Instr::NewArray { class, count, node, span } => {
                self.new_array(st, class, *count, *node, *span)
            }
            Instr::Unary { op, node, span } => self.unary(st, *op, *node, *span),
            Instr::Binary { op, kind, node, span } => self.binary(st, *op, *kind, *node, *span),
            Instr::BranchFalse { target, site } => self.branch_false(st, *target, *site),
            Instr::LoopBack { head, span, .. } => self.loop_back(st, *head, *span),
            Instr::Call { unit: callee, nargs, receiver, node, span } => {
                let strategy = self.strategy;
                match strategy.call(self, st, *callee, *nargs) {
                    Then::Done(succ) => succ,
                    Then::Go(st) => self.call(st, *callee, *nargs, *receiver, *node, *span),
                }
            }
            Instr::OrderKeys { span } => {
                let (Some(b), Some(a), Some(nk)) = (pop(&mut st), pop(&mut st), pop(&mut st))
                else {
                    return internal(st, "empty stack", None);
                };
                let SValue::Int(nk) = st.normalize(&nk) else {
                    return internal(st, "a comparator's nullKey is not an int", Some(*span));
                };
                st.bind_null_order_key(&nk);
                let ka = heap.order_key(self, &mut st, &a);
                let kb = heap.order_key(self, &mut st, &b);
                let (Some(ka), Some(kb)) = (ka, kb) else {
                    return internal(st, "compare of a value that is not an element", Some(*span));
                };
                if let Some(f) = st.frames.last_mut() {
                    f.stack.push(SValue::Int(ka));
                }
                push_next(st, SValue::Int(kb))
            }
            Instr::Ret => self.ret(st),
            Instr::Check { kind, node, span } => self.check(st, *kind, *node, *span),
            Instr::Assume { span, precondition } => {
                let Some(v) = pop(&mut st) else { return internal(st, "empty stack", None) };
                let SValue::Bool(c) = st.normalize(&v) else {
                    return internal(st, "assume of a non-boolean", Some(*span));
                };
                self.assume(st, c, *span, *precondition)
            }
            Instr::Throw { class, node, span } => self.throw(st, class, *node, *span),
            Instr::Fork(targets) => self.fork(st, pc, targets),
            Instr::PointsTo { class, span } => heap.points_to(self, st, class, *span),
            Instr::Separate { slot, reserve, span } => {
                if heap.separate(&mut st, *slot, *reserve) {
                    next(st)
                } else {
                    Succ::End(st, PathOutcome::Discarded { span: *span, precondition: true })
                }
            }
            Instr::Release { slot } => {
                heap.release(&mut st, *slot);
                next(st)
            }
            Instr::MissingReturn { span } => {
                internal(st, "a function ended without `return`", Some(*span))
            }
            Instr::Invalid { message, span } => internal(st, message.clone(), Some(*span)),
            Instr::PreDone => {
                st.in_pre = false;
                if !self.strategy.keeps_footprint() {
                    st.footprint = Default::default();
                }
                st.reserved = Default::default();
                next(st)
            }
            Instr::Halt => {
                let Some(v) = pop(&mut st) else { return internal(st, "empty stack", None) };
                let v = st.normalize(&v);
                st.returned = Some(v.clone());
                Succ::End(st, PathOutcome::Returned(v))
            }
        }
    }

    /// An existential of a formula: its value, or a fresh unknown one on first use.
    fn load_or_fresh(&mut self, mut st: State, unit: &Unit, slot: usize) -> Succ {
        if let Some(v) = local(&st, slot) {
            return push_next(st, v);
        }
        let ty = unit.slot_types.get(slot).cloned().unwrap_or(SlotType::Other);
        match &ty {
            SlotType::Class(c) => {
                // An existential used before anything bound it: an unknown reference with
                // budget 0 (null, an alias, or one more object).
                let target = format!("existential #{slot}");
                let heap = self.heap;
                heap.unknown_reference(self, st, c, 0, target, &|s, v| {
                    set_local(s, slot, v.clone());
                    push_next_raw(s, v);
                })
            }
            other => {
                let name = match unit.slot_names.get(slot) {
                    Some(n) if !n.is_empty() => n.clone(),
                    _ => format!("#{slot}"),
                };
                let v =
                    st.fresh_primitive(other, VarOrigin::Existential(name)).unwrap_or(SValue::Void);
                set_local(&mut st, slot, v.clone());
                push_next(st, v)
            }
        }
    }

    /// Binds an existential to the value on the stack, or assumes they are equal.
    fn bind_or_assume(
        &mut self,
        mut st: State,
        slot: usize,
        kind: OperandKind,
        span: Span,
    ) -> Succ {
        let Some(b) = local(&st, slot) else {
            let Some(v) = pop(&mut st) else {
                return internal(st, "empty stack", None);
            };
            set_local(&mut st, slot, v);
            return next(st);
        };
        let Some(top) = peek(&st, 0) else {
            return internal(st, "empty stack", None);
        };
        let cond = match kind {
            OperandKind::Ref => {
                let heap = self.heap;
                match heap.equal(self, st, &b, &top) {
                    Then::Go((s, x)) => {
                        st = s;
                        Sym::bool(x)
                    }
                    Then::Done(succ) => return succ,
                }
            }
            _ => match (st.normalize(&b), st.normalize(&top)) {
                (SValue::Int(x), SValue::Int(y)) | (SValue::Bool(x), SValue::Bool(y)) => {
                    Sym::eq(&x, &y)
                }
                _ => return internal(st, "ill-typed binding", Some(span)),
            },
        };
        pop(&mut st);
        self.assume(st, cond, span, true)
    }

    fn new_object(&mut self, mut st: State, class: &str, inits: &[String]) -> Succ {
        let Some(values) = pop_n(&mut st, inits.len()) else {
            return internal(st, "empty stack", None);
        };
        let Some(decl) = self.code.classes.get(class) else {
            return internal(st, format!("unknown class `{class}`"), None);
        };
        let fields = decl
            .iter()
            .map(|(f, t)| {
                let init = inits.iter().position(|i| i == f).and_then(|p| values.get(p).cloned());
                (f.clone(), init.unwrap_or_else(|| super::stack::default_value(t)))
            })
            .collect();
        let heap = self.heap;
        let v = heap.allocate(&mut st, class, fields);
        push_next(st, v)
    }

    /// `new T[n]` (ANEWARRAY-S: a negative length is `negative_array_size`) or `new T[]{…}`.
    fn new_array(
        &mut self,
        mut st: State,
        class: &str,
        count: Option<usize>,
        node: NodeId,
        span: Span,
    ) -> Succ {
        let heap = self.heap;
        let no_arrays = crate::symbolic::heap::NO_ARRAYS;
        if let Some(n) = count {
            let Some(values) = pop_n(&mut st, n) else {
                return internal(st, "empty stack", None);
            };
            st.new_array_cells = Sym::add(&st.new_array_cells, &Sym::int(n as i64));
            return match heap.allocate_array(&mut st, class, Sym::int(n as i64), Some(values)) {
                Some(v) => push_next(st, v),
                None => internal(st, no_arrays, Some(span)),
            };
        }
        let len = match pop(&mut st).map(|v| st.normalize(&v)) {
            Some(SValue::Int(len)) => len,
            _ => return internal(st, "array length is not an int", Some(span)),
        };
        let ok = Sym::le(&Sym::int(0), &len);
        let message =
            format!("allocating an array of length {}", crate::symbolic::show::show_sym(&st, &len));
        let live = self.guard(st, &ok, ErrorKind::NegativeArraySize, node, span, &message);
        // Arrays no replay could allocate (the interpreter's heap limit), this one alone or with
        // those the path allocated before, cut the path.
        let live: Vec<State> = live
            .into_iter()
            .flat_map(|mut s| {
                s.new_array_cells = Sym::add(&s.new_array_cells, &len);
                let fits = Sym::le(&s.new_array_cells, &Sym::int(MAX_NEW_ARRAY_LEN));
                self.bound_guard(s, &fits, Bound::ArrayLength, span)
            })
            .collect();
        let mut out = Vec::with_capacity(live.len());
        for mut s in live {
            match heap.allocate_array(&mut s, class, len.clone(), None) {
                Some(v) => {
                    push_next_raw(&mut s, v);
                    out.push(s);
                }
                None => return internal(s, no_arrays, Some(span)),
            }
        }
        continue_all(out, |_| {})
    }

    /// How `int` arithmetic of `st`'s current unit behaves. Formulas (a `requires`, a predicate
    /// body) are mathematical, as the logic reads them: under a wrapping semantics their
    /// arithmetic does not wrap (the inputs are already in range), under `checked` an overflow
    /// discards the path as before.
    fn arith(&self, st: &State) -> Arith {
        let in_formula =
            st.frames.last().and_then(|f| self.code.units.get(f.unit)).is_some_and(|u| {
                !matches!(u.kind, crate::symbolic::code::UnitKind::Function { .. })
            });
        match self.code.ints.wrap_bits() {
            _ if in_formula => Arith::Math,
            Some(bits) => Arith::Wrap(bits),
            None => Arith::Checked,
        }
    }

    fn unary(&mut self, mut st: State, op: UnOp, node: NodeId, span: Span) -> Succ {
        let Some(v) = pop(&mut st) else { return internal(st, "empty stack", None) };
        match (op, st.normalize(&v)) {
            (UnOp::Not, SValue::Bool(b)) => push_next(st, SValue::Bool(Sym::not(&b))),
            (UnOp::Neg, SValue::Int(x)) => {
                let r = Sym::neg(&x);
                match self.arith(&st) {
                    Arith::Wrap(bits) => return push_next(st, SValue::Int(wrap(&r, bits))),
                    Arith::Math => return push_next(st, SValue::Int(r)),
                    Arith::Checked => {}
                }
                let ok = in_range(&r);
                let live = self.guard(
                    st,
                    &ok,
                    ErrorKind::IntegerOverflow,
                    node,
                    span,
                    "negation overflows",
                );
                continue_all(live, |s| push_next_raw(s, SValue::Int(r.clone())))
            }
            _ => internal(st, "ill-typed unary operand", Some(span)),
        }
    }

    fn binary(
        &mut self,
        mut st: State,
        op: BinOp,
        kind: OperandKind,
        node: NodeId,
        span: Span,
    ) -> Succ {
        let (Some(b), Some(a)) = (peek(&st, 0), peek(&st, 1)) else {
            return internal(st, "empty stack", None);
        };
        if kind == OperandKind::Ref {
            let heap = self.heap;
            let (mut st, eq) = match heap.equal(self, st, &a, &b) {
                Then::Go(r) => r,
                Then::Done(succ) => return succ,
            };
            pop(&mut st);
            pop(&mut st);
            let r = if op == BinOp::Ne { !eq } else { eq };
            return push_next(st, SValue::Bool(Sym::bool(r)));
        }
        pop(&mut st);
        pop(&mut st);
        let (x, y) = match (st.normalize(&a), st.normalize(&b)) {
            (SValue::Int(x), SValue::Int(y)) | (SValue::Bool(x), SValue::Bool(y)) => (x, y),
            _ => return internal(st, "ill-typed operands", Some(span)),
        };
        let boolean = |s: Sym| SValue::Bool(s);
        match op {
            BinOp::Lt => push_next(st, boolean(Sym::lt(&x, &y))),
            BinOp::Le => push_next(st, boolean(Sym::le(&x, &y))),
            BinOp::Gt => push_next(st, boolean(Sym::lt(&y, &x))),
            BinOp::Ge => push_next(st, boolean(Sym::le(&y, &x))),
            BinOp::Eq => push_next(st, boolean(Sym::eq(&x, &y))),
            BinOp::Ne => push_next(st, boolean(Sym::not(&Sym::eq(&x, &y)))),
            BinOp::And => push_next(st, boolean(Sym::and(&x, &y))),
            BinOp::Or => push_next(st, boolean(Sym::or(&x, &y))),
            BinOp::Add | BinOp::Sub | BinOp::Mul => {
                let r = match op {
                    BinOp::Add => Sym::add(&x, &y),
                    BinOp::Sub => Sym::sub(&x, &y),
                    _ => Sym::mul(&x, &y),
                };
                match self.arith(&st) {
                    Arith::Wrap(bits) => return push_next(st, SValue::Int(wrap(&r, bits))),
                    Arith::Math => return push_next(st, SValue::Int(r)),
                    Arith::Checked => {}
                }
                let ok = in_range(&r);
                let dirs = self.feasible_directions(&st, &ok);
                if self.pending {
                    return self.retry(st, [a, b]);
                }
                let kind = ErrorKind::IntegerOverflow;
                let live = self.guard_decided(st, &ok, dirs, kind, node, span, OVERFLOW);
                continue_all(live, |s| push_next_raw(s, SValue::Int(r.clone())))
            }
            BinOp::Div | BinOp::Mod => self.divide(st, op == BinOp::Div, x, y, node, span),
            BinOp::Shl | BinOp::Shr => {
                // The checker keeps shift amounts to literals in 0..=62; Java masks the amount
                // of an `int` shift to 0..=31.
                let bits = self.code.ints.wrap_bits();
                let mask = |c: i64| if bits == Some(32) { c & 31 } else { c };
                let Some(p) = y.as_int().filter(|c| (0..=62).contains(c)).map(|c| 1i64 << mask(c))
                else {
                    return internal(st, "shift amount not a constant in 0..=62", Some(span));
                };
                if op == BinOp::Shr {
                    return push_next(st, SValue::Int(Sym::floor_div(&x, p)));
                }
                let r = Sym::mul(&x, &Sym::int(p));
                match self.arith(&st) {
                    Arith::Wrap(bits) => return push_next(st, SValue::Int(wrap(&r, bits))),
                    Arith::Math => return push_next(st, SValue::Int(r)),
                    Arith::Checked => {}
                }
                let ok = in_range(&r);
                let live = self.guard(st, &ok, ErrorKind::IntegerOverflow, node, span, OVERFLOW);
                continue_all(live, |s| push_next_raw(s, SValue::Int(r.clone())))
            }
        }
    }

    /// `x / y` or `x % y`: first the divisor, then overflow (`i64::MIN / -1`).
    fn divide(&mut self, st: State, div: bool, x: Sym, y: Sym, node: NodeId, span: Span) -> Succ {
        let nonzero = Sym::not(&Sym::eq(&y, &Sym::int(0)));
        let r = if div { Sym::div(&x, &y) } else { Sym::rem(&x, &y) };
        let no_overflow =
            Sym::not(&Sym::and(&Sym::eq(&x, &Sym::int(i64::MIN)), &Sym::eq(&y, &Sym::int(-1))));
        let mut live = Vec::new();
        let zero = ErrorKind::DivisionByZero;
        let arith = self.arith(&st);
        let wraps = match arith {
            Arith::Wrap(bits) => Some(bits),
            Arith::Math => Some(64),
            Arith::Checked => None,
        };
        // Java: `MIN / -1` wraps to `MIN`; a remainder never leaves the range. (In a formula
        // under a wrapping semantics, the quotient is mathematical.)
        let r = match arith {
            Arith::Wrap(bits) if div => wrap(&r, bits),
            _ => r,
        };
        for s in self.guard(st, &nonzero, zero, node, span, "division by zero") {
            if !div || wraps.is_some() {
                // i64::MIN % -1 is 0, in range (as in Java).
                live.push(s);
                continue;
            }
            live.extend(self.guard(
                s,
                &no_overflow,
                ErrorKind::IntegerOverflow,
                node,
                span,
                OVERFLOW,
            ));
        }
        continue_all(live, |s| push_next_raw(s, SValue::Int(r.clone())))
    }

    fn branch_false(&mut self, mut st: State, target: usize, site: Option<NodeId>) -> Succ {
        let Some(v) = pop(&mut st) else { return internal(st, "empty stack", None) };
        let SValue::Bool(c) = st.normalize(&v) else {
            return internal(st, "branch on a non-boolean", None);
        };
        let dirs = self.feasible_directions(&st, &c);
        if self.pending {
            return self.retry(st, [v]);
        }
        let go = move |s: &mut State, dir: bool| {
            if let Some(site) = site {
                s.branches.push((site, dir));
            }
            if let Some(f) = s.frame_mut() {
                f.pc = if dir { f.pc + 1 } else { target };
            }
        };
        self.branch(st, c, dirs, site, go)
    }

    /// A step that asked before changing anything but popping `popped` (in push order) and
    /// had no answer yet: the state goes back as it was, operands and the step `exec` counted
    /// included, to be stepped again once the answer is in ([`Asks::First`]); no successors,
    /// as the driver undoes the step.
    ///
    /// [`Asks::First`]: super::Asks::First
    fn retry<const N: usize>(&mut self, mut st: State, popped: [SValue; N]) -> Succ {
        if let Some(f) = st.frames.last_mut() {
            f.stack.extend(popped);
        }
        st.steps -= 1;
        self.retry = Some(st);
        Succ::Fork(Vec::new())
    }

    /// A loop's back edge: counts iterations that discovered nothing (the loop bound).
    fn loop_back(&mut self, mut st: State, head: usize, span: Span) -> Succ {
        let mats = st.materializations;
        let limit = self.config.bounds.loop_iterations;
        let Some(f) = st.frame_mut() else { return internal(st, "no frame", None) };
        let first = !f.loops.iter().any(|l| l.head == head);
        let entry = match f.loops.iter_mut().position(|l| l.head == head) {
            Some(i) => &mut f.loops[i],
            None => {
                f.loops.push(LoopCount { head, idle: 0, seen: mats });
                let last = f.loops.len() - 1;
                &mut f.loops[last]
            }
        };
        if entry.seen == mats {
            entry.idle += 1;
        }
        entry.seen = mats;
        let exceeded = entry.idle > limit;
        f.pc = head;
        let heap = self.heap;
        if heap.counts_loops() {
            // The heap model counts idle iterations itself (world by world).
            return heap.loop_back(self, st, head, first, span);
        }
        if exceeded {
            return Succ::End(st, PathOutcome::Bounded { bound: Bound::Loop, span: Some(span) });
        }
        Succ::Continue(st)
    }

    fn call(
        &mut self,
        mut st: State,
        callee: UnitId,
        nargs: usize,
        receiver: bool,
        node: NodeId,
        span: Span,
    ) -> Succ {
        let depth = st.frames.len() as u64;
        if depth > u64::from(self.config.bounds.call_depth) {
            return Succ::End(
                st,
                PathOutcome::Bounded { bound: Bound::CallDepth, span: Some(span) },
            );
        }
        if receiver {
            let Some(r) = peek(&st, nargs.saturating_sub(1)) else {
                return internal(st, "empty stack", None);
            };
            let heap = self.heap;
            match heap.null_test(self, st, &r) {
                Then::Go((s, true)) => {
                    return self.null_deref(s, node, span, "calling a method on null")
                }
                Then::Go((s, false)) => st = s,
                Then::Done(succ) => return succ,
            }
        }
        let Some(callee_unit) = self.code.units.get(callee) else {
            return internal(st, "unknown callee", Some(span));
        };
        let Some(args) = pop_n(&mut st, nargs) else {
            return internal(st, "empty stack", None);
        };
        let mut locals: Vec<Option<SValue>> = args.into_iter().map(Some).collect();
        locals.resize(callee_unit.slot_types.len().max(locals.len()), None);
        if let Some(f) = st.frame_mut() {
            f.pc += 1;
        }
        st.frames.push(Frame { unit: callee, pc: 0, locals, stack: Vec::new(), loops: Vec::new() });
        Succ::Continue(st)
    }

    /// `throw`: unwinds to the innermost handler of `class` whose range holds the frame's
    /// position (the throw itself in the top frame, the pending call in a caller's), clearing
    /// the operands of the frames it leaves; an uncaught exception ends the path.
    fn throw(&mut self, mut st: State, class: &str, node: NodeId, span: Span) -> Succ {
        let Some(exception) = pop(&mut st) else { return internal(st, "empty stack", None) };
        let top = st.frames.len();
        let code = self.code;
        let handler = st.frames.iter().enumerate().rev().find_map(|(depth, frame)| {
            let at = if depth + 1 == top { frame.pc } else { frame.pc.checked_sub(1)? };
            let unit = code.units.get(frame.unit)?;
            let h =
                unit.handlers.iter().find(|h| h.class == class && h.start <= at && at < h.end)?;
            Some((depth, h.slot, h.target))
        });
        let Some((depth, slot, target)) = handler else {
            let message = format!("`{class}` thrown");
            let outcome = PathOutcome::Error { kind: ErrorKind::Exception, node, span, message };
            return Succ::End(st, outcome);
        };
        st.frames.truncate(depth + 1);
        if let Some(f) = st.frame_mut() {
            f.stack.clear();
            f.pc = target;
        }
        set_local(&mut st, slot, exception);
        Succ::Continue(st)
    }

    fn ret(&mut self, mut st: State) -> Succ {
        let Some(v) = pop(&mut st) else { return internal(st, "empty stack", None) };
        let strategy = self.strategy;
        let mut st = match strategy.ret(self, st) {
            Then::Done(succ) => return succ,
            Then::Go(st) => st,
        };
        st.frames.pop();
        match st.frame_mut() {
            Some(f) => {
                f.stack.push(v);
                Succ::Continue(st)
            }
            None => internal(st, "return without caller", None),
        }
    }

    fn check(&mut self, mut st: State, kind: ErrorKind, node: NodeId, span: Span) -> Succ {
        let Some(v) = pop(&mut st) else { return internal(st, "empty stack", None) };
        let SValue::Bool(c) = st.normalize(&v) else {
            return internal(st, "check of a non-boolean", Some(span));
        };
        let message = match kind {
            ErrorKind::EnsuresFailed => "the `ensures` clause is false",
            _ => "the `assert` condition is false",
        };
        let live = self.guard(st, &c, kind, node, span, message);
        continue_all(live, |s| {
            if let Some(f) = s.frame_mut() {
                f.pc += 1;
            }
        })
    }

    /// The disjuncts of a formula, one child each (those the strategy allows).
    fn fork(&mut self, mut st: State, pc: usize, targets: &[usize]) -> Succ {
        let allowed = self.strategy.allowed_disjuncts(&mut st, pc, targets.len());
        let keep = |i: usize| allowed.as_ref().and_then(|a| a.get(i)).copied().unwrap_or(true);
        if allowed.as_ref().is_some_and(|a| a.iter().filter(|ok| **ok).count() == 1) {
            if let Some(t) = (0..targets.len()).find(|i| keep(*i)).map(|i| targets[i]) {
                return jump(st, t);
            }
        }
        let all = match self.sink.case_formulas_at(st.id) {
            true => match self.sink.disjunct_texts() {
                Some(kept) => kept.of(&st, self.code, targets.len()),
                None => DisjunctTexts::default().of(&st, self.code, targets.len()),
            },
            false => Vec::new(),
        };
        let formulas: Vec<String> = match all.len() == targets.len() {
            true => all.into_iter().enumerate().filter(|(i, _)| keep(*i)).map(|(_, f)| f).collect(),
            false => Vec::new(),
        };
        let mut kids = Vec::with_capacity(targets.len());
        for (i, t) in targets.iter().enumerate().filter(|(i, _)| keep(*i)) {
            let mut s = st.clone();
            if let Some(f) = s.frame_mut() {
                f.pc = *t;
            }
            kids.push((s, self.sink.disjunct_label(i)));
        }
        let parent = st.id;
        let kids = self.children_owned(st, kids);
        self.sink.event(Event::Disjuncts {
            state: parent,
            children: kids.iter().map(|k| k.id).collect(),
            formulas,
        });
        Succ::Fork(kids)
    }
}

/// `r` reduced to a `bits`-wide two's complement value (Java's `int` / `long` arithmetic),
/// with constants that fit an i64: `r + 2^(bits-1)` modulo `2^bits`, minus `2^(bits-1)`, where
/// modulo `2^64` is taken in two 32-bit halves.
/// See `Cx::arith`.
#[derive(Clone, Copy)]
enum Arith {
    Wrap(u32),
    Checked,
    Math,
}

pub(crate) fn wrap(r: &Sym, bits: u32) -> Sym {
    let half = Sym::int(1i64 << (bits - 2));
    // r + 2^(bits-1), written as two additions of 2^(bits-2) (2^63 is no i64).
    let shifted = Sym::add(&Sym::add(r, &half), &half);
    let low = Sym::floor_mod(&shifted, 1i64 << 32);
    let reduced = if bits == 32 {
        low
    } else {
        let high = Sym::floor_div(&shifted, 1i64 << 32);
        Sym::add(&low, &Sym::mul(&Sym::int(1i64 << 32), &Sym::floor_mod(&high, 1i64 << 32)))
    };
    Sym::sub(&Sym::sub(&reduced, &half), &half)
}

#[cfg(test)]
mod wrap_tests {
    use super::wrap;
    use crate::symbolic::term::{Sort, Sym};
    use heaplab_syntax::ast::Ints;

    /// The term `wrap` builds, evaluated exactly, agrees with the interpreter's two's-complement
    /// reduction (`Ints::wrap`) on products and sums of edge values, for both widths.
    #[test]
    fn wrapped_terms_evaluate_like_the_interpreter() {
        let edges: Vec<i64> = vec![
            0,
            1,
            -1,
            2,
            31,
            i64::from(i32::MAX),
            i64::from(i32::MIN),
            i64::from(i32::MAX) + 1,
            1 << 32,
            -(1 << 32) - 7,
            i64::MAX,
            i64::MIN,
            i64::MAX - 12345,
            i64::MIN + 99,
        ];
        let (x, y) = (Sym::var(0, Sort::Int), Sym::var(1, Sort::Int));
        for (ints, bits) in [(Ints::Java32, 32), (Ints::Java64, 64)] {
            let ops: [(&str, Sym); 3] = [
                ("+", wrap(&Sym::add(&x, &y), bits)),
                ("-", wrap(&Sym::sub(&x, &y), bits)),
                ("*", wrap(&Sym::mul(&x, &y), bits)),
            ];
            let (lo, hi) = ints.range();
            for &a in edges.iter().filter(|v| (lo..=hi).contains(*v)) {
                for &b in edges.iter().filter(|v| (lo..=hi).contains(*v)) {
                    let env = |id: u32, _: Sort| Some(if id == 0 { a } else { b });
                    for (op, term) in &ops {
                        let exact = match *op {
                            "+" => i128::from(a) + i128::from(b),
                            "-" => i128::from(a) - i128::from(b),
                            _ => i128::from(a) * i128::from(b),
                        };
                        assert_eq!(
                            term.eval(&env),
                            Some(ints.wrap(exact)),
                            "{} {a} {op} {b}",
                            ints.keyword()
                        );
                    }
                }
            }
        }
    }

    /// A counter wrapped at every step of a loop (`i++` forty times under `java32`) stays a
    /// query of linear size, one Euclidean `mod` per step, for Z3 and the Rust procedure.
    #[test]
    #[allow(clippy::unwrap_used)]
    fn wrapped_counters_stay_small() {
        let x = Sym::var(0, Sort::Int);
        let mut w = x.clone();
        for _ in 0..40 {
            w = wrap(&Sym::add(&w, &Sym::int(1)), 32);
        }
        let text = w.to_smtlib();
        assert!(text.len() < 40 * 120, "{} characters: {text}", text.len());
        assert_eq!(text.matches("(mod ").count(), 40, "{text}");
        let term = crate::symbolic::smt::to_term(&Sym::eq(&w, &x)).unwrap();
        let text = term.to_string();
        assert!(text.len() < 40 * 400, "{} characters: {text}", text.len());
    }
}
