//! `heaplab exec FILE --call 'EXPR'`: evaluates one expression on a fresh heap.
//!
//! The file goes through the checker; the `--call` text is only parsed, so what the checker
//! would reject in it and the interpreter would silently accept (a field initialized twice,
//! `old`, `result` or `_` outside a contract) is rejected here first ([`call_diagnostics`]).

use super::{load, report, Format};
use heaplab_engine::{eval_call, Limits, Outcome};
use heaplab_report::{ExecReport, OutcomeReport, SCHEMA_VERSION};
use heaplab_syntax::ast::{Expr, ExprKind};
use heaplab_syntax::diagnostic::render_all;
use heaplab_syntax::parser::parse_expr_with_base;
use heaplab_syntax::{Diagnostic, SourceFile};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// The source file (.hl or .java) whose functions and classes the expression may use.
    file: PathBuf,
    /// The expression to evaluate, e.g. 'len(new Node { elem: 1 })'.
    #[arg(long)]
    call: String,
    /// Also print the final heap.
    #[arg(long)]
    heap: bool,
    /// Interpreter step limit.
    #[arg(long, default_value_t = Limits::default().steps)]
    steps: u64,
    /// Output format: the value (or the failure) as text, or an `ExecReport` JSON document.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

/// Node ids of the `--call` expression start here, far above any id the file's parse uses.
const CALL_ID_BASE: u32 = 1_000_000_000;

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let loaded = load(&args.file)?;
    if report(&loaded) {
        return Ok(ExitCode::FAILURE);
    }
    let call_file = SourceFile::new("--call", args.call.clone());
    let (expr, diags) = parse_expr_with_base(&args.call, CALL_ID_BASE);
    if !diags.is_empty() {
        eprint!("{}", render_all(&diags, &call_file));
    }
    let Some(expr) = expr.filter(|_| !diags.iter().any(|d| d.is_error())) else {
        return Ok(ExitCode::FAILURE);
    };
    let problems = call_diagnostics(&expr);
    if !problems.is_empty() {
        eprint!("{}", render_all(&problems, &call_file));
        return Ok(ExitCode::FAILURE);
    }
    let limits = Limits { steps: args.steps, ..Limits::default() };
    let evaluated = eval_call(&loaded.analysis.program, &loaded.analysis.info, &expr, limits);
    let (outcome, heap) = match evaluated {
        Ok(result) => result,
        // The file passed the checker, so a name the interpreter cannot resolve comes from the
        // unchecked `--call` text: report it there, as a diagnostic a user can act on.
        Err(heaplab_engine::Error::Internal { span, message }) => {
            eprint!("{}", Diagnostic::error(span, message).render(&call_file));
            return Ok(ExitCode::FAILURE);
        }
        Err(other) => return Err(other.into()),
    };
    let source = if outcome.span().is_some_and(|s| s.start < args.call.len() as u32)
        && outcome.node_id().is_some_and(|id| id.0 >= CALL_ID_BASE)
    {
        &call_file
    } else {
        &loaded.file
    };
    let (text, code) = match &outcome {
        Outcome::Returned(value) => (heap.display_value(value), ExitCode::SUCCESS),
        other => (other.describe(source), ExitCode::FAILURE),
    };
    if args.format == Format::Json {
        let report = ExecReport {
            schema_version: SCHEMA_VERSION,
            file: loaded.file.name.clone(),
            call: args.call.clone(),
            value: matches!(outcome, Outcome::Returned(_)).then(|| text.clone()),
            outcome: OutcomeReport::of_run(&outcome, text, source),
            heap: args.heap.then(|| heap.render()),
        };
        super::print_json(&report)?;
        return Ok(code);
    }
    crate::say!("{text}");
    if args.heap {
        use std::io::Write as _;
        let _ = write!(std::io::stdout(), "{}", heap.render());
    }
    Ok(code)
}

/// What the checker would reject in a `--call` expression and the interpreter would not.
pub fn call_diagnostics(expr: &Expr) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    walk(expr, &mut out);
    out
}

fn walk(e: &Expr, out: &mut Vec<Diagnostic>) {
    match &e.kind {
        ExprKind::Old(_) => out.push(Diagnostic::error(
            e.span,
            "`old(..)` is only allowed in an `ensures` clause, not in `--call`",
        )),
        ExprKind::Result => out.push(Diagnostic::error(
            e.span,
            "`result` is only allowed in an `ensures` clause, not in `--call`",
        )),
        ExprKind::Wildcard => {
            out.push(Diagnostic::error(e.span, "`_` is only allowed in a formula, not in `--call`"))
        }
        ExprKind::New { class, fields } => {
            for (i, init) in fields.iter().enumerate() {
                if fields[..i].iter().any(|f| f.field.name == init.field.name) {
                    out.push(Diagnostic::error(
                        init.field.span,
                        format!(
                            "field `{}` is initialized twice in `new {} {{ .. }}`",
                            init.field.name, class.name
                        ),
                    ));
                }
            }
        }
        _ => {}
    }
    match &e.kind {
        ExprKind::Field { object, .. } => walk(object, out),
        ExprKind::Unary { operand, .. } => walk(operand, out),
        ExprKind::Binary { lhs, rhs, .. } => {
            walk(lhs, out);
            walk(rhs, out);
        }
        ExprKind::Cond { cond, then_expr, else_expr } => {
            walk(cond, out);
            walk(then_expr, out);
            walk(else_expr, out);
        }
        ExprKind::Call { args, .. } => args.iter().for_each(|a| walk(a, out)),
        ExprKind::MethodCall { receiver, args, .. } => {
            walk(receiver, out);
            args.iter().for_each(|a| walk(a, out));
        }
        ExprKind::New { fields, .. } => fields.iter().for_each(|f| walk(&f.value, out)),
        ExprKind::Old(inner) => walk(inner, out),
        _ => {}
    }
}
