//! Shared helpers of the symbolic-execution tests: load an example, run the explorer with a real
//! z3 (no fake solver: an engine test must mean what it says).

#![allow(dead_code)]

use heaplab_engine::symbolic::{
    Config, Explorer, Model, NoClock, PathSolver, SatAnswer, SolverCounts, Sort, Sym,
};
use heaplab_syntax::{analyze, Analysis, SourceFile};
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

/// A z3 process spoken to over stdin/stdout (SMT-LIB2), with a cache.
pub struct Z3 {
    _child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    cache: HashMap<String, SatAnswer>,
    counts: SolverCounts,
}

impl Z3 {
    pub fn new() -> Z3 {
        let mut child = Command::new("z3")
            .args(["-in", "-smt2"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("z3 must be installed");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = BufReader::new(child.stdout.take().expect("stdout"));
        Z3 { _child: child, stdin, stdout, cache: HashMap::new(), counts: SolverCounts::default() }
    }

    fn script(conjuncts: &[Sym]) -> String {
        let mut vars = Vec::new();
        for c in conjuncts {
            vars.extend(c.vars());
        }
        vars.sort();
        vars.dedup();
        let mut s = String::new();
        for (id, sort) in vars {
            match sort {
                Sort::Int => s.push_str(&format!("(declare-const x{id} Int)")),
                Sort::Bool => s.push_str(&format!("(declare-const b{id} Bool)")),
            }
        }
        for c in conjuncts {
            s.push_str(&format!("(assert {})", c.to_smtlib()));
        }
        s
    }

    fn line(&mut self) -> String {
        let mut l = String::new();
        self.stdout.read_line(&mut l).expect("z3 output");
        l.trim().to_string()
    }
}

impl PathSolver for Z3 {
    fn check(&mut self, conjuncts: &[Sym]) -> SatAnswer {
        let script = Z3::script(conjuncts);
        if let Some(a) = self.cache.get(&script) {
            self.counts.cached += 1;
            return *a;
        }
        self.counts.sent += 1;
        writeln!(self.stdin, "(push){script}(check-sat)(pop)").expect("write");
        self.stdin.flush().expect("flush");
        let answer = match self.line().as_str() {
            "sat" => SatAnswer::Sat,
            "unsat" => SatAnswer::Unsat,
            _ => SatAnswer::Unknown,
        };
        self.cache.insert(script, answer);
        answer
    }

    fn model(&mut self, conjuncts: &[Sym], vars: &[(u32, Sort)]) -> Option<Model> {
        let script = Z3::script(conjuncts);
        self.counts.sent += 1;
        let mut decl = String::new();
        let mut names = Vec::new();
        for (id, sort) in vars {
            let name = match sort {
                Sort::Int => format!("x{id}"),
                Sort::Bool => format!("b{id}"),
            };
            if !script.contains(&format!("(declare-const {name} ")) {
                decl.push_str(&format!(
                    "(declare-const {name} {})",
                    if *sort == Sort::Int { "Int" } else { "Bool" }
                ));
            }
            names.push((name, *id, *sort));
        }
        writeln!(self.stdin, "(push){decl}{script}(check-sat)").expect("write");
        self.stdin.flush().expect("flush");
        let sat = self.line();
        let mut model = Model::default();
        if sat == "sat" {
            for (name, id, sort) in &names {
                writeln!(self.stdin, "(get-value ({name}))").expect("write");
                self.stdin.flush().expect("flush");
                let l = self.line();
                // ((x3 (- 5))) or ((b1 true))
                let inner = l.trim_start_matches('(').trim_end_matches(')');
                let val = inner.split_once(' ').map(|x| x.1).unwrap_or("");
                let val = val.trim().trim_start_matches('(').trim_end_matches(')');
                let v = match val {
                    "true" => 1,
                    "false" => 0,
                    v if v.starts_with("- ") => -v[2..].trim().parse::<i64>().unwrap_or(0),
                    v => v.parse::<i64>().unwrap_or(0),
                };
                model.values.insert((*id, *sort), v);
            }
        }
        writeln!(self.stdin, "(pop)").expect("write");
        self.stdin.flush().expect("flush");
        (sat == "sat").then_some(model)
    }

    fn counts(&self) -> SolverCounts {
        self.counts
    }

    fn note_local(&mut self) {
        self.counts.decided_locally += 1;
    }
}

pub fn load(example: &str) -> Analysis {
    let path = format!("{}/../../examples/{example}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("example exists");
    let a = analyze(&SourceFile::new(example.to_string(), text));
    assert!(!a.has_errors(), "{example}: {:?}", a.diagnostics);
    a
}

pub fn explore(a: &Analysis, target: &str, config: Config) -> Explorer {
    let mut ex =
        Explorer::new(&a.program, &a.info, target, config, Box::new(Z3::new()), Box::new(NoClock))
            .expect("method exists");
    ex.run_to_end();
    ex
}
