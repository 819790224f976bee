//! docs/cli.md describes the command line as `--help` prints it: a section for every command,
//! every option of every command (the shared bounds once, in their own section), and exit
//! codes that are the ones the binary returns.

mod common;

use common::{heaplab, text, workspace_root};

/// The subcommands `heaplab --help` lists (without `help`).
fn commands() -> Vec<String> {
    let out = text(&heaplab(&["--help"]).stdout);
    out.lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .filter(|c| c != "help")
        .collect()
}

/// The long options `heaplab CMD --help` lists (without `--help`); `heaplab --help`'s (the
/// global ones) for an empty `command`.
fn options(command: &str) -> Vec<String> {
    let args: &[&str] = if command.is_empty() { &["--help"] } else { &[command, "--help"] };
    let out = heaplab(args);
    assert!(out.status.success(), "{command} --help");
    text(&out.stdout)
        .lines()
        .filter_map(|l| {
            let l = l.trim_start();
            let l = l.strip_prefix("-h, ").unwrap_or(l);
            let l = if l.len() > 4 && l.as_bytes()[0] == b'-' && &l[2..4] == ", " {
                &l[4..]
            } else {
                l
            };
            let flag = l.strip_prefix("--")?;
            let name: String =
                flag.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '-').collect();
            (!name.is_empty() && name != "help").then(|| format!("--{name}"))
        })
        .collect()
}

/// The text of the section `## `heaplab CMD…`` of the docs (up to the next `## `).
fn section<'a>(docs: &'a str, heading: &str) -> Option<&'a str> {
    let start = docs.find(heading)?;
    let rest = &docs[start + heading.len()..];
    let end = rest.find("\n## ").unwrap_or(rest.len());
    Some(&rest[..end])
}

#[test]
fn every_command_and_option_is_documented() {
    let docs = std::fs::read_to_string(workspace_root().join("docs/cli.md")).expect("docs/cli.md");
    let bounds = section(&docs, "## Bounds").expect("a Bounds section");
    let intro = &docs[..docs.find("\n## ").unwrap_or(docs.len())];
    let commands = commands();
    assert!(commands.len() >= 10, "commands from --help: {commands:?}");
    // Options every command takes (`--lang`, `-q`, `-v`, `--color`): described once, above the
    // first section.
    let global = options("");
    assert!(global.iter().any(|o| o == "--color"), "{global:?}");
    let mut missing: Vec<String> = global
        .iter()
        .filter(|o| *o != "--version" && !intro.contains(&format!("`{o}")))
        .map(|o| format!("the global {o}"))
        .collect();
    for c in &commands {
        let Some(body) = section(&docs, &format!("## `heaplab {c}")) else {
            missing.push(format!("no section `## `heaplab {c}`"));
            continue;
        };
        for o in options(c) {
            let quoted = format!("`{o}");
            let documented = body.contains(&quoted)
                || (body.contains("(#bounds)") && bounds.contains(&quoted))
                || (global.contains(&o) && intro.contains(&quoted));
            if !documented {
                missing.push(format!("{c} {o}"));
            }
        }
    }
    assert!(missing.is_empty(), "docs/cli.md does not describe:\n{}", missing.join("\n"));
}

#[test]
fn the_documented_exit_codes_are_the_binary_s() {
    let docs = std::fs::read_to_string(workspace_root().join("docs/cli.md")).expect("docs/cli.md");
    let codes = section(&docs, "## Exit codes").expect("an Exit codes section");
    for code in ["| 0 |", "| 1 |", "| 2 |", "| 3 |", "| 10 |", "| 20 |"] {
        assert!(codes.contains(code), "exit code row {code}");
    }
    // 0: ran, nothing wrong.
    assert_eq!(heaplab(&["check", "examples/bst.hl"]).status.code(), Some(0));
    // 1: the input program has errors; a method it does not have.
    let dir = std::env::temp_dir().join(format!("heaplab-exit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let bad = dir.join("bad.hl");
    std::fs::write(&bad, "int f() { return true; }\n").expect("write");
    assert_eq!(heaplab(&["check", &bad.to_string_lossy()]).status.code(), Some(1));
    let out = heaplab(&["run", "examples/bst.hl", "--method", "BST.nothing"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    // 2: usage, or a file that cannot be read.
    assert_eq!(heaplab(&["run", "examples/bst.hl", "--no-such-flag"]).status.code(), Some(2));
    assert_eq!(heaplab(&["check", "no/such/file.hl"]).status.code(), Some(2));
    // 1: `run` finds a broken `ensures` on a valid input.
    let broken =
        ["run", "crates/heaplab-cli/tests/data/ensures_formula.hl", "--method", "BST.insertBad"];
    assert_eq!(heaplab(&broken).status.code(), Some(1));
    // 3: with --strict-bounds, a bound that stopped the run; without it, 0.
    let cut = ["run", "examples/bst.hl", "--method", "BST.insert", "--max-paths", "2"];
    assert_eq!(heaplab(&cut).status.code(), Some(0));
    let strict: Vec<&str> = cut.iter().copied().chain(["--strict-bounds"]).collect();
    assert_eq!(heaplab(&strict).status.code(), Some(3));
    let whole = ["run", "examples/bst.hl", "--method", "BST.insert", "--strict-bounds"];
    assert_eq!(heaplab(&whole).status.code(), Some(0));
    // 10 / 20: `sat`'s answers.
    let sat = |f: &str| heaplab(&["sat", "examples/bst.hl", "--formula", f]).status.code();
    assert_eq!(sat("bst(x, 0, 100) & x != null"), Some(10));
    assert_eq!(sat("bst(x, 0, 100) & x != null & x == null"), Some(20));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Most runs never ask Z3 anything: with no z3 to start, they still run (the solver line counts
/// 0 questions sent).
#[test]
fn a_run_the_procedure_decides_needs_no_z3() {
    let out =
        heaplab(&["run", "examples/bst.hl", "--method", "BST.insert", "--z3", "/nonexistent/z3"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("solver: 0 sent"), "{stdout}");
    assert!(stdout.contains("tests:"), "{stdout}");
}

/// The completion script and the man page are generated from the same definitions as --help:
/// every command is in them; --version names a commit.
#[test]
fn completions_man_page_and_version() {
    let bash = text(&heaplab(&["completions", "bash"]).stdout);
    let man = text(&heaplab(&["man"]).stdout);
    assert!(man.starts_with(".ie") || man.contains(".TH heaplab"), "{man}");
    for c in commands() {
        assert!(bash.contains(&c), "the bash completion offers `{c}`");
        // roff writes a hyphen as `\-`.
        assert!(man.contains(&c.replace('-', "\\-")), "the man page lists `{c}`");
    }
    let version = text(&heaplab(&["--version"]).stdout);
    assert!(version.starts_with("heaplab ") && version.contains(" ("), "{version}");
}
