//! What HeapLab knows of the JDK: the exception classes course code throws and catches, with
//! their hierarchy, and the few library calls the subset lowers (`Math.max`, …).
//!
//! A thrown JDK exception becomes an ordinary HeapLab class of the same simple name (no fields),
//! so the engine's `exception` outcome names it; the hierarchy is used only to expand a `catch`
//! of a superclass into the classes it catches.

/// A JDK throwable: simple name, package, and superclass (simple name; `None` for `Throwable`).
pub struct JdkThrowable {
    pub name: &'static str,
    pub package: &'static str,
    pub superclass: Option<&'static str>,
}

/// The throwables of `java.lang` and `java.util` that course code uses.
pub const THROWABLES: &[JdkThrowable] = &[
    JdkThrowable { name: "Throwable", package: "java.lang", superclass: None },
    JdkThrowable { name: "Exception", package: "java.lang", superclass: Some("Throwable") },
    JdkThrowable { name: "Error", package: "java.lang", superclass: Some("Throwable") },
    JdkThrowable { name: "AssertionError", package: "java.lang", superclass: Some("Error") },
    JdkThrowable { name: "RuntimeException", package: "java.lang", superclass: Some("Exception") },
    JdkThrowable {
        name: "IllegalArgumentException",
        package: "java.lang",
        superclass: Some("RuntimeException"),
    },
    JdkThrowable {
        name: "NumberFormatException",
        package: "java.lang",
        superclass: Some("IllegalArgumentException"),
    },
    JdkThrowable {
        name: "IllegalStateException",
        package: "java.lang",
        superclass: Some("RuntimeException"),
    },
    JdkThrowable {
        name: "UnsupportedOperationException",
        package: "java.lang",
        superclass: Some("RuntimeException"),
    },
    JdkThrowable {
        name: "IndexOutOfBoundsException",
        package: "java.lang",
        superclass: Some("RuntimeException"),
    },
    JdkThrowable {
        name: "ArrayIndexOutOfBoundsException",
        package: "java.lang",
        superclass: Some("IndexOutOfBoundsException"),
    },
    JdkThrowable {
        name: "StringIndexOutOfBoundsException",
        package: "java.lang",
        superclass: Some("IndexOutOfBoundsException"),
    },
    JdkThrowable {
        name: "NullPointerException",
        package: "java.lang",
        superclass: Some("RuntimeException"),
    },
    JdkThrowable {
        name: "ArithmeticException",
        package: "java.lang",
        superclass: Some("RuntimeException"),
    },
    JdkThrowable {
        name: "ClassCastException",
        package: "java.lang",
        superclass: Some("RuntimeException"),
    },
    JdkThrowable {
        name: "NegativeArraySizeException",
        package: "java.lang",
        superclass: Some("RuntimeException"),
    },
    JdkThrowable {
        name: "ArrayStoreException",
        package: "java.lang",
        superclass: Some("RuntimeException"),
    },
    JdkThrowable {
        name: "NoSuchElementException",
        package: "java.util",
        superclass: Some("RuntimeException"),
    },
    JdkThrowable {
        name: "ConcurrentModificationException",
        package: "java.util",
        superclass: Some("RuntimeException"),
    },
    JdkThrowable {
        name: "EmptyStackException",
        package: "java.util",
        superclass: Some("RuntimeException"),
    },
];

/// The JDK throwable of this simple name.
pub fn throwable(name: &str) -> Option<&'static JdkThrowable> {
    THROWABLES.iter().find(|t| t.name == name)
}

/// The exceptions the JVM itself raises for what HeapLab reports as runtime errors (a null
/// dereference, a division by zero, an index out of bounds, a negative array size, a failed
/// `assert`). HeapLab ends the path with that outcome; it cannot be caught.
pub const RAISED_BY_THE_JVM: &[&str] = &[
    "NullPointerException",
    "ArithmeticException",
    "ArrayIndexOutOfBoundsException",
    "NegativeArraySizeException",
    "AssertionError",
];

/// Classes whose static methods and fields the subset evaluates or drops: printing is a no-op,
/// `Math` and `Integer` constants are lowered.
pub fn is_printing(object: &str, method: &str) -> bool {
    matches!(object, "System.out" | "System.err" | "StdOut")
        && matches!(method, "println" | "print" | "printf" | "format")
}

/// `Integer.MAX_VALUE` and friends, as `int` values.
pub fn int_constant(class: &str, field: &str) -> Option<i64> {
    match (class, field) {
        ("Integer", "MAX_VALUE") => Some(i64::from(i32::MAX)),
        ("Integer", "MIN_VALUE") => Some(i64::from(i32::MIN)),
        ("Short", "MAX_VALUE") => Some(i64::from(i16::MAX)),
        ("Short", "MIN_VALUE") => Some(i64::from(i16::MIN)),
        ("Byte", "MAX_VALUE") => Some(i64::from(i8::MAX)),
        ("Byte", "MIN_VALUE") => Some(i64::from(i8::MIN)),
        ("Character", "MAX_VALUE") => Some(0xFFFF),
        ("Character", "MIN_VALUE") => Some(0),
        _ => None,
    }
}

/// The `Math` functions the subset lowers to helper functions, with their arity.
pub const MATH_FUNCTIONS: &[(&str, usize)] = &[("max", 2), ("min", 2), ("abs", 1)];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_superclass_is_known_and_the_hierarchy_ends_at_throwable() {
        for t in THROWABLES {
            let mut seen = 0;
            let mut cur = t;
            while let Some(sup) = cur.superclass {
                cur =
                    throwable(sup).unwrap_or_else(|| panic!("{} has unknown super {sup}", t.name));
                seen += 1;
                assert!(seen < 10, "a cycle above {}", t.name);
            }
            assert_eq!(cur.name, "Throwable");
        }
    }
}
