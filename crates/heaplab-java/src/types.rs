//! Java types as the lowering sees them, and their erasure to HeapLab types.
//!
//! Generics are erased as javac erases them: a type parameter becomes its bound (`Object`, or
//! `Comparable` for `K extends Comparable<K>` and for a parameter the code compares or casts to
//! `Comparable`). `short`, `byte` and `char` are `int`s (the program runs under `ints java32`, or `ints java64`
//! with every `int` result wrapped to 32 bits when the file uses `long`).

use heaplab_syntax::ast::{Ident, TypeExpr};
use heaplab_syntax::Span;

/// A Java type after name resolution and erasure.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JType {
    /// `int`, `short`, `byte`, `char`: 32-bit two's complement in HeapLab.
    Int,
    /// `long`: 64-bit two's complement. A file that uses `long` runs under `ints java64`, and
    /// the lowering wraps each `int` result to 32 bits (see `Lowerer::wrap_int`).
    Long,
    Boolean,
    Void,
    /// The type of `null`.
    Null,
    /// A class of the file, by index into the collected classes.
    Class(usize),
    /// `java.lang.Object`, and an unbounded type parameter.
    Object,
    /// `Comparable`, and a type parameter bounded by it (or compared).
    Comparable,
    /// `java.util.Comparator`: HeapLab's built-in total order over `Comparable` elements.
    Comparator,
    /// A JDK throwable (`NoSuchElementException`), by simple name.
    Throwable(String),
    Array(Box<JType>),
    /// A type outside the subset (`double`, `String`, `Iterator<Item>`, …), as written.
    Unsupported(String),
}

impl JType {
    pub fn is_reference(&self) -> bool {
        matches!(
            self,
            JType::Null
                | JType::Class(_)
                | JType::Object
                | JType::Comparable
                | JType::Comparator
                | JType::Throwable(_)
        ) || matches!(self, JType::Array(_))
    }

    /// The first part of this type outside the subset, if any.
    pub fn unsupported(&self) -> Option<&str> {
        match self {
            JType::Unsupported(s) => Some(s),
            JType::Array(t) => t.unsupported(),
            _ => None,
        }
    }

    /// A value of type `self` can be stored where `target` is expected (Java's assignment
    /// conversion restricted to the subset: identity, `null` to a reference, nothing else, since
    /// HeapLab has no subtyping between a file's classes and `Object`).
    pub fn assignable_to(&self, target: &JType) -> bool {
        match (self, target) {
            (JType::Null, t) => t.is_reference(),
            // Widening primitive conversion: the same value, no code.
            (JType::Int, JType::Long) => true,
            (a, b) => a == b,
        }
    }
}

/// How the lowering names things in the HeapLab program (filled in by `decls`).
pub trait Names {
    fn class_name(&self, index: usize) -> &str;
}

/// The HeapLab type of a Java type of the subset, every span `span`.
pub fn erase(ty: &JType, names: &dyn Names, span: Span) -> Option<TypeExpr> {
    let class = |n: &str| TypeExpr::Class(Ident { name: n.to_string(), span });
    Some(match ty {
        JType::Int | JType::Long => TypeExpr::Int(span),
        JType::Boolean => TypeExpr::Bool(span),
        JType::Void => TypeExpr::Void(span),
        JType::Class(i) => class(names.class_name(*i)),
        JType::Object => class("Object"),
        JType::Comparable => class(heaplab_syntax::builtin::COMPARABLE),
        JType::Comparator => class(heaplab_syntax::builtin::COMPARATOR),
        JType::Throwable(n) => class(n),
        JType::Array(t) => {
            let elem = erase(t, names, span)?;
            if matches!(elem, TypeExpr::Array { .. } | TypeExpr::Void(_)) {
                return None;
            }
            TypeExpr::Array { elem: Box::new(elem), span }
        }
        JType::Null | JType::Unsupported(_) => return None,
    })
}

/// How a type is shown to a Java user (`Node`, `int[]`, `Object`).
pub fn display(ty: &JType, names: &dyn Names) -> String {
    match ty {
        JType::Int => "int".into(),
        JType::Long => "long".into(),
        JType::Boolean => "boolean".into(),
        JType::Void => "void".into(),
        JType::Null => "null".into(),
        JType::Class(i) => names.class_name(*i).into(),
        JType::Object => "Object".into(),
        JType::Comparable => "Comparable".into(),
        JType::Comparator => "Comparator".into(),
        JType::Throwable(n) => n.clone(),
        JType::Array(t) => format!("{}[]", display(t, names)),
        JType::Unsupported(s) => s.clone(),
    }
}
