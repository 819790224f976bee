//! The tree-sitter side: parsing a `.java` file, reading node text and spans, and turning the
//! grammar's error recovery (ERROR and MISSING nodes) into diagnostics a student can act on.

use heaplab_syntax::{Diagnostic, Span};
use tree_sitter::{Node, Parser, Tree};

/// Parses Java text. `None` only if the grammar cannot be loaded (a build problem, reported as
/// a diagnostic by the caller).
pub fn parse(text: &str) -> Option<Tree> {
    let mut parser = Parser::new();
    parser.set_language(&tree_sitter_java::LANGUAGE.into()).ok()?;
    parser.parse(text, None)
}

pub fn span_of(node: &Node) -> Span {
    Span::new(node.start_byte(), node.end_byte())
}

pub fn text_of<'a>(node: &Node, text: &'a str) -> &'a str {
    text.get(node.start_byte()..node.end_byte()).unwrap_or("")
}

/// How many syntax errors are reported before the rest are summarised.
const MAX_SYNTAX_ERRORS: usize = 20;

/// One diagnostic per place where the grammar had to recover, innermost first, at most
/// [`MAX_SYNTAX_ERRORS`].
pub fn syntax_errors(root: Node, text: &str) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    if !root.has_error() {
        return out;
    }
    let mut stack = vec![root];
    let mut seen = 0usize;
    while let Some(node) = stack.pop() {
        if node.is_missing() {
            seen += 1;
            if out.len() < MAX_SYNTAX_ERRORS {
                out.push(missing(node, text));
            }
            continue;
        }
        if node.is_error() {
            seen += 1;
            if out.len() < MAX_SYNTAX_ERRORS {
                out.push(unexpected(node, text));
            }
            continue;
        }
        if !node.has_error() {
            continue;
        }
        let mut cursor = node.walk();
        let children: Vec<Node> = node.children(&mut cursor).collect();
        stack.extend(children.into_iter().rev());
    }
    if seen > out.len() {
        if let Some(last) = out.last().map(|d| d.span) {
            out.push(Diagnostic::error(
                last,
                format!("{} more syntax errors not shown", seen - out.len()),
            ));
        }
    }
    out
}

fn missing(node: Node, _text: &str) -> Diagnostic {
    let what = node.kind();
    // A missing token sits where it was expected: point at the end of the previous token.
    let at = node.start_byte();
    let span = Span::new(at, at);
    let shown = if what.chars().all(|c| c.is_ascii_punctuation()) || what.len() <= 2 {
        format!("`{what}`")
    } else {
        human_kind(what).to_string()
    };
    Diagnostic::error(span, format!("expected {shown}"))
}

fn unexpected(node: Node, text: &str) -> Diagnostic {
    let span = span_of(&node);
    let snippet: String =
        text_of(&node, text).split_whitespace().next().unwrap_or("").chars().take(30).collect();
    let mut d = if snippet.is_empty() {
        Diagnostic::error(span, "syntax error")
    } else {
        Diagnostic::error(
            Span::new(node.start_byte(), node.start_byte() + snippet.len()),
            format!("syntax error at `{snippet}`"),
        )
    };
    if let Some(parent) = node.parent() {
        let inside = human_kind(parent.kind());
        if !inside.is_empty() && parent.kind() != "program" {
            d = d.with_note(format!("while reading {inside}"));
        }
    }
    d
}

/// Grammar node kinds in words.
pub fn human_kind(kind: &str) -> &str {
    match kind {
        "identifier" => "a name",
        "block" => "a block `{ … }`",
        "class_body" => "a class body",
        "method_declaration" => "a method",
        "constructor_declaration" => "a constructor",
        "field_declaration" => "a field declaration",
        "local_variable_declaration" => "a variable declaration",
        "expression_statement" => "a statement",
        "formal_parameters" => "a parameter list",
        "argument_list" => "the arguments of a call",
        "if_statement" => "an `if` statement",
        "for_statement" => "a `for` loop",
        "while_statement" => "a `while` loop",
        "class_declaration" => "a class",
        "binary_expression" => "an expression",
        "parenthesized_expression" => "a parenthesized expression",
        _ => "",
    }
}
