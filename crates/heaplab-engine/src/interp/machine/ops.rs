//! Heap and arithmetic operations: field reads and writes, `new`, unary and binary operators
//! (with Java's overflow and division rules).

use super::{default_value, fail, internal, Machine, Step, Stop};
use crate::interp::outcome::{LimitKind, Outcome, RuntimeError};
use crate::interp::value::Value;
use heaplab_syntax::ast::{BinOp, ErrorKind, Expr, ExprKind, Ints, Stmt, StmtKind, UnOp};

impl<'a> Machine<'a> {
    pub(super) fn field_read(&mut self, e: &'a Expr) -> Step {
        let ExprKind::Field { field, .. } = &e.kind else {
            return Err(internal(e.span, "field continuation on a non-field node"));
        };
        let v = match self.pop(e.span)? {
            Value::Ref(Some(id)) if self.heap.array_len(id).is_some() => {
                Value::Int(self.heap.array_len(id).unwrap_or(0) as i64)
            }
            Value::Ref(Some(id)) => match self.heap.field(id, &field.name) {
                Some(v) => v,
                None => {
                    return Err(internal(
                        e.span,
                        format!(
                            "{} has no field `{}`",
                            self.heap.display_value(&Value::Ref(Some(id))),
                            field.name
                        ),
                    ));
                }
            },
            Value::Ref(None) => {
                return Err(fail(
                    ErrorKind::NullDereference,
                    e.span,
                    e.id,
                    format!("reading field `{}` of null", field.name),
                ));
            }
            other => return Err(internal(e.span, format!("reading a field of `{other}`"))),
        };
        self.values.push(v);
        Ok(())
    }

    pub(super) fn field_store(&mut self, s: &'a Stmt) -> Step {
        let StmtKind::FieldStore { field, .. } = &s.kind else {
            return Err(internal(s.span, "field-store continuation on another statement"));
        };
        let value = self.pop(s.span)?;
        match self.pop(s.span)? {
            Value::Ref(Some(id)) => {
                if self.heap.set_field(id, &field.name, value) {
                    Ok(())
                } else {
                    Err(internal(
                        s.span,
                        format!(
                            "{} has no field `{}`",
                            self.heap.display_value(&Value::Ref(Some(id))),
                            field.name
                        ),
                    ))
                }
            }
            Value::Ref(None) => Err(fail(
                ErrorKind::NullDereference,
                s.span,
                s.id,
                format!("writing field `{}` of null", field.name),
            )),
            other => Err(internal(s.span, format!("writing a field of `{other}`"))),
        }
    }

    pub(super) fn new_object(&mut self, e: &'a Expr) -> Step {
        let ExprKind::New { class, fields } = &e.kind else {
            return Err(internal(e.span, "`new` continuation on another node"));
        };
        let values = self.pop_n(fields.len(), e.span)?;
        let Some(decl) = self.tables.classes.get(class.name.as_str()) else {
            return Err(internal(class.span, format!("unknown class `{}`", class.name)));
        };
        let mut slots: Vec<(String, Value)> =
            decl.fields.iter().map(|f| (f.name.name.clone(), default_value(&f.ty))).collect();
        for (init, value) in fields.iter().zip(values) {
            match slots.iter_mut().find(|(n, _)| *n == init.field.name) {
                Some(slot) => slot.1 = value,
                None => {
                    return Err(internal(
                        init.field.span,
                        format!("class `{}` has no field `{}`", class.name, init.field.name),
                    ));
                }
            }
        }
        let cells = self.heap.cells().saturating_add(1 + slots.len() as u64);
        if cells > self.limits.heap_cells {
            return Err(Stop::Outcome(Outcome::Error(RuntimeError {
                kind: ErrorKind::BoundExhausted,
                span: e.span,
                node: e.id,
                message: format!(
                    "the heap limit of {} cells (objects and their fields) was reached when \
                     allocating a `{}` (Limits::heap_cells)",
                    self.limits.heap_cells, class.name
                ),
                limit: Some(LimitKind::HeapCells),
            })));
        }
        let id = self.heap.alloc(class.name.clone(), slots);
        self.values.push(Value::Ref(Some(id)));
        Ok(())
    }

    pub(super) fn unary(&mut self, e: &'a Expr) -> Step {
        let ExprKind::Unary { op, .. } = &e.kind else {
            return Err(internal(e.span, "unary continuation on another node"));
        };
        let v = match op {
            UnOp::Neg => {
                let n = self.pop_int(e.span)?;
                let ints = self.tables.ints;
                match n.checked_neg() {
                    _ if ints != Ints::Checked => Value::Int(ints.wrap(-i128::from(n))),
                    Some(m) => Value::Int(m),
                    None => {
                        return Err(fail(
                            ErrorKind::IntegerOverflow,
                            e.span,
                            e.id,
                            format!("-({n}) leaves the int range"),
                        ));
                    }
                }
            }
            UnOp::Not => Value::Bool(!self.pop_bool(e.span)?),
        };
        self.values.push(v);
        Ok(())
    }

    pub(super) fn binary(&self, e: &Expr, op: BinOp, lhs: Value, rhs: Value) -> Step<Value> {
        let sym = op.symbol();
        match op {
            BinOp::Eq | BinOp::Ne => {
                let same = match (lhs, rhs) {
                    (Value::Int(_), Value::Int(_))
                    | (Value::Bool(_), Value::Bool(_))
                    | (Value::Ref(_), Value::Ref(_)) => lhs == rhs,
                    _ => {
                        return Err(internal(
                            e.span,
                            format!("cannot compare `{lhs}` {sym} `{rhs}`"),
                        ));
                    }
                };
                Ok(Value::Bool(same == (op == BinOp::Eq)))
            }
            BinOp::And | BinOp::Or => match (lhs, rhs) {
                (Value::Bool(a), Value::Bool(b)) => {
                    Ok(Value::Bool(if op == BinOp::And { a && b } else { a || b }))
                }
                _ => Err(internal(e.span, format!("`{sym}` needs two bools"))),
            },
            _ => {
                let (Value::Int(a), Value::Int(b)) = (lhs, rhs) else {
                    return Err(internal(
                        e.span,
                        format!("`{sym}` needs two ints, got `{lhs}` and `{rhs}`"),
                    ));
                };
                let overflow = || {
                    fail(
                        ErrorKind::IntegerOverflow,
                        e.span,
                        e.id,
                        format!("{a} {sym} {b} leaves the int range"),
                    )
                };
                let div_zero = || {
                    fail(
                        ErrorKind::DivisionByZero,
                        e.span,
                        e.id,
                        format!("{a} {sym} 0 divides by zero"),
                    )
                };
                let ints = self.tables.ints;
                if ints != Ints::Checked {
                    return wrapping(ints, op, a, b).ok_or_else(div_zero);
                }
                let v = match op {
                    BinOp::Add => Value::Int(a.checked_add(b).ok_or_else(overflow)?),
                    BinOp::Sub => Value::Int(a.checked_sub(b).ok_or_else(overflow)?),
                    BinOp::Mul => Value::Int(a.checked_mul(b).ok_or_else(overflow)?),
                    BinOp::Div if b == 0 => return Err(div_zero()),
                    // Truncates toward zero, as in Java; only i64::MIN / -1 overflows.
                    BinOp::Div => Value::Int(a.checked_div(b).ok_or_else(overflow)?),
                    BinOp::Mod if b == 0 => return Err(div_zero()),
                    // Sign of the dividend, as in Java; i64::MIN % -1 is 0 (in range).
                    BinOp::Mod => Value::Int(a.wrapping_rem(b)),
                    // The checker keeps shift amounts to literals in 0..=62.
                    BinOp::Shl | BinOp::Shr if !(0..=62).contains(&b) => {
                        return Err(internal(e.span, "shift amount out of range"));
                    }
                    BinOp::Shl => Value::Int(a.checked_mul(1 << b).ok_or_else(overflow)?),
                    // Arithmetic shift: rounds toward negative infinity, as Java's `>>`.
                    BinOp::Shr => Value::Int(a >> b),
                    BinOp::Lt => Value::Bool(a < b),
                    BinOp::Le => Value::Bool(a <= b),
                    BinOp::Gt => Value::Bool(a > b),
                    BinOp::Ge => Value::Bool(a >= b),
                    BinOp::Eq | BinOp::Ne | BinOp::And | BinOp::Or => {
                        return Err(internal(e.span, "unreachable operator"));
                    }
                };
                Ok(v)
            }
        }
    }
}

/// `a op b` under a wrapping semantics (`java32` / `java64`): the exact result, reduced to the
/// width in two's complement, as Java's `int` / `long`. `None`: division by zero. A shift
/// amount is masked to the width, as in Java (`x << 33` on an `int` is `x << 1`).
fn wrapping(ints: Ints, op: BinOp, a: i64, b: i64) -> Option<Value> {
    let (a128, b128) = (i128::from(a), i128::from(b));
    let bits = i64::from(ints.wrap_bits().unwrap_or(64));
    let exact = match op {
        BinOp::Add => a128 + b128,
        BinOp::Sub => a128 - b128,
        BinOp::Mul => a128 * b128,
        BinOp::Div | BinOp::Mod if b == 0 => return None,
        BinOp::Div => a128 / b128,
        BinOp::Mod => a128 % b128,
        BinOp::Shl => a128 << (b & (bits - 1)),
        BinOp::Shr => a128 >> (b & (bits - 1)),
        BinOp::Lt => return Some(Value::Bool(a < b)),
        BinOp::Le => return Some(Value::Bool(a <= b)),
        BinOp::Gt => return Some(Value::Bool(a > b)),
        BinOp::Ge => return Some(Value::Bool(a >= b)),
        BinOp::Eq | BinOp::Ne | BinOp::And | BinOp::Or => return None,
    };
    Some(Value::Int(ints.wrap(exact)))
}
