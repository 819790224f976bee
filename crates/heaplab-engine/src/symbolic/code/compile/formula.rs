//! Separation-logic formulas (`requires`, predicate bodies): a `Fork` per disjunction,
//! points-to atoms as claims, predicate calls as calls (deferred by `sl`).

use super::separate;
use super::*;
use heaplab_syntax::ast::SymbolicHeap;
use heaplab_syntax::pretty;

impl Cx<'_> {
    pub(super) fn formula(&mut self, f: &Formula) {
        self.within(f.span, |cx| cx.formula_code(f));
    }

    fn formula_code(&mut self, f: &Formula) {
        let was = self.in_formula;
        self.in_formula = true;
        // Only where arithmetic cannot fail (a predicate's body, a `requires`): a merged
        // disjunct evaluates the facts of every disjunct of its group.
        let groups = if self.out.merged_disjuncts && self.formula_unit {
            merge_groups(&f.disjuncts)
        } else {
            f.disjuncts.iter().map(|d| vec![d]).collect()
        };
        if groups.len() == 1 {
            if let Some(g) = groups.first() {
                self.group(g);
            }
        } else {
            let fork = self.emit(Instr::Fork(Vec::new()));
            let mut targets = Vec::new();
            let mut ends = Vec::new();
            for g in &groups {
                targets.push(self.here());
                self.group(g);
                ends.push(self.emit(Instr::Jump(usize::MAX)));
            }
            let end = self.here();
            for at in ends {
                self.patch(at, end);
            }
            self.code[fork] = Instr::Fork(targets);
        }
        self.in_formula = was;
    }

    /// One fork target: a written disjunct, or disjuncts merged by [`merge_groups`].
    fn group(&mut self, group: &[&SymbolicHeap]) {
        match group {
            [d] => self.disjunct(d),
            [first, ..] => self.within(first.span, |cx| cx.merged_code(group)),
            [] => {}
        }
    }

    /// Disjuncts with the same existentials and spatial atoms: the first one's atoms, pure
    /// facts that all of them state in place, then one assumption, the disjunction over the
    /// disjuncts of the conjunction of their other pure facts. Those facts are simple (see
    /// [`simple`]), so evaluating them all, without a branch, is their meaning.
    fn merged_code(&mut self, group: &[&SymbolicHeap]) {
        let Some(first) = group.first() else { return };
        let pure_keys: Vec<Vec<String>> = group.iter().map(|d| pure_facts(d)).collect();
        let common = |key: &String| pure_keys.iter().all(|keys| keys.contains(key));
        self.scopes.push(Vec::new());
        for p in &first.exists {
            self.declare(&p.name.name, SlotType::from_type_expr(&p.ty), true);
        }
        let plan = self.separation_plan(first);
        for (i, atom) in first.atoms.iter().enumerate() {
            match atom {
                Atom::Pure(e) if simple(e) && !common(&pretty::expr(e)) => {}
                _ => self.planned_atom(&plan, i, atom),
            }
        }
        let mut any = false;
        for d in group {
            let mut conj = false;
            for atom in &d.atoms {
                let Atom::Pure(e) = atom else { continue };
                if !simple(e) || common(&pretty::expr(e)) {
                    continue;
                }
                self.expr(e);
                if conj {
                    self.bool_op(BinOp::And, e);
                }
                conj = true;
            }
            if !conj {
                self.emit(Instr::Const(Const::Bool(true)));
            }
            if any {
                self.bool_op(BinOp::Or, first_expr(d));
            }
            any = true;
        }
        self.emit(Instr::Assume { span: first.span, precondition: true });
        self.scopes.pop();
    }

    fn bool_op(&mut self, op: BinOp, at: &Expr) {
        self.emit(Instr::Binary { op, kind: OperandKind::Bool, node: at.id, span: at.span });
    }

    pub(super) fn disjunct(&mut self, d: &heaplab_syntax::ast::SymbolicHeap) {
        self.within(d.span, |cx| cx.disjunct_code(d));
    }

    fn disjunct_code(&mut self, d: &heaplab_syntax::ast::SymbolicHeap) {
        self.scopes.push(Vec::new());
        for p in &d.exists {
            self.declare(&p.name.name, SlotType::from_type_expr(&p.ty), true);
        }
        let plan = self.separation_plan(d);
        for (i, atom) in d.atoms.iter().enumerate() {
            self.planned_atom(&plan, i, atom);
        }
        self.scopes.pop();
    }

    /// The checks of [`separate`] for disjunct `d`: only in the merged code that the lazy
    /// family and `symheap` run (`sl` claims by its own rules), and only where a formula is
    /// the whole unit (a predicate's body, a `requires`).
    fn separation_plan(&self, d: &SymbolicHeap) -> separate::Plan {
        if !(self.out.merged_disjuncts && self.formula_unit) {
            return separate::Plan::default();
        }
        separate::Plan::for_disjunct(d, &self.out.owned_params, self.info)
    }

    /// Atom `i` of a disjunct, after releasing the reservations of the existentials it alone
    /// claims, with the checks after its planned bindings.
    fn planned_atom(&mut self, plan: &separate::Plan, i: usize, atom: &Atom) {
        for (at, name) in &plan.releases {
            if *at == i {
                if let Some(slot) = self.lookup(name).map(|v| v.slot) {
                    self.emit(Instr::Release { slot });
                }
            }
        }
        self.separations = plan
            .binds
            .iter()
            .filter(|(at, ..)| *at == i)
            .map(|(_, field, _, reserve)| (*field, *reserve))
            .collect();
        self.atom(atom);
        self.separations.clear();
    }

    pub(super) fn atom(&mut self, atom: &Atom) {
        self.within(atom.span(), |cx| cx.atom_code(atom));
    }

    fn atom_code(&mut self, atom: &Atom) {
        match atom {
            Atom::Emp(_) => {}
            Atom::PointsTo { pointer, class, fields, span } => {
                self.expr(pointer);
                self.emit(Instr::PointsTo { class: class.name.clone(), span: *span });
                for (index, FieldInit { field, value }) in fields.iter().enumerate() {
                    if matches!(value.kind, ExprKind::Wildcard) {
                        continue;
                    }
                    let ty = self
                        .out
                        .field_type(&class.name, &field.name)
                        .cloned()
                        .unwrap_or(SlotType::Other);
                    let kind = match ty {
                        SlotType::Int => OperandKind::Int,
                        SlotType::Bool => OperandKind::Bool,
                        _ => OperandKind::Ref,
                    };
                    self.emit(Instr::Dup);
                    self.emit(Instr::GetField {
                        class: class.name.clone(),
                        field: field.name.clone(),
                        ty,
                        node: value.id,
                        span: field.span,
                    });
                    let existential = match &value.kind {
                        ExprKind::Var(id) => {
                            self.lookup(&id.name).filter(|v| v.existential).map(|v| v.slot)
                        }
                        _ => None,
                    };
                    match existential {
                        Some(slot) => {
                            self.emit(Instr::BindOrAssumeEq { slot, kind, span: value.span });
                            let planned = self.separations.iter().find(|(f, _)| *f == index);
                            if let Some(&(_, reserve)) = planned {
                                self.emit(Instr::Separate { slot, reserve, span: value.span });
                            }
                        }
                        None => {
                            self.expr(value);
                            self.emit(Instr::Binary {
                                op: BinOp::Eq,
                                kind,
                                node: value.id,
                                span: value.span,
                            });
                            self.emit(Instr::Assume { span: value.span, precondition: true });
                        }
                    }
                }
                self.emit(Instr::Pop);
            }
            Atom::Pred { name, args, span } => match self.info.atom_targets.get(span).cloned() {
                Some(CallTarget::Predicate(p)) => self.pred_call(&p, args, *span),
                Some(CallTarget::Function(f)) => match self.out.function(None, &f) {
                    Some(unit) => {
                        for a in args {
                            self.expr(a);
                        }
                        self.callees.insert(unit);
                        self.emit(Instr::Call {
                            unit,
                            nargs: args.len(),
                            receiver: false,
                            node: NodeId(u32::MAX),
                            span: *span,
                        });
                        self.emit(Instr::Assume { span: *span, precondition: true });
                    }
                    None => self.invalid(format!("unknown function `{f}`"), *span),
                },
                Some(CallTarget::Method { .. }) | None => {
                    if self.out.predicates.contains_key(&name.name) {
                        self.pred_call(&name.name, args, *span)
                    } else {
                        self.invalid(format!("unresolved predicate `{}`", name.name), *span)
                    }
                }
            },
            Atom::Pure(e) => {
                if let (ExprKind::Call { args, .. }, Some(CallTarget::Predicate(p))) =
                    (&e.kind, self.info.calls.get(&e.id).cloned())
                {
                    return self.pred_call(&p, args, e.span);
                }
                self.expr(e);
                self.emit(Instr::Assume { span: e.span, precondition: true });
            }
        }
    }

    pub(super) fn pred_call(&mut self, name: &str, args: &[Expr], span: Span) {
        match self.out.predicates.get(name).copied() {
            Some(unit) => {
                for a in args {
                    self.expr(a);
                }
                self.callees.insert(unit);
                self.emit(Instr::Call {
                    unit,
                    nargs: args.len(),
                    receiver: false,
                    node: NodeId(u32::MAX),
                    span,
                });
                self.emit(Instr::Pop);
            }
            None => self.invalid(format!("unknown predicate `{name}`"), span),
        }
    }
}

/// The written disjuncts in groups to compile as one fork target each, in their order: a
/// disjunct joins the first earlier group with its existentials and non-simple atoms (spatial
/// atoms, predicate calls, pure facts that read the heap or call), written the same and in the
/// same order.
fn merge_groups(disjuncts: &[SymbolicHeap]) -> Vec<Vec<&SymbolicHeap>> {
    let mut groups: Vec<(String, Vec<&SymbolicHeap>)> = Vec::new();
    for d in disjuncts {
        let key = skeleton(d);
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, g)) => g.push(d),
            None => groups.push((key, vec![d])),
        }
    }
    groups.into_iter().map(|(_, g)| g).collect()
}

/// A disjunct without its simple pure facts, printed.
fn skeleton(d: &SymbolicHeap) -> String {
    let atoms =
        d.atoms.iter().filter(|a| !matches!(a, Atom::Pure(e) if simple(e))).cloned().collect();
    pretty::heap(&SymbolicHeap { exists: d.exists.clone(), atoms, span: d.span })
}

/// A disjunct's simple pure facts, printed.
fn pure_facts(d: &SymbolicHeap) -> Vec<String> {
    d.atoms
        .iter()
        .filter_map(|a| match a {
            Atom::Pure(e) if simple(e) => Some(pretty::expr(e)),
            _ => None,
        })
        .collect()
}

fn pure_expr(a: &Atom) -> Option<&Expr> {
    match a {
        Atom::Pure(e) => Some(e),
        _ => None,
    }
}

/// Some expression of a merged disjunct, to place its `||` (a merged group has pure facts).
fn first_expr(d: &SymbolicHeap) -> &Expr {
    d.atoms.iter().find_map(pure_expr).expect("a merged disjunct states a pure fact")
}

/// A fact over variables and literals with arithmetic and comparisons only: no heap read, no
/// call, no `&&`/`||`/`?:` (which compile to branches), so it can be evaluated anywhere in its
/// disjunct after the existentials are bound, and at no risk (no null dereference).
fn simple(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Var(_) | ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::Null => true,
        ExprKind::Unary { operand, .. } => simple(operand),
        ExprKind::Binary { op, lhs, rhs } => {
            !matches!(
                op,
                BinOp::And | BinOp::Or | BinOp::Div | BinOp::Mod | BinOp::Shl | BinOp::Shr
            ) && simple(lhs)
                && simple(rhs)
        }
        _ => false,
    }
}
