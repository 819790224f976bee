//! SL-COMP's input format: separation logic in SMT-LIB (`declare-heap`, `define-fun-rec`,
//! `define-funs-rec`, `pto`, `sep`, `(_ emp L D)`, `(as nil L)`), read into the logic's own
//! [`Defs`] and one [`Formula`] per `(check-sat)`, so `heaplab sat FILE.smt2` answers the
//! competition's files directly.
//!
//! The fragment is the symbolic-heap one of SL-COMP's satisfiability and entailment divisions
//! (`QF_SHLS`, `QF_SHID`, `QF_SHIDLIA`, their entailment twins): `and` joins pure facts to at
//! most one spatial formula, `sep` separates, `or` and `exists` are distributed into
//! disjunctions of symbolic heaps (at most [`MAX_DISJUNCTS`] per formula), pure facts are
//! (dis)equalities of locations and linear integer arithmetic. Each datatype of `declare-heap`
//! becomes a class whose fields are its one constructor's selectors; location sorts point to
//! it. Predicates become [`PredDef`]s; declared constants become the query's free variables (the
//! model's store).
//!
//! Semantics (SL-COMP's, and the logic's): a points-to's address is not `nil`, separated cells
//! are distinct, a location may be dangling. A pure formula holds of any heap, an `emp` of the
//! empty one; for satisfiability in this fragment the difference cannot show (a pure part of a
//! `sep` may always take the empty heap), so pure facts simply join their symbolic heap. `(and
//! emp F)` with `F` spatial has no model and is dropped; `and` of two spatial formulas is
//! outside the fragment and rejected.
//!
//! An entailment file asserts `A` and `(not B)`: a negated pure formula is a pure fact, a
//! negated spatial one is kept apart in [`Query::negated`] (deciding `A ∧ ¬B` is entailment,
//! which `sat` does not decide; `--lhs` asks `A` alone). Everything outside the fragment is an
//! [`Error::Convert`] with the span of the offending text, never a panic.

pub mod sexp;

use crate::error::{Error, Result};
use crate::formula::{
    CmpOp, Defs, Formula, Fresh, PointsTo, PredApp, PredDef, Pure, Sort, SymHeap, Term, Var,
};
use heaplab_syntax::Span;
use sexp::Sexp;
use std::collections::{BTreeMap, BTreeSet};

/// Disjuncts one formula may expand into, at most (distributing `or` over `sep` multiplies).
pub const MAX_DISJUNCTS: usize = 4_096;

/// A script read: the classes and predicates, one query per `(check-sat)`, and the status the
/// file declares (`(set-info :status sat)`), if any.
#[derive(Clone, Debug)]
pub struct Script {
    pub defs: Defs,
    pub queries: Vec<Query>,
    /// `sat`, `unsat` or `unknown`, as the file says.
    pub status: Option<String>,
}

/// What one `(check-sat)` asks: the conjunction of the assertions made before it.
#[derive(Clone, Debug)]
pub struct Query {
    /// The positive assertions (and the negated pure ones), over the declared constants that
    /// occur in them.
    pub formula: Formula,
    /// Assertions `(not F)` with a spatial `F`: an entailment's right-hand side.
    pub negated: Vec<Formula>,
    /// The `(check-sat)` command.
    pub span: Span,
}

/// Reads an SL-COMP script.
pub fn read(text: &str) -> Result<Script> {
    let items = sexp::parse_all(text).map_err(|e| Error::convert(e.span, e.message))?;
    let mut r = Reader::default();
    for item in &items {
        r.command(item)?;
    }
    r.defs.invariants = crate::invariant::invariants(&r.defs);
    Ok(Script { defs: r.defs, queries: r.queries, status: r.status })
}

fn err<T>(span: Span, message: impl Into<String>) -> Result<T> {
    Err(Error::convert(span, message))
}

/// A datatype of the heap: its constructor and selectors (with their sort symbols).
#[derive(Clone, Debug)]
struct Datatype {
    constructor: String,
    fields: Vec<(String, Sexp)>,
}

/// One disjunct while a formula is converted: a symbolic heap, and whether it is an explicit
/// `emp` (which `and` may not join to a spatial formula).
#[derive(Clone, Debug, Default)]
struct Part {
    heap: SymHeap,
    emp: bool,
}

impl Part {
    fn spatial(&self) -> bool {
        !self.heap.points_to.is_empty() || !self.heap.preds.is_empty()
    }

    fn join(&self, other: &Part) -> Part {
        let mut heap = self.heap.clone();
        heap.exists.extend(other.heap.exists.iter().cloned());
        heap.points_to.extend(other.heap.points_to.iter().cloned());
        heap.preds.extend(other.heap.preds.iter().cloned());
        heap.pure.extend(other.heap.pure.iter().cloned());
        Part { heap, emp: self.emp || other.emp }
    }
}

#[derive(Default)]
struct Reader {
    defs: Defs,
    /// Declared sort symbols (location sorts).
    sorts: BTreeSet<String>,
    datatypes: BTreeMap<String, Datatype>,
    /// Location sort → the datatype its cells hold.
    heap: BTreeMap<String, String>,
    /// Declared constants with their sorts, in order.
    consts: Vec<(String, Sort)>,
    /// Positive assertions so far (each a disjunction), and the negated spatial ones.
    asserted: Vec<(Vec<Part>, Span)>,
    negated: Vec<Vec<Part>>,
    queries: Vec<Query>,
    status: Option<String>,
    fresh: Fresh,
}

/// Names in scope while converting a formula: source name → (internal name, sort).
type Scope = Vec<(String, Var, Sort)>;

impl Reader {
    fn command(&mut self, item: &Sexp) -> Result<()> {
        let Some(list) = item.list() else {
            return err(item.span(), "expected a command in parentheses");
        };
        let Some(head) = list.first().and_then(Sexp::atom) else {
            return err(item.span(), "expected a command name");
        };
        match head {
            "set-logic" | "set-option" | "get-info" | "get-model" | "exit" | "echo" => Ok(()),
            "set-info" => {
                if let [_, Sexp::Atom(key, _), value] = list {
                    if key == ":status" {
                        self.status = value.atom().map(str::to_string);
                    }
                }
                Ok(())
            }
            "declare-sort" => match list {
                [_, Sexp::Atom(name, _), ..] => {
                    self.sorts.insert(name.clone());
                    Ok(())
                }
                _ => err(item.span(), "expected `(declare-sort NAME 0)`"),
            },
            "declare-datatypes" => self.declare_datatypes(item, list),
            "declare-datatype" => match list {
                [_, Sexp::Atom(name, _), ctors] => self.datatype(name, ctors),
                _ => err(item.span(), "expected `(declare-datatype NAME (CONSTRUCTOR ...))`"),
            },
            "declare-heap" => {
                for pair in &list[1..] {
                    match pair.list() {
                        Some([Sexp::Atom(loc, _), Sexp::Atom(data, dspan)]) => {
                            if !self.datatypes.contains_key(data) {
                                return err(*dspan, format!("unknown datatype `{data}`"));
                            }
                            self.heap.insert(loc.clone(), data.clone());
                        }
                        _ => return err(pair.span(), "expected `(LOCATION-SORT DATATYPE)`"),
                    }
                }
                self.classes()
            }
            "declare-const" => match list {
                [_, Sexp::Atom(name, _), sort] => self.declare_const(name, sort),
                _ => err(item.span(), "expected `(declare-const NAME SORT)`"),
            },
            "declare-fun" => match list {
                [_, Sexp::Atom(name, _), Sexp::List(args, _), sort] if args.is_empty() => {
                    self.declare_const(name, sort)
                }
                _ => err(
                    item.span(),
                    "only constants can be declared (`(declare-fun NAME () SORT)`); predicates are defined with `define-fun-rec`",
                ),
            },
            "define-fun" | "define-fun-rec" => match list {
                [_, Sexp::Atom(name, nspan), params, ret, body] => {
                    self.signature(name, *nspan, params, ret)?;
                    self.body(name, body)
                }
                _ => err(item.span(), format!("expected `({head} NAME ((PARAM SORT) ...) Bool BODY)`")),
            },
            "define-funs-rec" => match list {
                [_, Sexp::List(decls, _), Sexp::List(bodies, bspan)] => {
                    if decls.len() != bodies.len() {
                        return err(
                            *bspan,
                            format!("{} predicates declared but {} bodies given", decls.len(), bodies.len()),
                        );
                    }
                    let mut names = Vec::new();
                    for d in decls {
                        match d.list() {
                            Some([Sexp::Atom(name, nspan), params, ret]) => {
                                self.signature(name, *nspan, params, ret)?;
                                names.push(name.clone());
                            }
                            _ => return err(d.span(), "expected `(NAME ((PARAM SORT) ...) Bool)`"),
                        }
                    }
                    for (name, body) in names.iter().zip(bodies) {
                        self.body(name, body)?;
                    }
                    Ok(())
                }
                _ => err(item.span(), "expected `(define-funs-rec (DECLARATIONS) (BODIES))`"),
            },
            "assert" => match list {
                [_, f] => self.assert(f),
                _ => err(item.span(), "expected `(assert FORMULA)`"),
            },
            "check-sat" => {
                let query = self.query(item.span())?;
                self.queries.push(query);
                Ok(())
            }
            other => err(
                list[0].span(),
                format!("`{other}` is not a command of SL-COMP's format (declare-sort, declare-datatypes, declare-heap, define-fun-rec, define-funs-rec, declare-const, assert, check-sat)"),
            ),
        }
    }

    fn declare_datatypes(&mut self, item: &Sexp, list: &[Sexp]) -> Result<()> {
        let [_, Sexp::List(names, _), Sexp::List(ctors, _)] = list else {
            return err(
                item.span(),
                "expected `(declare-datatypes ((NAME 0) ...) ((CONSTRUCTOR ...) ...))`",
            );
        };
        if names.is_empty() {
            // SMT-LIB 2.5: `(declare-datatypes () ((NAME CONSTRUCTOR ...) ...))`.
            for d in ctors {
                match d.list() {
                    Some([Sexp::Atom(name, _), rest @ ..]) => {
                        let span = d.span();
                        self.datatype(name, &Sexp::List(rest.to_vec(), span))?;
                    }
                    _ => return err(d.span(), "expected `(NAME CONSTRUCTOR ...)`"),
                }
            }
            return Ok(());
        }
        if names.len() != ctors.len() {
            return err(item.span(), "as many constructor lists as datatypes are needed");
        }
        for (n, c) in names.iter().zip(ctors) {
            match n.list() {
                Some([Sexp::Atom(name, _), _]) => self.datatype(name, c)?,
                _ => return err(n.span(), "expected `(NAME 0)`"),
            }
        }
        Ok(())
    }

    /// A datatype with exactly one constructor (a heap cell's layout).
    fn datatype(&mut self, name: &str, ctors: &Sexp) -> Result<()> {
        let Some(list) = ctors.list() else {
            return err(ctors.span(), "expected a list of constructors");
        };
        let [ctor] = list else {
            return err(
                ctors.span(),
                format!(
                    "datatype `{name}` needs exactly one constructor (a cell's layout); it has {}",
                    list.len()
                ),
            );
        };
        let Some([Sexp::Atom(cname, _), fields @ ..]) = ctor.list() else {
            return err(ctor.span(), "expected `(CONSTRUCTOR (SELECTOR SORT) ...)`");
        };
        let mut fs = Vec::new();
        for f in fields {
            match f.list() {
                Some([Sexp::Atom(fname, _), sort]) => {
                    if fs.iter().any(|(n, _): &(String, Sexp)| n == fname) {
                        return err(f.span(), format!("selector `{fname}` appears twice"));
                    }
                    fs.push((fname.clone(), sort.clone()));
                }
                _ => return err(f.span(), "expected `(SELECTOR SORT)`"),
            }
        }
        self.datatypes
            .insert(name.to_string(), Datatype { constructor: cname.clone(), fields: fs });
        Ok(())
    }

    /// The classes of the heap's datatypes (again after each `declare-heap`).
    fn classes(&mut self) -> Result<()> {
        let mut classes = BTreeMap::new();
        for (name, dt) in &self.datatypes {
            let mut fields = Vec::new();
            for (f, s) in &dt.fields {
                fields.push((f.clone(), self.sort(s)?));
            }
            classes.insert(name.clone(), fields);
        }
        // Location sorts without a datatype still name locations (never allocated).
        for s in &self.sorts {
            if !self.heap.contains_key(s) && !classes.contains_key(s) {
                classes.insert(s.clone(), Vec::new());
            }
        }
        self.defs.classes = classes;
        Ok(())
    }

    fn sort(&self, s: &Sexp) -> Result<Sort> {
        match s.atom() {
            Some("Int") => Ok(Sort::Int),
            Some("Bool") => Ok(Sort::Bool),
            Some(name) if self.heap.contains_key(name) => {
                Ok(Sort::Ref(self.heap.get(name).cloned().unwrap_or_default()))
            }
            Some(name) if self.sorts.contains(name) => Ok(Sort::Ref(name.to_string())),
            Some(name) => err(s.span(), format!("unknown sort `{name}`")),
            None => err(s.span(), "expected a sort (`Int`, `Bool` or a declared location sort)"),
        }
    }

    fn declare_const(&mut self, name: &str, sort: &Sexp) -> Result<()> {
        let s = self.sort(sort)?;
        if s == Sort::Bool {
            return err(
                sort.span(),
                "Boolean constants are not supported; use a location or `Int`",
            );
        }
        if self.defs.preds.contains_key(name) || self.consts.iter().any(|(n, _)| n == name) {
            return err(sort.span(), format!("`{name}` is declared twice"));
        }
        if self.defs.classes.is_empty() && !self.datatypes.is_empty() {
            self.classes()?;
        }
        self.consts.push((name.to_string(), s));
        Ok(())
    }

    fn signature(&mut self, name: &str, span: Span, params: &Sexp, ret: &Sexp) -> Result<()> {
        if ret.atom() != Some("Bool") {
            return err(ret.span(), format!("predicate `{name}` must return `Bool`"));
        }
        if self.defs.preds.contains_key(name) || self.consts.iter().any(|(n, _)| n == name) {
            return err(span, format!("`{name}` is defined twice"));
        }
        if self.defs.classes.is_empty() && !self.datatypes.is_empty() {
            self.classes()?;
        }
        let Some(list) = params.list() else {
            return err(params.span(), "expected `((PARAM SORT) ...)`");
        };
        let mut ps: Vec<(Var, Sort)> = Vec::new();
        for p in list {
            match p.list() {
                Some([Sexp::Atom(v, vspan), s]) => {
                    if ps.iter().any(|(w, _)| w == v) {
                        return err(*vspan, format!("parameter `{v}` appears twice"));
                    }
                    let sort = self.sort(s)?;
                    if sort == Sort::Bool {
                        return err(s.span(), "Boolean parameters are not supported");
                    }
                    ps.push((v.clone(), sort));
                }
                _ => return err(p.span(), "expected `(PARAM SORT)`"),
            }
        }
        self.defs.preds.insert(
            name.to_string(),
            PredDef { name: name.to_string(), params: ps, body: Vec::new() },
        );
        Ok(())
    }

    fn body(&mut self, name: &str, body: &Sexp) -> Result<()> {
        let params = self.defs.preds.get(name).map(|d| d.params.clone()).unwrap_or_default();
        let mut scope: Scope =
            params.iter().map(|(v, s)| (v.clone(), v.clone(), s.clone())).collect();
        let parts = self.formula(body, &mut scope)?;
        if let Some(def) = self.defs.preds.get_mut(name) {
            def.body = parts.into_iter().map(|p| p.heap).collect();
        }
        Ok(())
    }

    fn assert(&mut self, f: &Sexp) -> Result<()> {
        let mut scope: Scope =
            self.consts.iter().map(|(v, s)| (v.clone(), v.clone(), s.clone())).collect();
        if f.head() == Some("not") {
            if let Some([_, inner]) = f.list() {
                let parts = self.formula(inner, &mut scope)?;
                if parts.iter().all(|p| !p.spatial() && !p.emp && p.heap.exists.is_empty()) {
                    // A negated pure formula is a pure fact.
                    let alternatives: Vec<Pure> =
                        parts.into_iter().map(|p| Pure::And(p.heap.pure)).collect();
                    let fact = Pure::Not(Box::new(Pure::Or(alternatives)));
                    let part = Part {
                        heap: SymHeap { pure: vec![fact], ..SymHeap::default() },
                        emp: false,
                    };
                    self.asserted.push((vec![part], f.span()));
                } else {
                    self.negated.push(parts);
                }
                return Ok(());
            }
        }
        let parts = self.formula(f, &mut scope)?;
        self.asserted.push((parts, f.span()));
        Ok(())
    }

    fn query(&self, span: Span) -> Result<Query> {
        let mut acc = vec![Part::default()];
        for (parts, aspan) in &self.asserted {
            acc = conjoin(&acc, parts, *aspan)?;
        }
        let negated: Vec<Formula> = self
            .negated
            .iter()
            .map(|parts| self.formula_over_consts(parts.iter().map(|p| p.heap.clone()).collect()))
            .collect();
        let formula = self.formula_over_consts(acc.into_iter().map(|p| p.heap).collect());
        Ok(Query { formula, negated, span })
    }

    /// The disjuncts over the declared constants that occur in them.
    fn formula_over_consts(&self, disjuncts: Vec<SymHeap>) -> Formula {
        let mut used = BTreeSet::new();
        for d in &disjuncts {
            used.extend(d.free_vars());
        }
        let free = self.consts.iter().filter(|(v, _)| used.contains(v)).cloned().collect();
        Formula { free, disjuncts }
    }

    // -----------------------------------------------------------------------------------------
    // Formulas

    fn formula(&mut self, f: &Sexp, scope: &mut Scope) -> Result<Vec<Part>> {
        match f {
            Sexp::Atom(a, span) => match a.as_str() {
                "true" => Ok(vec![Part::default()]),
                "false" => Ok(Vec::new()),
                "emp" => Ok(vec![Part { emp: true, ..Part::default() }]),
                name if self.defs.preds.contains_key(name) => self.call(name, &[], *span, scope),
                name => err(*span, format!("`{name}` is not a formula (an unknown predicate, or a term where a formula is expected)")),
            },
            Sexp::Str(_, span) => err(*span, "a string is not a formula"),
            Sexp::List(items, span) => {
                let Some((head, args)) = items.split_first() else {
                    return err(*span, "an empty list is not a formula");
                };
                match head {
                    Sexp::List(..) => err(head.span(), "expected a formula"),
                    Sexp::Str(_, s) => err(*s, "expected a formula"),
                    Sexp::Atom(h, hspan) => self.formula_list(h, *hspan, args, *span, scope),
                }
            }
        }
    }

    fn formula_list(
        &mut self,
        head: &str,
        hspan: Span,
        args: &[Sexp],
        span: Span,
        scope: &mut Scope,
    ) -> Result<Vec<Part>> {
        match head {
            "_" => match args {
                [Sexp::Atom(e, _), ..] if e == "emp" => {
                    Ok(vec![Part { emp: true, ..Part::default() }])
                }
                _ => err(span, "expected `(_ emp LOCATION-SORT DATATYPE)`"),
            },
            "and" => {
                let mut acc = vec![Part::default()];
                for a in args {
                    let parts = self.formula(a, scope)?;
                    acc = conjoin(&acc, &parts, a.span())?;
                }
                Ok(acc)
            }
            "sep" => {
                let mut acc = vec![Part::default()];
                for a in args {
                    let parts = self.formula(a, scope)?;
                    let mut next = Vec::new();
                    for x in &acc {
                        for y in &parts {
                            let mut z = x.join(y);
                            // `emp` is the unit of `*`.
                            z.emp = false;
                            next.push(z);
                        }
                    }
                    check_size(next.len(), a.span())?;
                    acc = next;
                }
                Ok(acc)
            }
            "or" => {
                let mut acc = Vec::new();
                for a in args {
                    acc.extend(self.formula(a, scope)?);
                    check_size(acc.len(), a.span())?;
                }
                Ok(acc)
            }
            "exists" => {
                let [binders, body] = args else {
                    return err(span, "expected `(exists ((VAR SORT) ...) FORMULA)`");
                };
                let Some(list) = binders.list() else {
                    return err(binders.span(), "expected `((VAR SORT) ...)`");
                };
                let mut bound = Vec::new();
                for b in list {
                    match b.list() {
                        Some([Sexp::Atom(v, _), s]) => {
                            let sort = self.sort(s)?;
                            if sort == Sort::Bool {
                                return err(s.span(), "Boolean variables are not supported");
                            }
                            bound.push((v.clone(), self.fresh.var(v), sort));
                        }
                        _ => return err(b.span(), "expected `(VAR SORT)`"),
                    }
                }
                let depth = scope.len();
                scope.extend(bound.iter().cloned());
                let res = self.formula(body, scope);
                scope.truncate(depth);
                let mut parts = res?;
                for p in &mut parts {
                    p.heap.exists.extend(bound.iter().map(|(_, w, s)| (w.clone(), s.clone())));
                }
                Ok(parts)
            }
            "not" => {
                let [inner] = args else { return err(span, "expected `(not FORMULA)`") };
                let parts = self.formula(inner, scope)?;
                if parts.iter().any(|p| p.spatial() || p.emp || !p.heap.exists.is_empty()) {
                    return err(
                        span,
                        "`not` of a spatial formula is outside the symbolic-heap fragment (only an entailment's top-level `(assert (not F))` may negate one)",
                    );
                }
                let alternatives: Vec<Pure> =
                    parts.into_iter().map(|p| Pure::And(p.heap.pure)).collect();
                Ok(vec![pure_part(Pure::Not(Box::new(Pure::Or(alternatives))))])
            }
            "pto" => {
                let [ptr, cell] = args else {
                    return err(span, "expected `(pto LOCATION (CONSTRUCTOR FIELD ...))`");
                };
                let (pt, sort) = self.term(ptr, scope)?;
                let Sort::Ref(class) = sort else {
                    return err(ptr.span(), "the address of `pto` must be a location");
                };
                let Some((cname, fields)) = cell.list().and_then(|l| l.split_first()) else {
                    return err(cell.span(), "expected `(CONSTRUCTOR FIELD ...)`");
                };
                let Some(dt) = self.datatypes.get(&class) else {
                    return err(ptr.span(), format!("no datatype of the heap is stored at locations of `{class}` (see `declare-heap`)"));
                };
                if cname.atom() != Some(dt.constructor.as_str()) {
                    return err(
                        cname.span(),
                        format!("cells of `{class}` are built with `{}`", dt.constructor),
                    );
                }
                let layout = self.defs.classes.get(&class).cloned().unwrap_or_default();
                if fields.len() != layout.len() {
                    return err(
                        cell.span(),
                        format!("`{}` takes {} fields, not {}", dt.constructor, layout.len(), fields.len()),
                    );
                }
                let mut terms = Vec::new();
                for ((fname, fsort), f) in layout.iter().zip(fields) {
                    let (t, s) = self.term(f, scope)?;
                    if !same_sort(&s, fsort) {
                        return err(f.span(), format!("field `{fname}` holds `{fsort}`, not `{s}`"));
                    }
                    terms.push((fname.clone(), t));
                }
                let heap = SymHeap {
                    points_to: vec![PointsTo { ptr: pt, class, fields: terms }],
                    ..SymHeap::default()
                };
                Ok(vec![Part { heap, emp: false }])
            }
            "wand" | "septraction" | "ssep" => err(
                hspan,
                format!("`{head}` is outside the symbolic-heap fragment (SL-COMP's sat and entailment divisions do not use it)"),
            ),
            "!" => match args {
                [f, ..] => self.formula(f, scope),
                _ => err(span, "expected `(! FORMULA :named NAME)`"),
            },
            "=" | "distinct" | "<" | "<=" | ">" | ">=" => {
                Ok(vec![pure_part(self.comparison(head, args, span, scope)?)])
            }
            name if self.defs.preds.contains_key(name) => self.call(name, args, span, scope),
            other => err(hspan, format!("unknown predicate or connective `{other}`")),
        }
    }

    fn call(
        &mut self,
        name: &str,
        args: &[Sexp],
        span: Span,
        scope: &mut Scope,
    ) -> Result<Vec<Part>> {
        let params = self.defs.preds.get(name).map(|d| d.params.clone()).unwrap_or_default();
        if params.len() != args.len() {
            return err(
                span,
                format!("`{name}` takes {} arguments, not {}", params.len(), args.len()),
            );
        }
        let mut terms = Vec::new();
        for ((p, psort), a) in params.iter().zip(args) {
            let (t, s) = self.term(a, scope)?;
            if !same_sort(&s, psort) {
                return err(
                    a.span(),
                    format!("parameter `{p}` of `{name}` is `{psort}`, not `{s}`"),
                );
            }
            terms.push(t);
        }
        let heap = SymHeap {
            preds: vec![PredApp { name: name.to_string(), args: terms, depth: 0 }],
            ..SymHeap::default()
        };
        Ok(vec![Part { heap, emp: false }])
    }

    fn comparison(
        &mut self,
        op: &str,
        args: &[Sexp],
        span: Span,
        scope: &mut Scope,
    ) -> Result<Pure> {
        if args.len() < 2 {
            return err(span, format!("`{op}` needs at least two arguments"));
        }
        let mut terms = Vec::new();
        for a in args {
            let (t, s) = self.term(a, scope)?;
            terms.push((t, s, a.span()));
        }
        let first = terms[0].1.clone();
        for (_, s, sp) in &terms[1..] {
            if !same_sort(s, &first) {
                return err(*sp, format!("compares `{s}` with `{first}`"));
            }
        }
        if matches!(op, "<" | "<=" | ">" | ">=") && first != Sort::Int {
            return err(span, format!("`{op}` compares integers"));
        }
        let mut facts = Vec::new();
        if op == "distinct" {
            for i in 0..terms.len() {
                for j in i + 1..terms.len() {
                    facts.push(Pure::ne(terms[i].0.clone(), terms[j].0.clone()));
                }
            }
        } else {
            for w in terms.windows(2) {
                let (a, b) = (w[0].0.clone(), w[1].0.clone());
                facts.push(match op {
                    "=" => Pure::eq(a, b),
                    "<" => Pure::cmp(CmpOp::Lt, a, b),
                    "<=" => Pure::cmp(CmpOp::Le, a, b),
                    ">" => Pure::cmp(CmpOp::Lt, b, a),
                    _ => Pure::cmp(CmpOp::Le, b, a),
                });
            }
        }
        Ok(if facts.len() == 1 { facts.remove(0) } else { Pure::And(facts) })
    }

    // -----------------------------------------------------------------------------------------
    // Terms

    fn term(&mut self, t: &Sexp, scope: &Scope) -> Result<(Term, Sort)> {
        match t {
            Sexp::Atom(a, span) => {
                if let Some((_, w, s)) = scope.iter().rev().find(|(n, _, _)| n == a) {
                    return Ok((Term::Var(w.clone()), s.clone()));
                }
                if a.bytes().all(|b| b.is_ascii_digit()) && !a.is_empty() {
                    return match a.parse::<i64>() {
                        Ok(n) => Ok((Term::Int(n), Sort::Int)),
                        Err(_) => err(*span, format!("the integer `{a}` is larger than 64 bits")),
                    };
                }
                if a == "nil" {
                    return err(*span, "write `nil` with its sort: `(as nil LOCATION-SORT)`");
                }
                err(*span, format!("unknown name `{a}`"))
            }
            Sexp::Str(_, span) => err(*span, "a string is not a term"),
            Sexp::List(items, span) => {
                let Some((head, args)) = items.split_first() else {
                    return err(*span, "an empty list is not a term");
                };
                match (head.atom(), args) {
                    (Some("as"), [Sexp::Atom(n, _), s]) if n == "nil" => {
                        let sort = self.sort(s)?;
                        if !matches!(sort, Sort::Ref(_)) {
                            return err(s.span(), "`nil` is a location");
                        }
                        Ok((Term::Null, sort))
                    }
                    (Some("+"), _) if !args.is_empty() => {
                        let mut acc: Option<Term> = None;
                        for a in args {
                            let x = self.int(a, scope)?;
                            acc = Some(match acc {
                                None => x,
                                Some(y) => Term::Add(Box::new(y), Box::new(x)),
                            });
                        }
                        Ok((acc.unwrap_or(Term::Int(0)), Sort::Int))
                    }
                    (Some("-"), [a]) => Ok((Term::Neg(Box::new(self.int(a, scope)?)), Sort::Int)),
                    (Some("-"), [a, rest @ ..]) => {
                        let mut acc = self.int(a, scope)?;
                        for b in rest {
                            acc = Term::Sub(Box::new(acc), Box::new(self.int(b, scope)?));
                        }
                        Ok((acc, Sort::Int))
                    }
                    (Some("*"), [a, b]) => {
                        let (x, y) = (self.int(a, scope)?, self.int(b, scope)?);
                        if !x.is_ground() && !y.is_ground() {
                            return err(*span, "only linear arithmetic: one side of `*` must be a constant");
                        }
                        Ok((Term::Mul(Box::new(x), Box::new(y)), Sort::Int))
                    }
                    (Some("!"), [a, ..]) => self.term(a, scope),
                    _ => err(*span, "expected a term: a variable, `(as nil SORT)`, a numeral or linear arithmetic"),
                }
            }
        }
    }

    fn int(&mut self, t: &Sexp, scope: &Scope) -> Result<Term> {
        let (x, s) = self.term(t, scope)?;
        if s != Sort::Int {
            return err(t.span(), format!("expected an integer, found `{s}`"));
        }
        Ok(x)
    }
}

fn pure_part(p: Pure) -> Part {
    Part { heap: SymHeap { pure: vec![p], ..SymHeap::default() }, emp: false }
}

/// Sorts that may meet (location sorts are kept apart, as SL-COMP's typing does).
fn same_sort(a: &Sort, b: &Sort) -> bool {
    a == b
}

fn check_size(n: usize, span: Span) -> Result<()> {
    if n > MAX_DISJUNCTS {
        return err(
            span,
            format!("the formula expands into more than {MAX_DISJUNCTS} symbolic heaps"),
        );
    }
    Ok(())
}

/// `and` of two disjunctions: pure facts join either side; two spatial formulas cannot meet
/// (outside the fragment), and an explicit `emp` with a spatial formula has no model.
fn conjoin(acc: &[Part], parts: &[Part], span: Span) -> Result<Vec<Part>> {
    let mut next = Vec::new();
    for x in acc {
        for y in parts {
            if x.spatial() && y.spatial() {
                return err(
                    span,
                    "`and` of two spatial formulas is outside the symbolic-heap fragment (use `sep`)",
                );
            }
            if (x.emp && y.spatial()) || (y.emp && x.spatial()) {
                continue;
            }
            next.push(x.join(y));
        }
    }
    check_size(next.len(), span)?;
    Ok(next)
}
