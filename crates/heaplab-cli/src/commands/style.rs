//! How the CLI talks: `-q` / `-v` and colour (`--color auto|always|never`, `NO_COLOR`), set once
//! from the global flags before a command runs, read wherever something is printed. Colour is
//! ANSI, as cargo and ripgrep print it: only on a terminal (`auto`), never when `NO_COLOR` is set
//! to anything (`auto`), always or never when asked.

use std::io::IsTerminal;
use std::sync::OnceLock;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorChoice {
    /// Colour on a terminal unless `NO_COLOR` is set.
    #[default]
    Auto,
    Always,
    Never,
}

/// How much to say.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Verbosity {
    /// `-q`: results and errors only (no progress line, no warnings, no notes).
    Quiet,
    #[default]
    Normal,
    /// `-v`: also the bounds in effect before a run starts.
    Verbose,
}

#[derive(Clone, Copy, Debug)]
struct Output {
    verbosity: Verbosity,
    color_stdout: bool,
    color_stderr: bool,
}

static OUTPUT: OnceLock<Output> = OnceLock::new();

/// Sets how this process prints (once, from the global flags).
pub fn set(verbosity: Verbosity, color: ColorChoice) {
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    let dumb = std::env::var("TERM").is_ok_and(|t| t == "dumb");
    let on = |terminal: bool| match color {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => terminal && !no_color && !dumb,
    };
    let _ = OUTPUT.set(Output {
        verbosity,
        color_stdout: on(std::io::stdout().is_terminal()),
        color_stderr: on(std::io::stderr().is_terminal()),
    });
}

fn output() -> Output {
    OUTPUT.get().copied().unwrap_or(Output {
        verbosity: Verbosity::Normal,
        color_stdout: false,
        color_stderr: false,
    })
}

pub fn quiet() -> bool {
    output().verbosity == Verbosity::Quiet
}

pub fn verbose() -> bool {
    output().verbosity == Verbosity::Verbose
}

/// What a piece of text is, for its colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tone {
    Error,
    Warning,
    Good,
}

impl Tone {
    fn ansi(self) -> &'static str {
        match self {
            Tone::Error => "\x1b[1;31m",
            Tone::Warning => "\x1b[1;33m",
            Tone::Good => "\x1b[32m",
        }
    }
}

/// Where the text goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stream {
    Stdout,
    Stderr,
}

fn colored(stream: Stream) -> bool {
    let o = output();
    match stream {
        Stream::Stdout => o.color_stdout,
        Stream::Stderr => o.color_stderr,
    }
}

/// `text` in `tone` when `stream` is coloured.
pub fn paint(stream: Stream, tone: Tone, text: &str) -> String {
    match colored(stream) {
        true => format!("{}{text}\x1b[0m", tone.ansi()),
        false => text.to_string(),
    }
}

/// Rendered diagnostics (`file:line:col: error: …`, the source line, the `^^^` marker, `= note`
/// lines) for stderr: the severity and its marker in its colour. Under `-q`, warnings are left
/// out (errors are results).
pub fn diagnostics(rendered: &str) -> String {
    let mut out = String::new();
    let mut tone = None;
    let mut keep = true;
    for line in rendered.split_inclusive('\n') {
        let header = [(": error: ", Tone::Error), (": warning: ", Tone::Warning)]
            .into_iter()
            .find_map(|(label, t)| line.find(label).map(|at| (at, label, t)));
        match header {
            Some((at, label, t)) => {
                tone = Some(t);
                keep = !(quiet() && t == Tone::Warning);
                if keep {
                    let word = label.trim_matches(|c| c == ':' || c == ' ');
                    out.push_str(&line[..at + 2]);
                    out.push_str(&paint(Stream::Stderr, t, word));
                    out.push_str(&line[at + label.len() - 2..]);
                }
            }
            None if !keep => {}
            None => {
                match (tone, line.trim_start().trim_start_matches(|c: char| c.is_ascii_digit())) {
                    (Some(t), rest)
                        if rest.trim_start().starts_with("| ") && line.contains('^') =>
                    {
                        let at = line.find('^').unwrap_or(0);
                        let end = line.trim_end().len();
                        out.push_str(&line[..at]);
                        out.push_str(&paint(Stream::Stderr, t, &line[at..end]));
                        out.push_str(&line[end..]);
                    }
                    _ => out.push_str(line),
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const RENDERED: &str = "a.hl:2:5: error: unknown variable `y`\n2 | x = y;\n  |     ^\n  = did you mean `x`?\na.hl:3:1: warning: unused\n3 | int z;\n  | ^^^^^^\n";

    #[test]
    fn uncoloured_diagnostics_are_unchanged() {
        // No `set` in unit tests: no colour, normal verbosity.
        assert_eq!(diagnostics(RENDERED), RENDERED);
    }
}
