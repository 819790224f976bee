//! The compiler from the checked AST to [`Unit`]s: one unit per function, predicate and
//! `requires`; statements here, expressions in [`expr`], formulas in [`formula`].

mod expr;
mod formula;
mod separate;

use super::bytecode::*;
use crate::symbolic::StrategyKind;
use heaplab_syntax::ast::{
    Atom, BinOp, Block, Catch, ErrorKind, Expr, ExprKind, FieldInit, Formula, FunctionDecl, Item,
    NodeId, Program, Stmt, StmtKind,
};
use heaplab_syntax::types::{CallTarget, ProgramInfo, Type};
use heaplab_syntax::Span;
use std::collections::{BTreeSet, HashMap};

/// Compiles every class, function and predicate of a checked program, one fork target per
/// written disjunct of each formula.
pub fn compile(program: &Program, info: &ProgramInfo) -> Compiled {
    compile_with(program, info, false, heaplab_logic::Defs::from_program(program).0)
}

/// Like [`compile`], but disjuncts of a formula that share their existentials and spatial
/// atoms and differ only in simple pure facts are one fork target whose pure part is the
/// disjunction of theirs. Materializing a `requires` (the lazy family, `symheap`) then forks
/// once per shape, not once per shape and pure case: AVL's `avl` has three recursive disjuncts
/// that differ only in the balance of the heights, so every node tripled the paths (lazy at
/// k = 3 on `AvlTree.insert`: over 16.8 M states, 0.8 M merged). Not for `sl`, whose `enum`
/// rule names the written disjuncts.
pub fn compile_merging(program: &Program, info: &ProgramInfo) -> Compiled {
    compile_with(program, info, true, heaplab_logic::Defs::from_program(program).0)
}

/// The code `strategy` explores ([`compile`] for `sl`, whose `enum` rule allows or drops the
/// written disjuncts of a predicate by index; [`compile_merging`] for the others), with the
/// program's logic `defs` already converted: converting them computes the predicates'
/// invariants, a tenth of a short run in wasm, and a host that checked the program has them.
pub fn compile_for(
    strategy: StrategyKind,
    program: &Program,
    info: &ProgramInfo,
    defs: heaplab_logic::Defs,
) -> Compiled {
    compile_with(program, info, strategy != StrategyKind::Sl, defs)
}

fn compile_with(
    program: &Program,
    info: &ProgramInfo,
    merged_disjuncts: bool,
    defs: heaplab_logic::Defs,
) -> Compiled {
    let mut out = Compiled {
        merged_disjuncts,
        defs,
        ints: program.ints,
        builtin_comparator: program.items.iter().any(
            |i| matches!(i, Item::Class(c) if heaplab_syntax::builtin::is_builtin_comparator(c)),
        ),
        ..Compiled::default()
    };
    out.owned_params = separate::owned_params(program, info);
    // Pass 1: number every unit so calls can refer to units compiled later.
    let mut fn_decls: Vec<(Option<String>, &FunctionDecl)> = Vec::new();
    let mut pred_decls = Vec::new();
    for item in &program.items {
        match item {
            Item::Class(class) => {
                let fields = class
                    .fields
                    .iter()
                    .map(|f| (f.name.name.clone(), SlotType::from_type_expr(&f.ty)))
                    .collect();
                out.classes.entry(class.name.name.clone()).or_insert(fields);
                for m in &class.methods {
                    fn_decls.push((Some(class.name.name.clone()), m));
                }
            }
            Item::Function(f) => fn_decls.push((None, f)),
            Item::Predicate(p) => pred_decls.push(p),
            Item::Test(_) => {}
        }
    }
    let placeholder = |kind: UnitKind, span: Span| Unit {
        kind,
        params: Vec::new(),
        slot_types: Vec::new(),
        slot_names: Vec::new(),
        code: Vec::new(),
        spans: Vec::new(),
        returns: SlotType::Other,
        span,
        branch_sites: Vec::new(),
        callees: BTreeSet::new(),
        handlers: Vec::new(),
        ensures_at: None,
    };
    for (class, f) in &fn_decls {
        let id = out.units.len();
        out.units.push(placeholder(
            UnitKind::Function { class: class.clone(), name: f.name.name.clone() },
            f.span,
        ));
        out.functions.entry((class.clone(), f.name.name.clone())).or_insert(id);
        if !f.requires.is_empty() {
            let rid = out.units.len();
            out.units.push(placeholder(
                UnitKind::Requires { class: class.clone(), name: f.name.name.clone() },
                f.span,
            ));
            out.requires.insert(id, rid);
        }
    }
    for p in &pred_decls {
        let id = out.units.len();
        out.units.push(placeholder(UnitKind::Predicate { name: p.name.name.clone() }, p.span));
        out.predicates.entry(p.name.name.clone()).or_insert(id);
    }
    // Pass 2: bodies.
    let mut next = 0usize;
    for (class, f) in &fn_decls {
        let id = next;
        next += 1;
        let unit = compile_function(&out, info, class.as_deref(), f);
        out.units[id] = Unit { span: f.span, ..unit };
        if !f.requires.is_empty() {
            let rid = next;
            next += 1;
            out.units[rid] = compile_requires(&out, info, class.as_deref(), f);
        }
    }
    for p in &pred_decls {
        let id = next;
        next += 1;
        let mut cx = Cx::new(&out, info);
        cx.at = p.span;
        cx.formula_unit = true;
        for param in &p.params {
            cx.declare(&param.name.name, SlotType::from_type_expr(&param.ty), false);
        }
        let params = p
            .params
            .iter()
            .map(|q| (q.name.name.clone(), SlotType::from_type_expr(&q.ty)))
            .collect();
        cx.formula(&p.body);
        cx.emit(Instr::Const(Const::Void));
        cx.emit(Instr::Ret);
        out.units[id] = cx.finish(
            UnitKind::Predicate { name: p.name.name.clone() },
            params,
            SlotType::Other,
            p.span,
        );
    }
    out
}

fn function_params(class: Option<&str>, f: &FunctionDecl) -> Vec<(String, SlotType)> {
    let mut params = Vec::new();
    if let Some(c) = class {
        params.push(("this".to_string(), SlotType::Class(c.to_string())));
    }
    for p in &f.params {
        params.push((p.name.name.clone(), SlotType::from_type_expr(&p.ty)));
    }
    params
}

/// A compile context for the body or `requires` of `f`, with its parameters (`this` first for
/// methods) declared in slots `0..params.len()`; returns the parameters too.
fn function_cx<'c>(
    out: &'c Compiled,
    info: &'c ProgramInfo,
    class: Option<&str>,
    f: &FunctionDecl,
) -> (Cx<'c>, Vec<(String, SlotType)>) {
    let mut cx = Cx::new(out, info);
    cx.at = f.span;
    cx.class = class.map(str::to_string);
    let params = function_params(class, f);
    for (name, ty) in &params {
        cx.declare(name, ty.clone(), false);
    }
    (cx, params)
}

fn compile_function(
    out: &Compiled,
    info: &ProgramInfo,
    class: Option<&str>,
    f: &FunctionDecl,
) -> Unit {
    let (mut cx, params) = function_cx(out, info, class, f);
    // The built-in `compare` is not the user's code: its branches are no coverage sites (the
    // lazy family never runs it; the interpreter does).
    cx.no_sites = out.builtin_comparator
        && class == Some(heaplab_syntax::builtin::COMPARATOR)
        && f.name.name == heaplab_syntax::builtin::COMPARE;
    let returns = SlotType::from_type_expr(&f.return_type);
    // Prologue: every `old(e)` of the ensures clauses, evaluated at entry.
    if !f.ensures.is_empty() {
        let mut olds = Vec::new();
        for e in &f.ensures {
            collect_olds(e, &mut olds);
        }
        for e in olds {
            let ty = info.type_of(e.id).map(SlotType::from_type).unwrap_or(SlotType::Other);
            let slot = cx.hidden(ty);
            if let ExprKind::Old(inner) = &e.kind {
                cx.expr(inner);
            }
            cx.emit(Instr::Store(slot));
            cx.olds.insert(e.id, slot);
        }
        cx.result_slot = Some(cx.hidden(returns.clone()));
    }
    let epilogue_jumps_start = cx.return_jumps.len();
    cx.block(&f.body);
    // Falling off the end happens at the closing brace.
    let end = f.body.span.end;
    cx.at = Span { start: end.saturating_sub(1), end };
    if returns == SlotType::Other {
        // A void function may fall off its end.
        cx.emit(Instr::Const(Const::Void));
        if let Some(slot) = cx.result_slot {
            cx.emit(Instr::Store(slot));
            let at = cx.code.len();
            cx.emit(Instr::Jump(usize::MAX));
            cx.return_jumps.push(at);
        } else {
            cx.emit(Instr::Ret);
        }
    } else {
        cx.emit(Instr::MissingReturn { span: f.span });
    }
    if let Some(slot) = cx.result_slot {
        let epilogue = cx.code.len();
        cx.ensures_at = Some(epilogue);
        for at in cx.return_jumps.split_off(epilogue_jumps_start) {
            cx.code[at] = Instr::Jump(epilogue);
        }
        for e in &f.ensures {
            cx.expr(e);
            cx.emit(Instr::Check { kind: ErrorKind::EnsuresFailed, node: e.id, span: e.span });
        }
        cx.emit(Instr::Load(slot));
        cx.emit(Instr::Ret);
    }
    cx.finish(
        UnitKind::Function { class: class.map(str::to_string), name: f.name.name.clone() },
        params,
        returns,
        f.span,
    )
}

fn compile_requires(
    out: &Compiled,
    info: &ProgramInfo,
    class: Option<&str>,
    f: &FunctionDecl,
) -> Unit {
    let (mut cx, params) = function_cx(out, info, class, f);
    cx.formula_unit = true;
    for formula in &f.requires {
        cx.formula(formula);
    }
    cx.emit(Instr::Const(Const::Void));
    cx.emit(Instr::Ret);
    let span = f.requires.first().map(|r| r.span).unwrap_or(f.span);
    cx.finish(
        UnitKind::Requires { class: class.map(str::to_string), name: f.name.name.clone() },
        params,
        SlotType::Other,
        span,
    )
}

/// Pre-order walk collecting `old(e)` nodes (outer before inner).
fn collect_olds<'e>(root: &'e Expr, out: &mut Vec<&'e Expr>) {
    let mut stack = vec![root];
    while let Some(e) = stack.pop() {
        match &e.kind {
            ExprKind::Old(inner) => {
                out.push(e);
                stack.push(inner);
            }
            ExprKind::Field { object, .. } => stack.push(object),
            ExprKind::Unary { operand, .. } => stack.push(operand),
            ExprKind::Binary { lhs, rhs, .. } => {
                stack.push(rhs);
                stack.push(lhs);
            }
            ExprKind::Cond { cond, then_expr, else_expr } => {
                stack.push(else_expr);
                stack.push(then_expr);
                stack.push(cond);
            }
            ExprKind::Call { args, .. } => stack.extend(args.iter().rev()),
            ExprKind::MethodCall { receiver, args, .. } => {
                stack.extend(args.iter().rev());
                stack.push(receiver);
            }
            ExprKind::New { fields, .. } => stack.extend(fields.iter().rev().map(|f| &f.value)),
            _ => {}
        }
    }
}

struct Var {
    slot: Slot,
    /// An existential of a formula (may be unbound when first used).
    existential: bool,
}

/// The compiler's state for one unit.
struct Cx<'a> {
    out: &'a Compiled,
    info: &'a ProgramInfo,
    class: Option<String>,
    code: Vec<Instr>,
    /// Beside `code`: the span of `at` when each instruction was emitted.
    spans: Vec<Span>,
    /// The innermost statement, expression or atom being compiled.
    at: Span,
    slot_types: Vec<SlotType>,
    slot_names: Vec<String>,
    scopes: Vec<Vec<(String, Var)>>,
    /// `Jump` instructions to patch with the loop exit (`break`), per enclosing loop.
    breaks: Vec<Vec<usize>>,
    /// The `LoopBack` position of each enclosing loop, for `continue` (patched later).
    continues: Vec<Vec<usize>>,
    olds: HashMap<NodeId, Slot>,
    result_slot: Option<Slot>,
    /// See [`Unit::ensures_at`].
    ensures_at: Option<usize>,
    return_jumps: Vec<usize>,
    branch_sites: Vec<NodeId>,
    callees: BTreeSet<UnitId>,
    /// The `catch` clauses compiled so far (an inner `try` finishes first).
    handlers: Vec<Handler>,
    in_formula: bool,
    /// The points-to being compiled: the fields (by index) whose existential gets an
    /// [`Instr::Separate`] after its binding, and whether it reserves (see [`separate`]).
    separations: Vec<(usize, bool)>,
    /// Branches made here are no coverage sites (the built-in `compare`'s body).
    no_sites: bool,
    /// A predicate's body or a `requires`, whose arithmetic is mathematical (never fails).
    formula_unit: bool,
}

impl<'a> Cx<'a> {
    fn new(out: &'a Compiled, info: &'a ProgramInfo) -> Cx<'a> {
        Cx {
            out,
            info,
            class: None,
            code: Vec::new(),
            spans: Vec::new(),
            at: Span::default(),
            slot_types: Vec::new(),
            slot_names: Vec::new(),
            scopes: vec![Vec::new()],
            breaks: Vec::new(),
            continues: Vec::new(),
            olds: HashMap::new(),
            result_slot: None,
            ensures_at: None,
            return_jumps: Vec::new(),
            branch_sites: Vec::new(),
            callees: BTreeSet::new(),
            handlers: Vec::new(),
            in_formula: false,
            formula_unit: false,
            separations: Vec::new(),
            no_sites: false,
        }
    }

    fn finish(
        self,
        kind: UnitKind,
        params: Vec<(String, SlotType)>,
        returns: SlotType,
        span: Span,
    ) -> Unit {
        Unit {
            kind,
            params,
            slot_types: self.slot_types,
            slot_names: self.slot_names,
            code: self.code,
            spans: self.spans,
            returns,
            span,
            branch_sites: self.branch_sites,
            callees: self.callees,
            handlers: self.handlers,
            ensures_at: self.ensures_at,
        }
    }

    fn emit(&mut self, i: Instr) -> usize {
        self.code.push(i);
        self.spans.push(self.at);
        self.code.len() - 1
    }

    /// Runs `compile` with `span` as the source of the instructions it emits.
    fn within(&mut self, span: Span, compile: impl FnOnce(&mut Self)) {
        let outer = std::mem::replace(&mut self.at, span);
        compile(self);
        self.at = outer;
    }

    fn here(&self) -> usize {
        self.code.len()
    }

    fn patch(&mut self, at: usize, target: usize) {
        match self.code.get_mut(at) {
            Some(Instr::Jump(t)) | Some(Instr::BranchFalse { target: t, .. }) => *t = target,
            _ => debug_assert!(false, "patching a non-jump"),
        }
    }

    fn hidden(&mut self, ty: SlotType) -> Slot {
        self.slot_types.push(ty);
        self.slot_names.push(String::new());
        self.slot_types.len() - 1
    }

    fn declare(&mut self, name: &str, ty: SlotType, existential: bool) -> Slot {
        let slot = self.hidden(ty);
        if let Some(n) = self.slot_names.get_mut(slot) {
            *n = name.to_string();
        }
        if let Some(scope) = self.scopes.last_mut() {
            scope.push((name.to_string(), Var { slot, existential }));
        }
        slot
    }

    fn lookup(&self, name: &str) -> Option<&Var> {
        self.scopes
            .iter()
            .rev()
            .find_map(|s| s.iter().rev().find(|(n, _)| n == name).map(|(_, v)| v))
    }

    fn invalid(&mut self, message: impl Into<String>, span: Span) {
        self.emit(Instr::Invalid { message: message.into(), span });
    }

    fn kind_of(&self, e: &Expr) -> OperandKind {
        match self.info.type_of(e.id) {
            Some(Type::Int) => OperandKind::Int,
            Some(Type::Bool) => OperandKind::Bool,
            _ => OperandKind::Ref,
        }
    }

    fn class_of(&self, e: &Expr) -> Option<String> {
        match self.info.type_of(e.id) {
            Some(Type::Class(c)) => Some(c.clone()),
            _ => match &e.kind {
                ExprKind::This => self.class.clone(),
                _ => None,
            },
        }
    }

    // ----- statements -----

    fn block(&mut self, b: &Block) {
        self.scopes.push(Vec::new());
        for s in &b.stmts {
            self.stmt(s);
        }
        self.scopes.pop();
    }

    fn stmt(&mut self, s: &Stmt) {
        self.within(s.span, |cx| cx.stmt_code(s));
    }

    fn stmt_code(&mut self, s: &Stmt) {
        match &s.kind {
            StmtKind::Local { ty, name, init } => {
                let sty = SlotType::from_type_expr(ty);
                match init {
                    Some(e) => self.expr(e),
                    None => {
                        let c = match sty {
                            SlotType::Int => Const::Int(0),
                            SlotType::Bool => Const::Bool(false),
                            _ => Const::Null,
                        };
                        self.emit(Instr::Const(c));
                    }
                }
                let slot = self.declare(&name.name, sty, false);
                self.emit(Instr::Store(slot));
            }
            StmtKind::Assign { target, value } => {
                self.expr(value);
                match self.lookup(&target.name).map(|v| v.slot) {
                    Some(slot) => {
                        self.emit(Instr::Store(slot));
                    }
                    None => {
                        self.invalid(format!("unknown variable `{}`", target.name), target.span)
                    }
                }
            }
            StmtKind::IndexStore { array, index, value } => {
                self.expr(array);
                self.expr(index);
                self.expr(value);
                self.emit(Instr::ArrayStore { node: s.id, span: s.span });
            }
            StmtKind::FieldStore { object, field, value } => {
                let Some(class) = self.class_of(object) else {
                    return self.invalid("field store on a non-object", s.span);
                };
                self.expr(object);
                self.expr(value);
                self.emit(Instr::PutField {
                    class,
                    field: field.name.clone(),
                    node: s.id,
                    span: s.span,
                });
            }
            StmtKind::Expr(e) => {
                self.expr(e);
                self.emit(Instr::Pop);
            }
            StmtKind::If { cond, then_branch, else_branch } => {
                self.if_stmt(s, cond, then_branch, else_branch.as_ref())
            }
            StmtKind::While { cond, body } => self.while_stmt(s, cond, body),
            StmtKind::Return(value) => self.return_stmt(value.as_ref()),
            StmtKind::Break => self.jump_out(s, true),
            StmtKind::Continue => self.jump_out(s, false),
            StmtKind::Assert(e) => {
                self.expr(e);
                self.emit(Instr::Check { kind: ErrorKind::AssertFailed, node: s.id, span: s.span });
            }
            StmtKind::Assume(e) => {
                self.expr(e);
                self.emit(Instr::Assume { span: s.span, precondition: false });
            }
            StmtKind::Throw(e) => {
                self.expr(e);
                let class = match &e.kind {
                    ExprKind::New { class, .. } => class.name.clone(),
                    _ => String::new(),
                };
                self.emit(Instr::Throw { class, node: s.id, span: s.span });
            }
            StmtKind::Try { body, catches } => self.try_stmt(body, catches),
            StmtKind::Block(b) => self.block(b),
        }
    }

    /// `try`: the body's code is the handlers' range; each `catch` block binds its variable
    /// (stored by the executor when it unwinds) and joins the code after the statement.
    fn try_stmt(&mut self, body: &Block, catches: &[Catch]) {
        let start = self.here();
        self.block(body);
        let end = self.here();
        let mut exits = vec![self.emit(Instr::Jump(usize::MAX))];
        let mut handlers = Vec::new();
        for c in catches {
            let target = self.here();
            self.scopes.push(Vec::new());
            let class = c.class.name.clone();
            let slot = self.declare(&c.name.name, SlotType::Class(class.clone()), false);
            self.within(c.span, |cx| cx.block(&c.body));
            self.scopes.pop();
            exits.push(self.emit(Instr::Jump(usize::MAX)));
            handlers.push(Handler { start, end, class, slot, target });
        }
        let after = self.here();
        for at in exits {
            self.patch(at, after);
        }
        self.handlers.extend(handlers);
    }

    fn if_stmt(&mut self, s: &Stmt, cond: &Expr, then_branch: &Block, else_branch: Option<&Block>) {
        self.expr(cond);
        let br = self.emit(Instr::BranchFalse { target: usize::MAX, site: Some(s.id) });
        self.branch_sites.push(s.id);
        self.block(then_branch);
        match else_branch {
            Some(eb) => {
                let j = self.emit(Instr::Jump(usize::MAX));
                let else_at = self.here();
                self.patch(br, else_at);
                self.block(eb);
                let end = self.here();
                self.patch(j, end);
            }
            None => {
                let end = self.here();
                self.patch(br, end);
            }
        }
    }

    fn while_stmt(&mut self, s: &Stmt, cond: &Expr, body: &Block) {
        let head = self.here();
        self.expr(cond);
        let br = self.emit(Instr::BranchFalse { target: usize::MAX, site: Some(s.id) });
        self.branch_sites.push(s.id);
        self.breaks.push(Vec::new());
        self.continues.push(Vec::new());
        self.block(body);
        let back = self.emit(Instr::LoopBack { head, node: s.id, span: s.span });
        let exit = self.here();
        self.patch(br, exit);
        for at in self.breaks.pop().unwrap_or_default() {
            self.patch(at, exit);
        }
        for at in self.continues.pop().unwrap_or_default() {
            self.patch(at, back);
        }
    }

    fn return_stmt(&mut self, value: Option<&Expr>) {
        match value {
            Some(e) => self.expr(e),
            None => {
                self.emit(Instr::Const(Const::Void));
            }
        }
        match self.result_slot {
            Some(slot) => {
                self.emit(Instr::Store(slot));
                let at = self.emit(Instr::Jump(usize::MAX));
                self.return_jumps.push(at);
            }
            None => {
                self.emit(Instr::Ret);
            }
        }
    }

    /// `break` (`exit`) or `continue`: a jump patched when the loop is done.
    fn jump_out(&mut self, s: &Stmt, exit: bool) {
        let at = self.emit(Instr::Jump(usize::MAX));
        let pending = if exit { self.breaks.last_mut() } else { self.continues.last_mut() };
        match pending {
            Some(list) => list.push(at),
            None => {
                let word = if exit { "break" } else { "continue" };
                self.code[at] =
                    Instr::Invalid { message: format!("`{word}` outside a loop"), span: s.span }
            }
        }
    }
}
