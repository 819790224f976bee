//! What the rest of HeapLab needs to know about the Java file behind a lowered program: the
//! Java names of its classes, fields and methods (to show them, and to write JUnit tests that
//! build inputs for the original class by reflection), which methods were left out and why,
//! and the messages of the exceptions it throws.

use heaplab_syntax::Span;

#[derive(Clone, Debug, Default)]
pub struct JavaMap {
    /// `package a.b;` of the file.
    pub package: Option<String>,
    pub classes: Vec<JavaClass>,
    /// Every method and constructor of the file's classes, explorable or not.
    pub methods: Vec<JavaMethod>,
    /// JDK exception classes of the program: HeapLab name (the simple name) and the Java
    /// class (`java.util.NoSuchElementException`).
    pub jdk_exceptions: Vec<(String, String)>,
    /// The message of each `throw` and `assert` statement, by the statement's span.
    pub messages: Vec<(Span, String)>,
}

#[derive(Clone, Debug)]
pub struct JavaClass {
    /// Its name in the HeapLab program.
    pub lowered: String,
    /// Its simple Java name.
    pub name: String,
    /// As Java source names it from outside (`LinkedStack.Node`).
    pub source_name: String,
    /// As `Class.forName` takes it (`pkg.LinkedStack$Node`).
    pub binary_name: String,
    /// A non-static nested class (an inner class has a hidden reference to its outer object).
    pub is_inner: bool,
    pub is_throwable: bool,
    /// Its instance fields in the subset, in declaration order (inherited ones first).
    pub fields: Vec<JavaField>,
    /// In a class hierarchy (one HeapLab class, see [`TAG_FIELD`]): the number a concrete
    /// class's objects hold in the tag field (`None` for an abstract class).
    pub tag: Option<i64>,
    /// In a class hierarchy: whether it is abstract (never the class of an object).
    pub is_abstract: bool,
}

pub use crate::hierarchy::TAG_FIELD;

#[derive(Clone, Debug)]
pub struct JavaField {
    pub name: String,
    pub lowered: String,
    /// Java's erasure of its declared type (what reflection sees).
    pub ty: JavaType,
}

/// A Java type after Java's own erasure (declared bounds, not HeapLab's inferences): what the
/// JVM sees, so what test code must create and pass.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JavaType {
    /// `int`, `char`, `short` or `byte`.
    Int(String),
    Boolean,
    Void,
    Object,
    Comparable,
    /// `java.util.Comparator`.
    Comparator,
    /// A class of the file: its binary name (`pkg.Outer$Inner`) and as source names it.
    Class {
        binary: String,
        source: String,
    },
    /// A JDK exception, by its full name.
    Throwable(String),
    Array(Box<JavaType>),
}

impl JavaType {
    /// How Java source writes it (`int`, `Object[]`, `LinkedStack.Node`).
    pub fn source(&self) -> String {
        match self {
            JavaType::Int(p) => p.clone(),
            JavaType::Boolean => "boolean".into(),
            JavaType::Void => "void".into(),
            JavaType::Object => "Object".into(),
            JavaType::Comparable => "Comparable".into(),
            JavaType::Comparator => "java.util.Comparator".into(),
            JavaType::Class { source, .. } => source.clone(),
            JavaType::Throwable(n) => n.clone(),
            JavaType::Array(t) => format!("{}[]", t.source()),
        }
    }
}

#[derive(Clone, Debug)]
pub struct JavaMethod {
    /// The class's simple Java name.
    pub class: String,
    /// The class's HeapLab name.
    pub lowered_class: String,
    /// The Java name (the class name for a constructor).
    pub name: String,
    /// `push(Item)`, for messages.
    pub signature: String,
    /// What a run names: `Class.method` for an instance method, the function name for a
    /// static method or a constructor's factory.
    pub target: String,
    pub is_static: bool,
    pub is_ctor: bool,
    pub has_spec: bool,
    /// Why HeapLab cannot explore it, when it cannot.
    pub left_out: Option<String>,
    /// Parameter names and Java erased types.
    pub params: Vec<(String, JavaType)>,
    /// Java erased return type (`void` for a constructor).
    pub ret: JavaType,
    /// Its name in the Java text (where a left-out method, absent from the lowered program,
    /// is shown).
    pub name_span: Span,
}

impl JavaMap {
    pub fn class(&self, lowered: &str) -> Option<&JavaClass> {
        self.classes.iter().find(|c| c.lowered == lowered && !c.is_abstract)
    }

    /// The Java class of an object of HeapLab class `lowered` whose tag field holds `tag`: in a
    /// class hierarchy the concrete class with that number, the first one (number 0) for any
    /// number no other class has; otherwise the one class.
    pub fn class_tagged(&self, lowered: &str, tag: Option<i64>) -> Option<&JavaClass> {
        let mut same = self.classes.iter().filter(|c| c.lowered == lowered && c.tag.is_some());
        if same.clone().next().is_none() {
            return self.class(lowered);
        }
        same.clone().find(|c| c.tag == tag).or_else(|| same.find(|c| c.tag == Some(0)))
    }

    /// The method a lowered target names.
    pub fn method(&self, target: &str) -> Option<&JavaMethod> {
        self.methods.iter().find(|m| m.target == target)
    }

    /// The methods a run can start from (explorable Java methods, not constructors).
    pub fn targets(&self) -> Vec<&JavaMethod> {
        self.methods.iter().filter(|m| !m.is_ctor && m.left_out.is_none()).collect()
    }

    /// Why `name` names nothing, with what it could have named: the overloads of a method of
    /// that name (a signature written with other type names), else every method a run can
    /// start from.
    fn no_such_method(&self, name: &str, method: &str) -> String {
        let show = |m: &&JavaMethod| format!("{}.{}", m.class, m.signature);
        let same_name: Vec<String> = self
            .methods
            .iter()
            .filter(|m| !m.is_ctor && m.name == method)
            .map(|m| show(&m))
            .collect();
        if !same_name.is_empty() {
            return format!(
                "no method `{name}` in this Java file; `{method}` is {}",
                same_name.join(", ")
            );
        }
        let all: Vec<String> = self.targets().iter().map(show).collect();
        match all.is_empty() {
            true => format!("no method `{name}` in this Java file, and none it can explore"),
            false => {
                format!("no method `{name}` in this Java file; its methods: {}", all.join(", "))
            }
        }
    }

    /// Finds what a user names with `--method`: `Class.method` (or just `method`), or a
    /// lowered overload name (`Class.put_3`), or `Class.method(Type, …)`. `Err` says why not
    /// (unknown, ambiguous with the candidates, or left out with its reason).
    pub fn find_target(&self, name: &str) -> Result<&JavaMethod, String> {
        let compact: String = name.chars().filter(|c| !c.is_whitespace()).collect();
        let (cls, rest) = match compact.split_once('.') {
            Some((c, r)) => (Some(c), r),
            None => (None, compact.as_str()),
        };
        let (mname, sig) = match rest.split_once('(') {
            Some((m, s)) => (m, Some(format!("{m}({s}").replace(' ', ""))),
            None => (rest, None),
        };
        let named = |m: &&JavaMethod| {
            let lowered = m.target.rsplit('.').next().unwrap_or(&m.target);
            !m.is_ctor
                && match &sig {
                    Some(s) => m.name == mname && m.signature.replace(' ', "") == *s,
                    None => m.name == mname || lowered == mname,
                }
        };
        // The Java class named first; its HeapLab name (which a class hierarchy's members
        // share) only when no Java class matches.
        let mut cands: Vec<&JavaMethod> = self
            .methods
            .iter()
            .filter(named)
            .filter(|m| cls.is_none_or(|c| m.class == c))
            .collect();
        if cands.is_empty() {
            cands = self
                .methods
                .iter()
                .filter(named)
                .filter(|m| cls.is_some_and(|c| m.lowered_class == c))
                .collect();
        }
        let exact: Vec<&JavaMethod> =
            cands.iter().copied().filter(|m| m.target.rsplit('.').next() == Some(mname)).collect();
        // Of overloads, the one a spec was written for is the one meant (the public `put`,
        // not its recursive helper).
        let with_spec: Vec<&JavaMethod> = cands.iter().copied().filter(|m| m.has_spec).collect();
        let chosen = match (cands.as_slice(), exact.as_slice(), with_spec.as_slice()) {
            ([one], _, _) | (_, [one], _) | (_, _, [one]) => *one,
            ([], _, _) => return Err(self.no_such_method(name, mname)),
            (many, _, _) => {
                let list: Vec<String> = many
                    .iter()
                    .map(|m| format!("{}.{} (or {})", m.class, m.signature, m.target))
                    .collect();
                return Err(format!("`{name}` is overloaded: name one of {}", list.join(", ")));
            }
        };
        match &chosen.left_out {
            Some(why) => {
                Err(format!("`{}.{}` cannot be explored: {why}", chosen.class, chosen.signature))
            }
            None => Ok(chosen),
        }
    }
}
