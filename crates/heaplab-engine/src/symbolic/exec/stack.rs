//! Small operations on the top frame of a state (operand stack, locals, pc) shared by the
//! executor, the heap models and the strategies' hooks. They never fork and never ask anyone.

use super::Succ;
use crate::symbolic::code::{Const, Instr, SlotType};
use crate::symbolic::outcome::PathOutcome;
use crate::symbolic::state::{SValue, State};
use crate::symbolic::term::Sym;
use heaplab_syntax::Span;

/// Ends the path as an engine failure (a program the checker should have rejected).
pub fn internal(st: State, message: impl Into<String>, span: Option<Span>) -> Succ {
    Succ::End(st, PathOutcome::Internal { message: message.into(), span })
}

pub fn pop(st: &mut State) -> Option<SValue> {
    st.frames.last_mut()?.stack.pop()
}

/// The value `depth` places below the top of the stack.
pub fn peek(st: &State, depth: usize) -> Option<SValue> {
    let stack = &st.frames.last()?.stack;
    stack.len().checked_sub(depth + 1).and_then(|i| stack.get(i)).cloned()
}

/// Pops `n` values, in push order.
pub fn pop_n(st: &mut State, n: usize) -> Option<Vec<SValue>> {
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        out.push(pop(st)?);
    }
    out.reverse();
    Some(out)
}

pub fn set_local(st: &mut State, slot: usize, v: SValue) {
    if let Some(f) = st.frames.last_mut() {
        if f.locals.len() <= slot {
            f.locals.resize(slot + 1, None);
        }
        f.locals[slot] = Some(v);
    }
}

/// The value of a local, if assigned.
pub fn local(st: &State, slot: usize) -> Option<SValue> {
    st.frames.last().and_then(|f| f.locals.get(slot).cloned().flatten())
}

pub fn push_next_raw(st: &mut State, v: SValue) {
    if let Some(f) = st.frames.last_mut() {
        f.stack.push(v);
        f.pc += 1;
    }
}

pub fn push_next(mut st: State, v: SValue) -> Succ {
    push_next_raw(&mut st, v);
    Succ::Continue(st)
}

pub fn next(mut st: State) -> Succ {
    step_pc(&mut st);
    Succ::Continue(st)
}

pub fn jump(mut st: State, target: usize) -> Succ {
    if let Some(f) = st.frame_mut() {
        f.pc = target;
    }
    Succ::Continue(st)
}

/// Continues each live state after `f` (which pushes the result and advances).
pub fn continue_all(mut live: Vec<State>, f: impl Fn(&mut State)) -> Succ {
    for s in &mut live {
        f(s);
    }
    if live.len() == 1 {
        if let Some(s) = live.pop() {
            return Succ::Continue(s);
        }
    }
    Succ::Fork(live)
}

/// The value a field of a new object starts with.
pub fn default_value(t: &SlotType) -> SValue {
    match t {
        SlotType::Int => SValue::Int(Sym::int(0)),
        SlotType::Bool => SValue::Bool(Sym::bool(false)),
        _ => SValue::Null,
    }
}

/// `i64::MIN <= r <= i64::MAX` in mathematical integers.
pub fn in_range(r: &Sym) -> Sym {
    Sym::and(&Sym::le(&Sym::int(i64::MIN), r), &Sym::le(r, &Sym::int(i64::MAX)))
}

/// `st` with `c` (or `!c`) added to its path condition.
pub fn with_fact(mut st: State, c: &Sym, dir: bool) -> State {
    let fact = if dir { c.clone() } else { Sym::not(c) };
    if fact.as_bool() != Some(true) && !st.pc.contains(&fact) {
        st.pc.push(fact);
    }
    st
}

/// Runs one of the instructions that only move values ([`Instr::asks_nothing`]: constants,
/// loads, stores, pops, dups, jumps) on `st` where it lies. On an error (`Err` with the
/// internal error's message) `st` is unchanged.
pub fn move_values(instr: &Instr, st: &mut State) -> Result<(), &'static str> {
    // The top frame once: unsharing it (copy-on-write) is checked on every access.
    let Some(f) = st.frames.last_mut() else {
        return match instr {
            Instr::Load(_) => Err("read of an unassigned slot"),
            Instr::Dup => Err("empty stack"),
            _ => Ok(()),
        };
    };
    match instr {
        Instr::Const(c) => f.stack.push(constant(c)),
        Instr::Load(slot) => {
            let v = f.locals.get(*slot).cloned().flatten().ok_or("read of an unassigned slot")?;
            f.stack.push(v);
        }
        Instr::Store(slot) => {
            let v = f.stack.pop().ok_or("empty stack")?;
            if f.locals.len() <= *slot {
                f.locals.resize(*slot + 1, None);
            }
            f.locals[*slot] = Some(v);
        }
        Instr::Pop => {
            f.stack.pop();
        }
        Instr::Dup => {
            let v = f.stack.last().cloned().ok_or("empty stack")?;
            f.stack.push(v);
        }
        Instr::Jump(target) => {
            f.pc = *target;
            return Ok(());
        }
        _ => return Err("not an instruction that only moves values"),
    }
    f.pc += 1;
    Ok(())
}

fn step_pc(st: &mut State) {
    if let Some(f) = st.frames.last_mut() {
        f.pc += 1;
    }
}

fn constant(c: &Const) -> SValue {
    match c {
        Const::Int(n) => SValue::Int(Sym::int(*n)),
        Const::Bool(b) => SValue::Bool(Sym::bool(*b)),
        Const::Null => SValue::Null,
        Const::Void => SValue::Void,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::symbolic::exec::entry::empty_state;
    use crate::symbolic::state::{Frame, StateId};

    fn with_frame(locals: Vec<Option<SValue>>, stack: Vec<SValue>) -> State {
        let mut st = empty_state(StateId(0));
        st.frames.push(Frame { unit: 0, pc: 0, locals, stack, loops: Vec::new() });
        st
    }

    fn top(st: &State) -> &Frame {
        st.frames.last().expect("a frame")
    }

    /// Each instruction that only moves values moves them and advances the pc (a jump sets
    /// it); one that cannot run leaves the state as it was, for the executor to end the path
    /// with the message.
    #[test]
    fn move_values_moves_or_leaves_the_state_as_it_was() {
        let one = SValue::Int(Sym::int(1));
        let mut st = with_frame(vec![Some(one.clone()), None], Vec::new());
        assert_eq!(move_values(&Instr::Load(0), &mut st), Ok(()));
        assert_eq!((top(&st).pc, top(&st).stack.clone()), (1, vec![one.clone()]));
        assert_eq!(move_values(&Instr::Dup, &mut st), Ok(()));
        assert_eq!((top(&st).pc, top(&st).stack.len()), (2, 2));
        assert_eq!(move_values(&Instr::Store(3), &mut st), Ok(()));
        assert_eq!((top(&st).pc, top(&st).locals.len()), (3, 4));
        assert_eq!(top(&st).locals[3], Some(one.clone()));
        assert_eq!(move_values(&Instr::Pop, &mut st), Ok(()));
        assert_eq!((top(&st).pc, top(&st).stack.len()), (4, 0));
        assert_eq!(move_values(&Instr::Const(Const::Bool(true)), &mut st), Ok(()));
        assert_eq!(top(&st).stack, vec![SValue::Bool(Sym::bool(true))]);
        assert_eq!(move_values(&Instr::Jump(9), &mut st), Ok(()));
        assert_eq!(top(&st).pc, 9);

        let before = st.frames.clone();
        assert_eq!(move_values(&Instr::Load(1), &mut st), Err("read of an unassigned slot"));
        assert_eq!(st.frames, before);
        let mut empty = with_frame(Vec::new(), Vec::new());
        let before = empty.frames.clone();
        assert_eq!(move_values(&Instr::Dup, &mut empty), Err("empty stack"));
        assert_eq!(move_values(&Instr::Store(0), &mut empty), Err("empty stack"));
        assert!(move_values(&Instr::LoadOrFresh(0), &mut empty).is_err());
        assert_eq!(empty.frames, before);
    }
}
