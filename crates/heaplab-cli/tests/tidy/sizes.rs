//! Size budgets (issue 28): a source file of about 800 lines and a function of about 120 can
//! be read in one sitting. Longer ones are listed in `tidy.rs` with the reason they are long,
//! and a listed one that shrank below its budget must leave the list.

/// A function of the file: its name, first line (1-based) and length in lines.
pub struct FnSpan {
    pub name: String,
    pub line: usize,
    pub lines: usize,
}

/// The line with comments, string and character literals blanked (braces inside them are not
/// code). A line-level approximation: enough for rustfmt-formatted sources.
fn code_of(line: &str) -> String {
    let mut out = String::new();
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '/' if chars.peek() == Some(&'/') => break,
            '"' => {
                while let Some(d) = chars.next() {
                    if d == '\\' {
                        chars.next();
                    } else if d == '"' {
                        break;
                    }
                }
                out.push_str("\"\"");
            }
            '\'' => {
                // A char literal ('{', '\'') is blanked; a lifetime ('a) is kept as it is.
                let rest: String = chars.clone().take(3).collect();
                if rest.starts_with('\\') || rest.chars().nth(1) == Some('\'') {
                    let skip = if rest.starts_with('\\') { 3 } else { 2 };
                    for _ in 0..skip {
                        chars.next();
                    }
                    out.push_str("' '");
                } else {
                    out.push(c);
                }
            }
            _ => out.push(c),
        }
    }
    out
}

/// The name of the function a line declares (`fn name`, with any qualifiers before it).
fn declared_fn(code: &str) -> Option<String> {
    let mut words = code.split(|c: char| !(c.is_alphanumeric() || c == '_'));
    while let Some(w) = words.next() {
        if w == "fn" {
            let name = words.find(|w| !w.is_empty())?;
            return Some(name.to_string());
        }
        let qualifier = ["pub", "crate", "super", "const", "async", "unsafe", "extern", ""];
        if !qualifier.contains(&w) {
            return None;
        }
    }
    None
}

/// Every function with a body in `src`, from its `fn` line to its closing brace.
pub fn functions(src: &str) -> Vec<FnSpan> {
    let code: Vec<String> = src.lines().map(code_of).collect();
    let mut out = Vec::new();
    for (i, line) in code.iter().enumerate() {
        let Some(name) = declared_fn(line.trim_start()) else { continue };
        let mut depth = 0i64;
        let mut started = false;
        for (j, l) in code.iter().enumerate().skip(i) {
            for ch in l.chars() {
                match ch {
                    '{' => {
                        depth += 1;
                        started = true;
                    }
                    '}' => depth -= 1,
                    _ => {}
                }
            }
            if started && depth <= 0 {
                out.push(FnSpan { name: name.clone(), line: i + 1, lines: j - i + 1 });
                break;
            }
            if !started && l.trim_end().ends_with(';') {
                break;
            }
        }
    }
    out
}

/// The lines of the given files together (an unreadable file counts as empty).
pub fn total_lines(files: &[std::path::PathBuf]) -> usize {
    files.iter().map(|f| std::fs::read_to_string(f).unwrap_or_default().lines().count()).sum()
}
