//! Arrays: `new T[n]`, `new T[]{…}`, and bounds-checked `a[i]` reads and writes. An array is a
//! heap object whose fields are its cells (see [`Heap::alloc_array`](crate::interp::Heap)), so
//! it counts against the heap limit like any object: one cell for the array and one per element.

use super::{default_value, fail, internal, Machine, Step, Stop};
use crate::interp::outcome::{LimitKind, Outcome, RuntimeError};
use crate::interp::value::{ObjId, Value};
use heaplab_syntax::ast::{ErrorKind, Expr, ExprKind, NodeId, Stmt, StmtKind};
use heaplab_syntax::pretty::type_expr;
use heaplab_syntax::Span;

impl<'a> Machine<'a> {
    /// `a[i]`: the array and the index are on the value stack.
    pub(super) fn index_read(&mut self, e: &'a Expr) -> Step {
        let index = self.pop_int(e.span)?;
        let array = self.pop(e.span)?;
        let (id, i) = self.locate(array, index, e.span, e.id, "reading")?;
        match self.heap.cell(id, i) {
            Some(v) => {
                self.values.push(v);
                Ok(())
            }
            None => Err(internal(e.span, "array cell vanished")),
        }
    }

    /// `a[i] = v`: the array, the index and the value are on the value stack.
    pub(super) fn index_store(&mut self, s: &'a Stmt) -> Step {
        let StmtKind::IndexStore { .. } = &s.kind else {
            return Err(internal(s.span, "index-store continuation on another statement"));
        };
        let value = self.pop(s.span)?;
        let index = self.pop_int(s.span)?;
        let array = self.pop(s.span)?;
        let (id, i) = self.locate(array, index, s.span, s.id, "writing")?;
        if self.heap.set_cell(id, i, value) {
            Ok(())
        } else {
            Err(internal(s.span, "array cell vanished"))
        }
    }

    /// The array and cell `array[index]` names, or the run's error: null array, index out of
    /// bounds.
    fn locate(
        &self,
        array: Value,
        index: i64,
        span: Span,
        node: NodeId,
        verb: &str,
    ) -> Step<(ObjId, usize)> {
        let id = match array {
            Value::Ref(Some(id)) => id,
            Value::Ref(None) => {
                return Err(fail(
                    ErrorKind::NullDereference,
                    span,
                    node,
                    format!("{verb} cell {index} of a null array"),
                ));
            }
            other => return Err(internal(span, format!("indexing `{other}`"))),
        };
        let Some(len) = self.heap.array_len(id) else {
            return Err(internal(span, format!("indexing {id}, which is not an array")));
        };
        match usize::try_from(index) {
            Ok(i) if i < len => Ok((id, i)),
            _ => Err(fail(
                ErrorKind::IndexOutOfBounds,
                span,
                node,
                format!("{verb} cell {index} of an array of length {len}"),
            )),
        }
    }

    /// `new T[n]` (the length is on the value stack) or `new T[]{…}` (the elements are).
    pub(super) fn new_array(&mut self, e: &'a Expr) -> Step {
        let (elem, cells) = match &e.kind {
            ExprKind::NewArray { elem, .. } => {
                let n = self.pop_int(e.span)?;
                if n < 0 {
                    return Err(fail(
                        ErrorKind::NegativeArraySize,
                        e.span,
                        e.id,
                        format!("allocating an array of length {n}"),
                    ));
                }
                self.check_room(e, n.unsigned_abs())?;
                (elem, vec![default_value(elem); n as usize])
            }
            ExprKind::ArrayLit { elem, elems } => {
                let cells = self.pop_n(elems.len(), e.span)?;
                self.check_room(e, cells.len() as u64)?;
                (elem, cells)
            }
            _ => return Err(internal(e.span, "array continuation on another node")),
        };
        let id = self.heap.alloc_array(&type_expr(elem), cells);
        self.values.push(Value::Ref(Some(id)));
        Ok(())
    }

    /// The heap limit allows an array of `len` cells (checked before allocating anything).
    fn check_room(&self, e: &Expr, len: u64) -> Step {
        let cells = self.heap.cells().saturating_add(1).saturating_add(len);
        if cells <= self.limits.heap_cells {
            return Ok(());
        }
        Err(Stop::Outcome(Outcome::Error(RuntimeError {
            kind: ErrorKind::BoundExhausted,
            span: e.span,
            node: e.id,
            message: format!(
                "the heap limit of {} cells (objects and their fields) was reached when \
                 allocating an array of length {len} (Limits::heap_cells)",
                self.limits.heap_cells
            ),
            limit: Some(LimitKind::HeapCells),
        })))
    }
}
