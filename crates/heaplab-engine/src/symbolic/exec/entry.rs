//! The entry of a run: a small unit that calls the method under test on its input roots
//! (`[requires(roots); PreDone;] call(roots); Halt`), and the first states — one per
//! combination of values the heap model gives the reference roots.

use super::Cx;
use crate::symbolic::code::{Compiled, Instr, SlotType, UnitId, UnitKind};
use crate::symbolic::config::{Config, PreMode};
use crate::symbolic::events::{Event, ForkKind, ViewAt};
use crate::symbolic::state::{
    Frame, Frames, Objects, PathState, SValue, State, StateId, VarOrigin,
};
use crate::symbolic::view::DRIVER;
use heaplab_syntax::ast::NodeId;

/// A state with nothing in it yet.
pub fn empty_state(id: StateId) -> State {
    Box::new(PathState {
        id,
        parent: None,
        frames: Frames::default(),
        heap: Objects::default(),
        symlocs: Vec::new(),
        symrefs: Vec::new(),
        pc: Default::default(),
        vars: Default::default(),
        footprint: Default::default(),
        reserved: Default::default(),
        in_pre: false,
        materializations: 0,
        k_cut: false,
        steps: 0,
        roots: Vec::new(),
        branches: Default::default(),
        returned: None,
        int_range: (i64::MIN, i64::MAX),
        array_bound: 0,
        ext: Default::default(),
        order: Default::default(),
        new_array_cells: crate::symbolic::Sym::int(0),
        shard: Default::default(),
    })
}

/// `code` plus the entry unit of `method`; returns the program, the entry unit, and whether the
/// run starts inside the precondition. `None` when `method` is not a unit.
pub fn add_entry_unit(
    code: &Compiled,
    method: UnitId,
    config: &Config,
) -> Option<(Compiled, UnitId, bool)> {
    let unit = code.units.get(method)?;
    let is_method = matches!(unit.kind, UnitKind::Function { class: Some(_), .. });
    let n = unit.params.len();
    let mut entry = Vec::new();
    let mut in_pre = false;
    if let (PreMode::Assume, Some(&req)) = (config.pre, code.requires.get(&method)) {
        entry.extend((0..n).map(Instr::Load));
        entry.push(Instr::Call {
            unit: req,
            nargs: n,
            receiver: false,
            node: NodeId(u32::MAX),
            span: unit.span,
        });
        entry.push(Instr::Pop);
        in_pre = true;
    }
    entry.push(Instr::PreDone);
    entry.extend((0..n).map(Instr::Load));
    entry.push(Instr::Call {
        unit: method,
        nargs: n,
        receiver: is_method,
        node: NodeId(u32::MAX),
        span: unit.span,
    });
    entry.push(Instr::Halt);
    let mut compiled = code.clone();
    let entry_id = compiled.units.len();
    let mut entry_unit = unit.clone();
    entry_unit.kind = UnitKind::Function { class: None, name: DRIVER.into() };
    // The driver's instructions are the method's call: its declaration.
    entry_unit.spans = vec![unit.span; entry.len()];
    entry_unit.code = entry;
    entry_unit.handlers = Vec::new();
    entry_unit.ensures_at = None;
    entry_unit.slot_types = unit.params.iter().map(|(_, t)| t.clone()).collect();
    entry_unit.slot_names = unit.params.iter().map(|(n, _)| n.clone()).collect();
    entry_unit.branch_sites = Vec::new();
    compiled.units.push(entry_unit);
    Some((compiled, entry_id, in_pre))
}

impl Cx<'_> {
    /// The first states of a run from the root `st`: `this` is a fresh input object with budget
    /// k (the receiver wrapper); every other reference parameter gets the values the heap model
    /// gives an input root (a fork per parameter with several); primitives are fresh variables.
    /// Each state starts in the entry unit `entry`.
    pub fn entry_states(&mut self, st: State, entry: UnitId) -> Vec<State> {
        let Some(unit) = self.code.units.get(self.method) else { return Vec::new() };
        let k = i64::from(self.config.bounds.k);
        let is_method = matches!(unit.kind, UnitKind::Function { class: Some(_), .. });
        let heap = self.heap;
        let mut states = vec![st];
        for (i, (name, ty)) in unit.params.iter().enumerate() {
            let mut next = Vec::new();
            for mut s in states {
                match ty {
                    SlotType::Class(c) if i == 0 && is_method => {
                        let v = heap.input_receiver(self, &mut s, c, k);
                        s.roots.push(v);
                        next.push(s);
                    }
                    SlotType::Class(c) => next.extend(self.root_fork(s, name, c, k)),
                    other => {
                        let v = s
                            .fresh_primitive(other, VarOrigin::Param(name.clone()))
                            .unwrap_or(SValue::Void);
                        s.roots.push(v);
                        next.push(s);
                    }
                }
            }
            states = next;
        }
        for s in &mut states {
            s.frames.push(Frame {
                unit: entry,
                pc: 0,
                locals: s.roots.iter().cloned().map(Some).collect(),
                stack: Vec::new(),
                loops: Vec::new(),
            });
        }
        states
    }

    /// The states for the values of reference parameter `name`, with their event.
    fn root_fork(&mut self, s: State, name: &str, class: &str, k: i64) -> Vec<State> {
        let heap = self.heap;
        let (options, k_cut) = heap.input_root(self, &s, class, k);
        let mut labels = Vec::new();
        let mut children = Vec::new();
        for (mut child, v, label) in options {
            child.roots.push(v);
            labels.push(label);
            children.push(child);
        }
        if children.len() > 1 {
            self.sink.keep_view(&s, ViewAt::Fork);
            let parent = s.id;
            let mut ids = Vec::new();
            for (child, label) in children.iter_mut().zip(&labels) {
                child.parent = Some(parent);
                child.id = self.sink.node(Some(parent), format!("{name} = {label}").into());
                ids.push(child.id);
            }
            self.sink.event(Event::LazyInit {
                state: parent,
                target: format!("param {name}"),
                options: labels,
                children: ids,
                kind: ForkKind::LazyInit,
                k_cut,
            });
        }
        children
    }
}
