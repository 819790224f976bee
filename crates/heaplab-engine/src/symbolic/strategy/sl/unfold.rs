//! `sl`'s access rule (JSF): unfolding a deferred predicate instance in a child state, running
//! the remaining instances at path end when no model completes the input, and the resolution
//! children a formula decides before they exist.

use super::{data, data_mut, show_formula, show_instance, Sl, Unfolding};
use crate::symbolic::code::{Instr, OperandKind};
use crate::symbolic::config::Bound;
use crate::symbolic::events::{Event, ForkKind, ViewAt};
use crate::symbolic::exec::stack::{internal, local, peek};
use crate::symbolic::exec::{Cx, Succ};
use crate::symbolic::outcome::PathOutcome;
use crate::symbolic::state::{Frame, SValue, State};
use heaplab_syntax::ast::BinOp;

impl Sl {
    /// Unfolds deferred instance `i` (JSF's access rule): its body runs in a new frame in a
    /// child state (its disjuncts fork there); the interrupted instruction runs again after.
    pub(super) fn unfold(&self, cx: &mut Cx, mut st: State, i: usize) -> Succ {
        // The parent's view still shows the instance being unfolded.
        cx.sink.snapshot(&st, ViewAt::Fork);
        let d = data_mut(&mut st).deferred.remove(i);
        // The texts only where someone reads them: written at every unfolding, they were a
        // twentieth of an `sl` run.
        let detailed = cx.sink.detailed_at(st.id);
        let instance = match detailed || cx.sink.labels() {
            true => show_instance(&st, &d),
            false => String::new(),
        };
        if d.depth > cx.config.bounds.depth {
            return Succ::End(st, PathOutcome::Bounded { bound: Bound::Depth, span: None });
        }
        let code = cx.code;
        let Some(unit) = code.units.get(d.unit) else {
            return internal(st, "unknown predicate", None);
        };
        // JSF's `enum`: disjuncts the path rules out are pruned before they run.
        let params: Vec<String> = unit.params.iter().map(|(n, _)| n.clone()).collect();
        let verdicts = self.table.verdicts(&st, d.unit, &params, &d.args);
        let mut pruned = Vec::new();
        let allowed = verdicts.map(|(verdicts, asked)| {
            for _ in 0..asked {
                cx.solver.note_local();
            }
            for (j, v) in verdicts.iter().enumerate() {
                if let Err(why) = v {
                    pruned.push(match detailed {
                        true => format!("disjunct {} ({why})", j + 1),
                        false => String::new(),
                    });
                }
            }
            verdicts.iter().map(|v| v.is_ok()).collect::<Vec<bool>>()
        });
        cx.sink.stats().sl_pruned += pruned.len() as u64;
        cx.sink.pruned(&st, pruned.len() as u64);
        if allowed.as_ref().is_some_and(|a| !a.iter().any(|ok| *ok)) {
            // No disjunct can hold: the input formula is false on this path. The event (with no
            // child) still says why.
            cx.sink.event(Event::LazyInit {
                state: st.id,
                target: format!(
                    "unfold {instance} (depth {}; enum pruned {})",
                    d.depth,
                    pruned.join(", ")
                ),
                options: Vec::new(),
                children: Vec::new(),
                kind: ForkKind::Disjunct,
                k_cut: false,
            });
            return Succ::End(st, PathOutcome::Discarded { span: unit.span, precondition: true });
        }
        let mut locals: Vec<Option<SValue>> = d.args.iter().cloned().map(Some).collect();
        locals.resize(unit.slot_types.len().max(locals.len()), None);
        let frame_len = st.frames.len() + 1;
        let was_in_pre = st.in_pre;
        data_mut(&mut st).unfolding.push(Unfolding {
            frame_len,
            was_in_pre,
            depth: d.depth,
            allowed,
        });
        st.in_pre = true;
        st.frames.push(Frame { unit: d.unit, pc: 0, locals, stack: Vec::new(), loops: Vec::new() });
        let before = match detailed {
            true => format!("{instance} * {}", show_formula(&st)),
            false => String::new(),
        };
        let label = cx.label(|| format!("unfold {instance}"));
        let kids = cx.adopt(st.id, vec![(st.clone(), label)]);
        // The pruned disjuncts and why go in the target: options stay one per child.
        let pruned = match pruned.is_empty() {
            true => String::new(),
            false => format!("; enum pruned {}", pruned.join(", ")),
        };
        cx.sink.event(Event::LazyInit {
            state: st.id,
            target: format!(
                "unfold {instance} (depth {}; input formula: {before}{pruned})",
                d.depth
            ),
            options: vec![format!("disjuncts of {}", d.name)],
            children: kids.iter().map(|k| k.id).collect(),
            kind: ForkKind::Disjunct,
            k_cut: false,
        });
        Succ::Fork(kids)
    }

    /// At path end: unfolds the next remaining instance, or ends the path with the outcome it
    /// had when every instance is unfolded.
    pub(super) fn finish_next(&self, cx: &mut Cx, mut st: State) -> Succ {
        if data(&st).is_none_or(|d| d.deferred.is_empty()) {
            let outcome = data_mut(&mut st).finish.take().map(|b| *b);
            return match outcome {
                Some(o) => Succ::End(st, o),
                None => internal(st, "sl completion without an outcome", None),
            };
        }
        self.unfold(cx, st, 0)
    }
}

/// In a formula: would the instruction that asked for this resolution child discard it at once
/// (a points-to on `null` or on a cell the formula already claimed, an equality the formula
/// states that the child makes false, a field read of `null`)? JSF's `enum` takes such values
/// from the formula rather than enumerating them; dropping the children before they exist has
/// the same effect (counted in [`RunStats::sl_decided`], not as paths: they never were any).
///
/// [`RunStats::sl_decided`]: crate::symbolic::events::RunStats::sl_decided
pub(super) fn doomed(cx: &Cx, s: &State) -> bool {
    if !s.in_pre {
        return false;
    }
    let Some(f) = s.frames.last() else { return false };
    let Some(unit) = cx.code.units.get(f.unit) else { return false };
    let top = |d: usize| peek(s, d).map(|v| s.normalize(&v));
    let heap = cx.heap;
    match unit.code.get(f.pc) {
        Some(Instr::PointsTo { class, .. }) => match top(0) {
            Some(SValue::Null) => true,
            Some(SValue::Obj(o)) => {
                s.footprint.contains(&o) || s.heap.get(o).is_some_and(|ob| &ob.class != class)
            }
            _ => false,
        },
        // `a == b` (or `!=`) whose value the formula assumes right away.
        Some(Instr::Binary {
            op: op @ (BinOp::Eq | BinOp::Ne), kind: OperandKind::Ref, ..
        }) if matches!(unit.code.get(f.pc + 1), Some(Instr::Assume { .. })) => {
            let (Some(b), Some(a)) = (peek(s, 0), peek(s, 1)) else { return false };
            heap.decided_equal(s, &a, &b).is_some_and(|eq| eq != (*op == BinOp::Eq))
        }
        Some(Instr::BindOrAssumeEq { slot, kind: OperandKind::Ref, .. }) => {
            match (local(s, *slot), peek(s, 0)) {
                (Some(b), Some(t)) => heap.decided_equal(s, &b, &t) == Some(false),
                _ => false,
            }
        }
        Some(Instr::GetField { .. }) => top(0) == Some(SValue::Null),
        _ => false,
    }
}
