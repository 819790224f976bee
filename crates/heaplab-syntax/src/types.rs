//! What the type checker learns about a program: the type of every expression and the
//! declarations every name resolves to. Later passes (interpreter, symbolic executor, logic)
//! read this instead of re-resolving names.

use crate::ast::NodeId;
use crate::span::Span;
use std::collections::HashMap;
use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    Int,
    Bool,
    Void,
    /// The type of the literal `null`; assignable to every class type.
    Null,
    Class(String),
    /// `T[]`: a reference to an array of `T`.
    Array(Box<Type>),
    /// Produced after an error, so one mistake does not cascade into many diagnostics.
    Error,
}

impl Type {
    pub fn is_reference(&self) -> bool {
        matches!(self, Type::Class(_) | Type::Array(_) | Type::Null)
    }

    /// The element type of an array type.
    pub fn elem(&self) -> Option<&Type> {
        match self {
            Type::Array(t) => Some(t),
            _ => None,
        }
    }

    /// `self` can be stored where `target` is expected.
    pub fn assignable_to(&self, target: &Type) -> bool {
        match (self, target) {
            (Type::Error, _) | (_, Type::Error) => true,
            (Type::Null, Type::Class(_) | Type::Array(_)) => true,
            (a, b) => a == b,
        }
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Type::Int => write!(f, "int"),
            Type::Bool => write!(f, "bool"),
            Type::Void => write!(f, "void"),
            Type::Null => write!(f, "null"),
            Type::Class(c) => write!(f, "{c}"),
            Type::Array(t) => write!(f, "{t}[]"),
            Type::Error => write!(f, "<error>"),
        }
    }
}

/// Where a call expression goes, as resolved by the checker.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CallTarget {
    /// A top-level function, by name.
    Function(String),
    /// A method of a class: `class`, `method`. For a bare call inside a class the receiver is
    /// `this`.
    Method { class: String, method: String },
    /// A predicate instance (only in formulas).
    Predicate(String),
}

/// Facts about a checked program, keyed by `NodeId` of expressions.
#[derive(Clone, Debug, Default)]
pub struct ProgramInfo {
    /// The static type of each expression that was checked.
    pub expr_types: HashMap<NodeId, Type>,
    /// The resolution of each `Call` / `MethodCall` expression.
    pub calls: HashMap<NodeId, CallTarget>,
    /// For each class, its fields in declaration order with their types.
    pub class_fields: HashMap<String, Vec<(String, Type)>>,
    /// The resolution of each `Atom::Pred` in a formula, keyed by the atom's span (atoms have no
    /// `NodeId`): `Predicate(p)`, or `Function(f)` / `Method { .. }` when the bare call names a
    /// `pure bool` function used as a pure fact. Unresolved atoms (errors) are absent.
    pub atom_targets: HashMap<Span, CallTarget>,
}

impl ProgramInfo {
    pub fn type_of(&self, id: NodeId) -> Option<&Type> {
        self.expr_types.get(&id)
    }

    pub fn field_type(&self, class: &str, field: &str) -> Option<&Type> {
        self.class_fields.get(class)?.iter().find(|(f, _)| f == field).map(|(_, t)| t)
    }
}
