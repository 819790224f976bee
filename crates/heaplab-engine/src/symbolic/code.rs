//! A small stack bytecode that the symbolic explorer runs.
//!
//! Why bytecode and not the AST: the explorer must clone, pause and resume a path at any point,
//! and a lazy-initialization choice re-executes the *same* instruction in each successor (Kiasan's
//! invisible steps keep the program counter). With a flat instruction list a state is plain data
//! (frames with a program counter, locals and an operand stack), so forking is a `clone` and a
//! step is one instruction. Separation-logic formulas (`requires`, predicate bodies) compile to
//! the same code, with a nondeterministic `Fork` per disjunction, so evaluating a precondition
//! "like Kiasan's repOK" uses exactly the same machinery, strategies and bounds as the method.
//!
//! The compiler trusts the type checker's [`ProgramInfo`] for types and call targets; anything
//! it cannot make sense of becomes an [`Instr::Invalid`] that ends the path with an engine error
//! instead of a panic.

use heaplab_syntax::ast::{
    Atom, BinOp, Block, ErrorKind, Expr, ExprKind, FieldInit, Formula, FunctionDecl, Item, NodeId,
    Program, Stmt, StmtKind, TypeExpr, UnOp,
};
use heaplab_syntax::types::{CallTarget, ProgramInfo, Type};
use heaplab_syntax::Span;
use std::collections::{BTreeSet, HashMap};

/// Index of a [`Unit`] in [`Compiled::units`].
pub type UnitId = usize;

/// A local variable slot of a frame.
pub type Slot = usize;

/// How two operands of `==`/`!=` compare.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OperandKind {
    Int,
    Bool,
    Ref,
}

/// A constant pushed by [`Instr::Const`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Const {
    Int(i64),
    Bool(bool),
    Null,
    Void,
}

/// The declared type of a slot or field, reduced to what the explorer needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SlotType {
    Int,
    Bool,
    Class(String),
    /// `void` or unknown: never materialized.
    Other,
}

impl SlotType {
    pub fn from_type(ty: &Type) -> SlotType {
        match ty {
            Type::Int => SlotType::Int,
            Type::Bool => SlotType::Bool,
            Type::Class(c) => SlotType::Class(c.clone()),
            _ => SlotType::Other,
        }
    }

    pub fn from_type_expr(ty: &TypeExpr) -> SlotType {
        match ty {
            TypeExpr::Int(_) => SlotType::Int,
            TypeExpr::Bool(_) => SlotType::Bool,
            TypeExpr::Class(id) => SlotType::Class(id.name.clone()),
            TypeExpr::Void(_) => SlotType::Other,
        }
    }
}

/// One instruction. `node`/`span` fields say which source construct an outcome is blamed on.
#[derive(Clone, Debug, PartialEq)]
pub enum Instr {
    Const(Const),
    Load(Slot),
    /// In a formula: load an existential variable, first binding it to a fresh symbolic value of
    /// the slot's type if nothing bound it yet.
    LoadOrFresh(Slot),
    Store(Slot),
    /// In a formula: pop a value; bind the existential `slot` to it if unbound, otherwise assume
    /// that it equals the bound value.
    BindOrAssumeEq {
        slot: Slot,
        kind: OperandKind,
        span: Span,
    },
    Pop,
    Dup,
    /// Pop a reference, push the value of `field` (lazy initialization happens here).
    GetField {
        class: String,
        field: String,
        ty: SlotType,
        node: NodeId,
        span: Span,
    },
    /// Pop a value, then a reference; store.
    PutField {
        class: String,
        field: String,
        node: NodeId,
        span: Span,
    },
    /// Pop one value per name in `inits` (last name on top), allocate.
    New {
        class: String,
        inits: Vec<String>,
    },
    Unary {
        op: UnOp,
        node: NodeId,
        span: Span,
    },
    /// Arithmetic, comparison or equality (never `&&`/`||`, which compile to branches).
    Binary {
        op: BinOp,
        kind: OperandKind,
        node: NodeId,
        span: Span,
    },
    Jump(usize),
    /// Pop a bool; fall through when true, jump to `target` when false. `site` is the source
    /// branch (for coverage) or `None` for branches the compiler made up (formulas).
    BranchFalse {
        target: usize,
        site: Option<NodeId>,
    },
    /// The back edge of a `while` loop (the loop-iteration bound is checked here).
    LoopBack {
        head: usize,
        node: NodeId,
        span: Span,
    },
    /// Call `unit` with `nargs` arguments on the stack (the receiver first when `receiver`).
    Call {
        unit: UnitId,
        nargs: usize,
        receiver: bool,
        node: NodeId,
        span: Span,
    },
    /// Pop the return value and return to the caller.
    Ret,
    /// Pop a bool; false ends the path with `kind` (assert or ensures failure).
    Check {
        kind: ErrorKind,
        node: NodeId,
        span: Span,
    },
    /// Pop a bool; false discards the path (an `assume`, or a precondition that does not hold).
    Assume {
        span: Span,
        precondition: bool,
    },
    /// Continue at each target in a separate path (the disjuncts of a formula).
    Fork(Vec<usize>),
    /// In a formula: pop a reference that must point to an object of `class` not yet claimed by
    /// the separating conjunction; claim it and push it back.
    PointsTo {
        class: String,
        span: Span,
    },
    /// A function that must return a value ran off its end.
    MissingReturn {
        span: Span,
    },
    /// Something the compiler could not translate (a program the checker should reject).
    Invalid {
        message: String,
        span: Span,
    },
    /// Driver only: the precondition has been established; forget its footprint.
    PreDone,
    /// Driver only: pop the value the method under test returned; the path is complete.
    Halt,
}

/// What a unit of code is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UnitKind {
    /// A method (`class` is `Some`) or a top-level function.
    Function { class: Option<String>, name: String },
    /// A separation-logic predicate (its disjuncts are a `Fork`).
    Predicate { name: String },
    /// The `requires` clauses of a function, as code over its parameters.
    Requires { class: Option<String>, name: String },
}

/// Straight-line code for one function, predicate or precondition.
#[derive(Clone, Debug)]
pub struct Unit {
    pub kind: UnitKind,
    /// Parameters, `this` first for methods. Their slots are `0..params.len()`.
    pub params: Vec<(String, SlotType)>,
    /// The type of every slot (parameters, locals, existentials, hidden `old`/`result` slots).
    pub slot_types: Vec<SlotType>,
    /// The source name of every slot (empty for hidden ones), so a symbolic value made for an
    /// existential can be shown as `lo` rather than a slot number.
    pub slot_names: Vec<String>,
    pub code: Vec<Instr>,
    pub returns: SlotType,
    pub span: Span,
    /// Source branch sites (`if`, `while`, `?:`, `&&`, `||`) in this unit.
    pub branch_sites: Vec<NodeId>,
    /// Units this one may call.
    pub callees: BTreeSet<UnitId>,
}

impl Unit {
    /// `Class.method`, `function`, `pred p` or `requires of Class.method`.
    pub fn display_name(&self) -> String {
        match &self.kind {
            UnitKind::Function { class: Some(c), name } => format!("{c}.{name}"),
            UnitKind::Function { class: None, name } => name.clone(),
            UnitKind::Predicate { name } => format!("pred {name}"),
            UnitKind::Requires { class: Some(c), name } => format!("requires of {c}.{name}"),
            UnitKind::Requires { class: None, name } => format!("requires of {name}"),
        }
    }
}

/// A whole program in bytecode form.
#[derive(Clone, Debug, Default)]
pub struct Compiled {
    pub units: Vec<Unit>,
    /// `(class, method)` or `(None, function)` → function unit.
    pub functions: HashMap<(Option<String>, String), UnitId>,
    /// Function unit → its `requires` unit (only when it has `requires` clauses).
    pub requires: HashMap<UnitId, UnitId>,
    pub predicates: HashMap<String, UnitId>,
    /// Every class with its fields (name, type) in declaration order.
    pub classes: HashMap<String, Vec<(String, SlotType)>>,
    /// The predicates as the logic reads them (predicates whose body does not convert are left
    /// out), for the `sl` strategy's `enum` rule over their least fixed point.
    pub defs: heaplab_logic::Defs,
}

impl Compiled {
    /// Looks up `Class.method` or `function`.
    pub fn function(&self, class: Option<&str>, name: &str) -> Option<UnitId> {
        self.functions.get(&(class.map(str::to_string), name.to_string())).copied()
    }

    /// The declared type of a field.
    pub fn field_type(&self, class: &str, field: &str) -> Option<&SlotType> {
        self.classes.get(class)?.iter().find(|(f, _)| f == field).map(|(_, t)| t)
    }

    /// Every unit reachable from `root` through calls (including `root`).
    pub fn reachable(&self, root: UnitId) -> BTreeSet<UnitId> {
        let mut seen = BTreeSet::new();
        let mut todo = vec![root];
        while let Some(u) = todo.pop() {
            if !seen.insert(u) {
                continue;
            }
            if let Some(unit) = self.units.get(u) {
                todo.extend(unit.callees.iter().copied());
            }
        }
        seen
    }
}

/// Compiles every class, function and predicate of a checked program.
pub fn compile(program: &Program, info: &ProgramInfo) -> Compiled {
    let mut out =
        Compiled { defs: heaplab_logic::Defs::from_program(program).0, ..Compiled::default() };
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
        returns: SlotType::Other,
        span,
        branch_sites: Vec::new(),
        callees: BTreeSet::new(),
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
    slot_types: Vec<SlotType>,
    slot_names: Vec<String>,
    scopes: Vec<Vec<(String, Var)>>,
    /// `Jump` instructions to patch with the loop exit (`break`), per enclosing loop.
    breaks: Vec<Vec<usize>>,
    /// The `LoopBack` position of each enclosing loop, for `continue` (patched later).
    continues: Vec<Vec<usize>>,
    olds: HashMap<NodeId, Slot>,
    result_slot: Option<Slot>,
    return_jumps: Vec<usize>,
    branch_sites: Vec<NodeId>,
    callees: BTreeSet<UnitId>,
    in_formula: bool,
}

impl<'a> Cx<'a> {
    fn new(out: &'a Compiled, info: &'a ProgramInfo) -> Cx<'a> {
        Cx {
            out,
            info,
            class: None,
            code: Vec::new(),
            slot_types: Vec::new(),
            slot_names: Vec::new(),
            scopes: vec![Vec::new()],
            breaks: Vec::new(),
            continues: Vec::new(),
            olds: HashMap::new(),
            result_slot: None,
            return_jumps: Vec::new(),
            branch_sites: Vec::new(),
            callees: BTreeSet::new(),
            in_formula: false,
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
            returns,
            span,
            branch_sites: self.branch_sites,
            callees: self.callees,
        }
    }

    fn emit(&mut self, i: Instr) -> usize {
        self.code.push(i);
        self.code.len() - 1
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
            StmtKind::While { cond, body } => {
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
            StmtKind::Return(value) => {
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
            StmtKind::Break => {
                let at = self.emit(Instr::Jump(usize::MAX));
                match self.breaks.last_mut() {
                    Some(list) => list.push(at),
                    None => {
                        self.code[at] = Instr::Invalid {
                            message: "`break` outside a loop".into(),
                            span: s.span,
                        }
                    }
                }
            }
            StmtKind::Continue => {
                let at = self.emit(Instr::Jump(usize::MAX));
                match self.continues.last_mut() {
                    Some(list) => list.push(at),
                    None => {
                        self.code[at] = Instr::Invalid {
                            message: "`continue` outside a loop".into(),
                            span: s.span,
                        }
                    }
                }
            }
            StmtKind::Assert(e) => {
                self.expr(e);
                self.emit(Instr::Check { kind: ErrorKind::AssertFailed, node: s.id, span: s.span });
            }
            StmtKind::Assume(e) => {
                self.expr(e);
                self.emit(Instr::Assume { span: s.span, precondition: false });
            }
            StmtKind::Block(b) => self.block(b),
        }
    }

    // ----- expressions -----

    fn expr(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::Int(n) => {
                self.emit(Instr::Const(Const::Int(*n)));
            }
            ExprKind::Bool(b) => {
                self.emit(Instr::Const(Const::Bool(*b)));
            }
            ExprKind::Null => {
                self.emit(Instr::Const(Const::Null));
            }
            ExprKind::This => match self.lookup("this").map(|v| v.slot) {
                Some(slot) => {
                    self.emit(Instr::Load(slot));
                }
                None => self.invalid("`this` outside a method", e.span),
            },
            ExprKind::Result => match self.result_slot {
                Some(slot) => {
                    self.emit(Instr::Load(slot));
                }
                None => self.invalid("`result` outside `ensures`", e.span),
            },
            ExprKind::Var(id) => match self.lookup(&id.name).map(|v| (v.slot, v.existential)) {
                Some((slot, true)) => {
                    self.emit(Instr::LoadOrFresh(slot));
                }
                Some((slot, false)) => {
                    self.emit(Instr::Load(slot));
                }
                None => self.invalid(format!("unknown variable `{}`", id.name), id.span),
            },
            ExprKind::Field { object, field } => {
                let Some(class) = self.class_of(object) else {
                    return self.invalid("field read on a non-object", e.span);
                };
                let ty =
                    self.out.field_type(&class, &field.name).cloned().unwrap_or(SlotType::Other);
                self.expr(object);
                self.emit(Instr::GetField {
                    class,
                    field: field.name.clone(),
                    ty,
                    node: e.id,
                    span: e.span,
                });
            }
            ExprKind::Unary { op, operand } => {
                self.expr(operand);
                self.emit(Instr::Unary { op: *op, node: e.id, span: e.span });
            }
            ExprKind::Binary { op: BinOp::And, lhs, rhs } => {
                self.expr(lhs);
                let site = self.site(e.id);
                let br = self.emit(Instr::BranchFalse { target: usize::MAX, site });
                self.expr(rhs);
                let j = self.emit(Instr::Jump(usize::MAX));
                let f = self.here();
                self.patch(br, f);
                self.emit(Instr::Const(Const::Bool(false)));
                let end = self.here();
                self.patch(j, end);
            }
            ExprKind::Binary { op: BinOp::Or, lhs, rhs } => {
                self.expr(lhs);
                let site = self.site(e.id);
                let br = self.emit(Instr::BranchFalse { target: usize::MAX, site });
                self.emit(Instr::Const(Const::Bool(true)));
                let j = self.emit(Instr::Jump(usize::MAX));
                let r = self.here();
                self.patch(br, r);
                self.expr(rhs);
                let end = self.here();
                self.patch(j, end);
            }
            ExprKind::Binary { op, lhs, rhs } => {
                let kind = match op {
                    BinOp::Eq | BinOp::Ne => self.kind_of(lhs).max_with(self.kind_of(rhs)),
                    _ => OperandKind::Int,
                };
                self.expr(lhs);
                self.expr(rhs);
                self.emit(Instr::Binary { op: *op, kind, node: e.id, span: e.span });
            }
            ExprKind::Cond { cond, then_expr, else_expr } => {
                self.expr(cond);
                let site = self.site(e.id);
                let br = self.emit(Instr::BranchFalse { target: usize::MAX, site });
                self.expr(then_expr);
                let j = self.emit(Instr::Jump(usize::MAX));
                let f = self.here();
                self.patch(br, f);
                self.expr(else_expr);
                let end = self.here();
                self.patch(j, end);
            }
            ExprKind::Call { callee, args } => match self.info.calls.get(&e.id).cloned() {
                Some(CallTarget::Function(name)) => match self.out.function(None, &name) {
                    Some(unit) => {
                        for a in args {
                            self.expr(a);
                        }
                        self.call(unit, args.len(), false, e);
                    }
                    None => self.invalid(format!("unknown function `{name}`"), callee.span),
                },
                Some(CallTarget::Method { class, method }) => {
                    match self.out.function(Some(&class), &method) {
                        Some(unit) => {
                            match self.lookup("this").map(|v| v.slot) {
                                Some(slot) => {
                                    self.emit(Instr::Load(slot));
                                }
                                None => return self.invalid("method call without `this`", e.span),
                            }
                            for a in args {
                                self.expr(a);
                            }
                            self.call(unit, args.len() + 1, true, e);
                        }
                        None => self.invalid(format!("unknown method `{class}.{method}`"), e.span),
                    }
                }
                Some(CallTarget::Predicate(name)) => self.pred_call(&name, args, e.span),
                None => self.invalid(format!("unresolved call `{}`", callee.name), callee.span),
            },
            ExprKind::MethodCall { receiver, method, args } => {
                let target = match self.info.calls.get(&e.id) {
                    Some(CallTarget::Method { class, method }) => {
                        self.out.function(Some(class), method)
                    }
                    _ => self
                        .class_of(receiver)
                        .and_then(|c| self.out.function(Some(&c), &method.name)),
                };
                match target {
                    Some(unit) => {
                        self.expr(receiver);
                        for a in args {
                            self.expr(a);
                        }
                        self.call(unit, args.len() + 1, true, e);
                    }
                    None => self.invalid(format!("unknown method `{}`", method.name), method.span),
                }
            }
            ExprKind::New { class, fields } => {
                let mut inits = Vec::new();
                for FieldInit { field, value } in fields {
                    self.expr(value);
                    inits.push(field.name.clone());
                }
                self.emit(Instr::New { class: class.name.clone(), inits });
            }
            ExprKind::Old(_) => match self.olds.get(&e.id).copied() {
                Some(slot) => {
                    self.emit(Instr::Load(slot));
                }
                None => self.invalid("`old` outside `ensures`", e.span),
            },
            ExprKind::Wildcard => self.invalid("`_` outside a points-to", e.span),
        }
    }

    fn site(&mut self, id: NodeId) -> Option<NodeId> {
        if self.in_formula {
            None
        } else {
            self.branch_sites.push(id);
            Some(id)
        }
    }

    fn call(&mut self, unit: UnitId, nargs: usize, receiver: bool, e: &Expr) {
        self.callees.insert(unit);
        self.emit(Instr::Call { unit, nargs, receiver, node: e.id, span: e.span });
    }

    // ----- formulas -----

    fn formula(&mut self, f: &Formula) {
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

    fn disjunct(&mut self, d: &heaplab_syntax::ast::SymbolicHeap) {
        self.scopes.push(Vec::new());
        for p in &d.exists {
            self.declare(&p.name.name, SlotType::from_type_expr(&p.ty), true);
        }
        for atom in &d.atoms {
            self.atom(atom);
        }
        self.scopes.pop();
    }

    fn atom(&mut self, atom: &Atom) {
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

    fn pred_call(&mut self, name: &str, args: &[Expr], span: Span) {
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

impl OperandKind {
    /// `null == x`: the non-null side decides the comparison kind.
    fn max_with(self, other: OperandKind) -> OperandKind {
        match (self, other) {
            (OperandKind::Int, _) | (_, OperandKind::Int) => OperandKind::Int,
            (OperandKind::Bool, _) | (_, OperandKind::Bool) => OperandKind::Bool,
            _ => OperandKind::Ref,
        }
    }
}
