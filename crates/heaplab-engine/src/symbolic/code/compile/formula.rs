//! Separation-logic formulas (`requires`, predicate bodies): a `Fork` per disjunction,
//! points-to atoms as claims, predicate calls as calls (deferred by `sl`).

use super::*;

impl Cx<'_> {
    pub(super) fn formula(&mut self, f: &Formula) {
        self.within(f.span, |cx| cx.formula_code(f));
    }

    fn formula_code(&mut self, f: &Formula) {
        let was = self.in_formula;
        self.in_formula = true;
        if f.disjuncts.len() == 1 {
            if let Some(d) = f.disjuncts.first() {
                self.disjunct(d);
            }
        } else {
            let fork = self.emit(Instr::Fork(Vec::new()));
            let mut targets = Vec::new();
            let mut ends = Vec::new();
            for d in &f.disjuncts {
                targets.push(self.here());
                self.disjunct(d);
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

    pub(super) fn disjunct(&mut self, d: &heaplab_syntax::ast::SymbolicHeap) {
        self.within(d.span, |cx| cx.disjunct_code(d));
    }

    fn disjunct_code(&mut self, d: &heaplab_syntax::ast::SymbolicHeap) {
        self.scopes.push(Vec::new());
        for p in &d.exists {
            self.declare(&p.name.name, SlotType::from_type_expr(&p.ty), true);
        }
        for atom in &d.atoms {
            self.atom(atom);
        }
        self.scopes.pop();
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
                for FieldInit { field, value } in fields {
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
