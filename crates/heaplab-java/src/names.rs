//! Java names in the HeapLab program. A Java identifier is kept as it is unless HeapLab reads it
//! differently: a HeapLab keyword that is not a Java one (`result`, `old`, `test`, `pred`, …)
//! gets a trailing `_`, and a `$` or a non-ASCII letter becomes `_`, so the lowered program
//! prints as a `.hl` file that parses back.

/// HeapLab keywords that Java allows as identifiers.
const HL_ONLY_KEYWORDS: &[&str] = &[
    "pred", "pure", "test", "expects", "requires", "ensures", "exists", "emp", "bool", "assume",
    "result", "old",
];

/// The HeapLab spelling of a Java identifier.
pub fn ident(name: &str) -> String {
    let mut out: String =
        name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' }).collect();
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, '_');
    }
    if HL_ONLY_KEYWORDS.contains(&out.as_str()) {
        out.push('_');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::ident;

    #[test]
    fn java_names_that_heaplab_reads_otherwise_are_renamed() {
        assert_eq!(ident("first"), "first");
        assert_eq!(ident("result"), "result_");
        assert_eq!(ident("a$b"), "a_b");
        assert_eq!(ident("größe"), "gr__e");
    }
}
