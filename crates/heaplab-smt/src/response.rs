//! Parsing what solvers print: `check-sat` results, `get-value` and `get-model` replies,
//! `(error "...")` lines, and terms written as SMT-LIB2 text.

use std::collections::BTreeMap;

use crate::error::{Result, SolverError};
use crate::model::{Model, Value};
use crate::print::symbol_content;
use crate::sexp::{parse_all, Sexp};
use crate::term::{CmpOp, Sort, Term, Var};

/// The solver's verdict on a query.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// Satisfiable; the model has a value for every variable in [`Query::want`](crate::solver::Query::want).
    Sat(Model),
    Unsat,
    /// The solver gave up; the string is its reason (e.g. `"timeout"`, `"incomplete"`).
    Unknown(String),
}

impl Answer {
    pub fn is_sat(&self) -> bool {
        matches!(self, Answer::Sat(_))
    }
    pub fn is_unsat(&self) -> bool {
        matches!(self, Answer::Unsat)
    }
    /// `"sat"`, `"unsat"` or `"unknown"`.
    pub fn status(&self) -> &'static str {
        match self {
            Answer::Sat(_) => "sat",
            Answer::Unsat => "unsat",
            Answer::Unknown(_) => "unknown",
        }
    }
}

fn malformed(msg: impl Into<String>) -> SolverError {
    SolverError::Malformed(msg.into())
}

fn error_message(s: &Sexp) -> Option<String> {
    let l = s.list()?;
    if l.first()?.atom()? != "error" {
        return None;
    }
    Some(match l.get(1) {
        Some(Sexp::Str(m)) | Some(Sexp::Atom(m)) => m.clone(),
        _ => String::from("(no message)"),
    })
}

/// Interprets the output of a script built by [`crate::build_script`].
///
/// Any `(error ...)` before the `check-sat` result fails the query: Z3 skips a bad assertion and
/// goes on, so its `sat` would be about a different question. After `unsat`, the error of the
/// now-pointless `get-value` is expected and ignored.
pub fn parse_check_response(text: &str, want: &[Var]) -> Result<Answer> {
    let items = parse_all(text)?;
    let mut iter = items.iter();
    let mut errors = Vec::new();
    let status = loop {
        let Some(item) = iter.next() else {
            if errors.is_empty() {
                return Err(malformed(format!("no check-sat result in solver output {text:?}")));
            }
            return Err(SolverError::SolverReported(errors.join("; ")));
        };
        if let Some(msg) = error_message(item) {
            errors.push(msg);
            continue;
        }
        match item.atom() {
            Some(s @ ("sat" | "unsat" | "unknown")) => break s,
            // `success` lines appear if someone enabled :print-success; they carry nothing.
            Some("success") => continue,
            _ => return Err(malformed(format!("unexpected solver output {text:?}"))),
        }
    };
    if !errors.is_empty() {
        return Err(SolverError::SolverReported(errors.join("; ")));
    }
    let rest: Vec<&Sexp> = iter.collect();
    match status {
        "unsat" => Ok(Answer::Unsat),
        "unknown" => {
            let reason = rest
                .iter()
                .filter_map(|s| s.list())
                .find(|l| l.first().and_then(Sexp::atom) == Some(":reason-unknown"))
                .and_then(|l| match l.get(1) {
                    Some(Sexp::Str(r)) | Some(Sexp::Atom(r)) => Some(r.clone()),
                    _ => None,
                })
                .filter(|r| !r.is_empty())
                .unwrap_or_else(|| "unknown".to_string());
            Ok(Answer::Unknown(reason))
        }
        _ => {
            if want.is_empty() {
                return Ok(Answer::Sat(Model::new()));
            }
            let first =
                rest.first().ok_or_else(|| malformed("sat without the requested values"))?;
            if let Some(msg) = error_message(first) {
                return Err(SolverError::SolverReported(msg));
            }
            Ok(Answer::Sat(values_from_sexp(first, want)?))
        }
    }
}

fn parse_value(s: &Sexp) -> Result<Value> {
    match s {
        Sexp::Atom(a) if a == "true" => Ok(Value::Bool(true)),
        Sexp::Atom(a) if a == "false" => Ok(Value::Bool(false)),
        Sexp::Atom(a) => a
            .parse::<i64>()
            .map(Value::Int)
            .map_err(|_| malformed(format!("not an integer value: {a}"))),
        Sexp::List(l) => match l.as_slice() {
            // `(- 9223372036854775808)` is i64::MIN: its magnitude does not fit in an i64, so
            // a literal is negated as text before it is parsed.
            [Sexp::Atom(minus), Sexp::Atom(digits)]
                if minus == "-" && digits.bytes().all(|b| b.is_ascii_digit()) =>
            {
                format!("-{digits}")
                    .parse::<i64>()
                    .map(Value::Int)
                    .map_err(|_| malformed(format!("integer value out of range: -{digits}")))
            }
            [Sexp::Atom(minus), inner] if minus == "-" => match parse_value(inner)? {
                Value::Int(v) => v
                    .checked_neg()
                    .map(Value::Int)
                    .ok_or_else(|| malformed("integer value out of range")),
                Value::Bool(_) => Err(malformed("negated Bool value")),
            },
            _ => Err(malformed(format!("unsupported value {s:?}"))),
        },
        Sexp::Str(_) => Err(malformed("string value")),
    }
}

fn lookup(want: &[Var]) -> BTreeMap<String, &Var> {
    want.iter().map(|v| (symbol_content(&v.name), v)).collect()
}

fn values_from_sexp(s: &Sexp, want: &[Var]) -> Result<Model> {
    let by_symbol = lookup(want);
    let pairs = s.list().ok_or_else(|| malformed("get-value reply is not a list"))?;
    let mut model = Model::new();
    for p in pairs {
        let (name, value) = match p.list() {
            Some([Sexp::Atom(n), v]) => (n, v),
            _ => return Err(malformed(format!("bad get-value pair {p:?}"))),
        };
        if let Some(var) = by_symbol.get(name) {
            model.insert(var, parse_value(value)?);
        }
    }
    for v in want {
        if model.get(v).is_none() {
            return Err(malformed(format!("no value for {} in the solver's reply", v.name)));
        }
    }
    Ok(model)
}

/// Parses a `get-value` reply such as `((x 4) (|a b| (- 3)))` into a model of `want`.
pub fn parse_values(text: &str, want: &[Var]) -> Result<Model> {
    let items = parse_all(text)?;
    let first = items.first().ok_or_else(|| malformed("empty get-value reply"))?;
    if let Some(msg) = error_message(first) {
        return Err(SolverError::SolverReported(msg));
    }
    values_from_sexp(first, want)
}

/// Parses a `get-model` reply (with or without the leading `model` keyword).
///
/// Z3 may leave out variables that no assertion constrains; those get
/// [`Value::default_for`] their sort, which is a correct completion of the model.
pub fn parse_model(text: &str, want: &[Var]) -> Result<Model> {
    let items = parse_all(text)?;
    let first = items.first().ok_or_else(|| malformed("empty get-model reply"))?;
    if let Some(msg) = error_message(first) {
        return Err(SolverError::SolverReported(msg));
    }
    let defs = first.list().ok_or_else(|| malformed("get-model reply is not a list"))?;
    let by_symbol = lookup(want);
    let mut model = Model::new();
    for d in defs {
        if d.atom() == Some("model") {
            continue;
        }
        match d.list() {
            Some([Sexp::Atom(kw), Sexp::Atom(name), Sexp::List(args), _sort, value])
                if kw == "define-fun" && args.is_empty() =>
            {
                if let Some(var) = by_symbol.get(name) {
                    model.insert(var, parse_value(value)?);
                }
            }
            // Functions with arguments and other entries are not variables of ours.
            Some(_) => {}
            None => return Err(malformed(format!("bad model entry {d:?}"))),
        }
    }
    for v in want {
        if model.get(v).is_none() {
            model.insert(v, Value::default_for(v.sort));
        }
    }
    Ok(model)
}

/// Parses one term in SMT-LIB2 syntax over the given variables (e.g. `(> (+ x 1) y)`).
/// `null` denotes the null reference. Sorts are not checked here; the solver checks them.
pub fn parse_term(text: &str, vars: &[Var]) -> Result<Term> {
    let items = parse_all(text)?;
    match items.as_slice() {
        [one] => {
            let by_name: BTreeMap<&str, &Var> = vars.iter().map(|v| (v.name.as_str(), v)).collect();
            term_from_sexp(one, &by_name)
        }
        _ => Err(malformed(format!("expected exactly one term in {text:?}"))),
    }
}

fn int_const(s: &Sexp) -> Option<i64> {
    match parse_value(s) {
        Ok(Value::Int(v)) => Some(v),
        _ => None,
    }
}

fn term_from_sexp(s: &Sexp, vars: &BTreeMap<&str, &Var>) -> Result<Term> {
    let l = match s {
        Sexp::Atom(a) => {
            return Ok(match a.as_str() {
                "true" => Term::Bool(true),
                "false" => Term::Bool(false),
                "null" => Term::Null,
                _ => match a.parse::<i64>() {
                    Ok(v) => Term::Int(v),
                    Err(_) => Term::Var(
                        (*vars
                            .get(a.as_str())
                            .ok_or_else(|| malformed(format!("unknown variable {a}")))?)
                        .clone(),
                    ),
                },
            })
        }
        Sexp::Str(_) => return Err(malformed("strings are not terms")),
        Sexp::List(l) => l,
    };
    let (op, args) = match l.split_first() {
        Some((Sexp::Atom(op), args)) => (op.as_str(), args),
        _ => return Err(malformed(format!("expected an operator in {s:?}"))),
    };
    let sub = |i: usize| -> Result<Term> {
        args.get(i)
            .ok_or_else(|| malformed(format!("missing argument of {op}")))
            .and_then(|a| term_from_sexp(a, vars))
    };
    let all = || -> Result<Vec<Term>> { args.iter().map(|a| term_from_sexp(a, vars)).collect() };
    let arity = |n: usize| -> Result<()> {
        if args.len() == n {
            Ok(())
        } else {
            Err(malformed(format!("{op} takes {n} arguments, got {}", args.len())))
        }
    };
    let constant = |i: usize| -> Result<i64> {
        args.get(i)
            .and_then(int_const)
            .ok_or_else(|| malformed(format!("{op} needs a constant argument (linear arithmetic)")))
    };
    let cmp = |c: CmpOp| -> Result<Term> {
        arity(2)?;
        Ok(Term::cmp(c, sub(0)?, sub(1)?))
    };
    Ok(match op {
        "+" => Term::Add(all()?),
        "-" if args.len() == 1 => match int_const(s) {
            Some(v) => Term::Int(v),
            None => Term::neg(sub(0)?),
        },
        "-" => {
            let mut ts = all()?.into_iter();
            let first = ts.next().ok_or_else(|| malformed("- needs arguments"))?;
            ts.fold(first, Term::sub)
        }
        "*" => {
            arity(2)?;
            match (int_const(&args[0]), int_const(&args[1])) {
                (Some(c), _) => Term::mul(c, sub(1)?),
                (None, Some(c)) => Term::mul(c, sub(0)?),
                (None, None) => {
                    return Err(malformed("* needs a constant factor (linear arithmetic)"))
                }
            }
        }
        "div" => {
            arity(2)?;
            Term::div(sub(0)?, constant(1)?)
        }
        "mod" => {
            arity(2)?;
            Term::modulo(sub(0)?, constant(1)?)
        }
        "<" => cmp(CmpOp::Lt)?,
        "<=" => cmp(CmpOp::Le)?,
        ">" => cmp(CmpOp::Gt)?,
        ">=" => cmp(CmpOp::Ge)?,
        "=" => {
            let ts = all()?;
            if ts.len() < 2 {
                return Err(malformed("= needs two arguments"));
            }
            let pairs = ts.windows(2).map(|w| Term::eq(w[0].clone(), w[1].clone()));
            let mut eqs: Vec<Term> = pairs.collect();
            if eqs.len() == 1 {
                eqs.pop().unwrap_or(Term::Bool(true))
            } else {
                Term::And(eqs)
            }
        }
        "distinct" => Term::Distinct(all()?),
        "not" => {
            arity(1)?;
            Term::not(sub(0)?)
        }
        "and" => Term::And(all()?),
        "or" => Term::Or(all()?),
        "=>" => {
            arity(2)?;
            Term::implies(sub(0)?, sub(1)?)
        }
        "ite" => {
            arity(3)?;
            Term::ite(sub(0)?, sub(1)?, sub(2)?)
        }
        _ => return Err(malformed(format!("unsupported operator {op}"))),
    })
}

/// The sort named in SMT-LIB2 / HeapLab JSON (`Bool`, `Int`, `Ref`).
pub fn parse_sort(name: &str) -> Result<Sort> {
    match name {
        "Bool" => Ok(Sort::Bool),
        "Int" => Ok(Sort::Int),
        "Ref" => Ok(Sort::Ref),
        _ => Err(malformed(format!("unknown sort {name} (expected Bool, Int or Ref)"))),
    }
}
