//! The module graph of a crate, read from its sources without a compiler: which file module
//! names which other. A module depends on the module that *defines* what it names, so a path
//! through a re-export (`pub use child::X` in a facade `mod.rs`) counts for the child, not for
//! the facade; a module's `mod child;` line is no dependency (it only places the file).
//! `#[cfg(test)]` items are left out: a test module may look anywhere.
//!
//! It reads tokens, not syntax trees, which is enough for how this workspace writes paths
//! (`use` trees, `crate::`/`super::`/`self::` paths, paths through a child module or an imported
//! module name, glob imports resolved by the names the importing file mentions).

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

/// One source file of a crate: its module path (`["symbolic", "exec"]`), its tokens outside
/// `#[cfg(test)]` items, and what its `use` lines bind.
pub struct Module {
    children: BTreeSet<String>,
    /// Name bound by a `use` → the full path it names (as written, resolved later).
    imports: BTreeMap<String, Vec<String>>,
    /// `use P::*` paths.
    globs: Vec<Vec<String>>,
    /// Names of the items declared at the file's top level (fn, struct, enum, ...).
    items: BTreeSet<String>,
    /// Every path written outside `use` lines (two segments or more).
    paths: Vec<Vec<String>>,
    /// Every identifier (to resolve glob imports by what the file mentions).
    idents: BTreeSet<String>,
}

pub struct Crate {
    pub modules: BTreeMap<Vec<String>, Module>,
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Ident(String),
    Punct(char),
    PathSep,
}

/// Tokens of Rust source: identifiers and the punctuation the reader needs. Comments, strings,
/// character literals, lifetimes and numbers are dropped.
fn tokenize(src: &str) -> Vec<Tok> {
    let chars: Vec<char> = src.chars().collect();
    let mut toks = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied().unwrap_or('\0');
        if c == '/' && next == '/' {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == '*' {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if c == '"' || ((c == 'r' || c == 'b') && (next == '"' || next == '#')) {
            i = skip_string(&chars, i);
        } else if c == '\'' {
            // A char literal ('a', '\n', '\'') or a lifetime ('a): a literal closes within a few.
            let from = if next == '\\' { i + 3 } else { i + 2 };
            let close = (from..(i + 12).min(chars.len())).find(|&j| chars[j] == '\'');
            match close {
                Some(j) if next == '\\' || j == i + 2 => i = j + 1,
                _ => {
                    i += 1;
                    while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                        i += 1;
                    }
                }
            }
        } else if c.is_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            toks.push(Tok::Ident(word.trim_start_matches("r#").to_string()));
        } else if c.is_ascii_digit() {
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
        } else if c == ':' && next == ':' {
            toks.push(Tok::PathSep);
            i += 2;
        } else {
            if !c.is_whitespace() {
                toks.push(Tok::Punct(c));
            }
            i += 1;
        }
    }
    toks
}

/// Index past a string literal starting at `i` ("…", r"…", r#"…"#, b"…", br"…").
fn skip_string(chars: &[char], mut i: usize) -> usize {
    if chars[i] == 'b' {
        i += 1;
    }
    let raw = chars.get(i) == Some(&'r');
    if raw {
        i += 1;
        let mut hashes = 0;
        while chars.get(i) == Some(&'#') {
            hashes += 1;
            i += 1;
        }
        if chars.get(i) != Some(&'"') {
            return i;
        }
        i += 1;
        while i < chars.len() {
            if chars[i] == '"' && (0..hashes).all(|h| chars.get(i + 1 + h) == Some(&'#')) {
                return i + 1 + hashes;
            }
            i += 1;
        }
        return i;
    }
    if chars.get(i) != Some(&'"') {
        return i;
    }
    i += 1;
    while i < chars.len() {
        match chars[i] {
            '\\' => i += 2,
            '"' => return i + 1,
            _ => i += 1,
        }
    }
    i
}

fn ident(t: Option<&Tok>) -> Option<&str> {
    match t {
        Some(Tok::Ident(s)) => Some(s),
        _ => None,
    }
}

/// Drops every item carrying `#[cfg(test)]` (the attribute, then the item up to its `;` or
/// its balanced braces).
fn without_test_items(toks: Vec<Tok>) -> Vec<Tok> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        let is_cfg_test = toks[i] == Tok::Punct('#')
            && toks.get(i + 1) == Some(&Tok::Punct('['))
            && ident(toks.get(i + 2)) == Some("cfg")
            && toks.get(i + 3) == Some(&Tok::Punct('('))
            && ident(toks.get(i + 4)) == Some("test")
            && toks.get(i + 5) == Some(&Tok::Punct(')'));
        if !is_cfg_test {
            out.push(toks[i].clone());
            i += 1;
            continue;
        }
        i += 7;
        let mut depth = 0;
        while i < toks.len() {
            match toks[i] {
                Tok::Punct('{') => depth += 1,
                Tok::Punct('}') => {
                    depth -= 1;
                    if depth == 0 {
                        i += 1;
                        break;
                    }
                }
                Tok::Punct(';') if depth == 0 => {
                    i += 1;
                    break;
                }
                _ => {}
            }
            i += 1;
        }
    }
    out
}

/// The paths of one `use` tree starting at `toks[i]` (after `use`); returns them with the name
/// each binds (`None` for a glob) and the index past the `;`.
/// A path named by a `use` line and the name it binds (`None` for a glob).
type UsePath = (Vec<String>, Option<String>);

fn use_tree(toks: &[Tok], mut i: usize) -> (Vec<UsePath>, usize) {
    let mut out = Vec::new();
    let mut prefix_stack: Vec<Vec<String>> = vec![Vec::new()];
    let mut current: Vec<String> = Vec::new();
    let flush = |current: &mut Vec<String>,
                 stack: &[Vec<String>],
                 out: &mut Vec<UsePath>,
                 alias: Option<String>| {
        if current.is_empty() && alias.is_none() {
            return;
        }
        let mut path = stack.last().cloned().unwrap_or_default();
        path.append(current);
        if path.last().map(String::as_str) == Some("self") {
            path.pop();
        }
        let name = alias.or_else(|| path.last().cloned());
        out.push((path, name));
    };
    while i < toks.len() {
        match &toks[i] {
            Tok::Ident(w) if w == "as" => {
                let alias = ident(toks.get(i + 1)).map(str::to_string);
                flush(&mut current, &prefix_stack, &mut out, alias);
                i += 2;
                continue;
            }
            Tok::Ident(w) => current.push(w.clone()),
            Tok::PathSep => {}
            Tok::Punct('*') => {
                let mut path = prefix_stack.last().cloned().unwrap_or_default();
                path.append(&mut current);
                out.push((path, None));
            }
            Tok::Punct('{') => {
                let mut path = prefix_stack.last().cloned().unwrap_or_default();
                path.append(&mut current);
                prefix_stack.push(path);
            }
            Tok::Punct(',') => flush(&mut current, &prefix_stack, &mut out, None),
            Tok::Punct('}') => {
                flush(&mut current, &prefix_stack, &mut out, None);
                prefix_stack.pop();
            }
            Tok::Punct(';') => {
                flush(&mut current, &prefix_stack, &mut out, None);
                return (out, i + 1);
            }
            Tok::Punct(_) => {}
        }
        i += 1;
    }
    (out, i)
}

const ITEM_KEYWORDS: &[&str] =
    &["fn", "struct", "enum", "trait", "type", "const", "static", "union"];

fn read_module(file: &Path) -> Module {
    let src = fs::read_to_string(file).unwrap_or_default();
    let toks = without_test_items(tokenize(&src));
    let mut module = Module {
        children: BTreeSet::new(),
        imports: BTreeMap::new(),
        globs: Vec::new(),
        items: BTreeSet::new(),
        paths: Vec::new(),
        idents: BTreeSet::new(),
    };
    let mut depth = 0usize;
    let mut i = 0;
    while i < toks.len() {
        match &toks[i] {
            Tok::Punct('{') => depth += 1,
            Tok::Punct('}') => depth = depth.saturating_sub(1),
            Tok::Ident(w) if w == "use" => {
                let (paths, next) = use_tree(&toks, i + 1);
                for (path, name) in paths {
                    match name {
                        Some(name) if name != "_" => {
                            module.imports.insert(name, path);
                        }
                        Some(_) => module.paths.push(path),
                        None => module.globs.push(path),
                    }
                }
                i = next;
                continue;
            }
            Tok::Ident(w) if w == "mod" && depth == 0 => {
                if let (Some(name), Some(Tok::Punct(';'))) =
                    (ident(toks.get(i + 1)), toks.get(i + 2))
                {
                    module.children.insert(name.to_string());
                }
            }
            Tok::Ident(w) if depth == 0 && ITEM_KEYWORDS.contains(&w.as_str()) => {
                if let Some(name) = ident(toks.get(i + 1)) {
                    module.items.insert(name.to_string());
                }
            }
            Tok::Ident(w) if w == "macro_rules" => {
                if let Some(name) = ident(toks.get(i + 2)) {
                    module.items.insert(name.to_string());
                }
            }
            Tok::Ident(w) => {
                module.idents.insert(w.clone());
                let mut path = vec![w.clone()];
                let mut j = i + 1;
                while toks.get(j) == Some(&Tok::PathSep) {
                    match ident(toks.get(j + 1)) {
                        Some(seg) => path.push(seg.to_string()),
                        None => break,
                    }
                    j += 2;
                }
                if path.len() > 1 {
                    module.paths.push(path);
                    i = j;
                    continue;
                }
            }
            _ => {}
        }
        i += 1;
    }
    module
}

/// Reads every module of the crate whose `src/` is `src` (from `lib.rs` or `main.rs`, following
/// `mod name;` lines, `foo.rs` + `foo/` and `foo/mod.rs` layouts).
pub fn read_crate(src: &Path) -> Crate {
    let mut modules = BTreeMap::new();
    let root = if src.join("lib.rs").exists() { src.join("lib.rs") } else { src.join("main.rs") };
    let mut todo = vec![(Vec::<String>::new(), root, src.to_path_buf())];
    while let Some((path, file, dir)) = todo.pop() {
        let module = read_module(&file);
        for child in &module.children {
            let candidates = [dir.join(format!("{child}.rs")), dir.join(child).join("mod.rs")];
            let Some(child_file) = candidates.into_iter().find(|f| f.exists()) else { continue };
            // Both layouts keep a child's own children in the folder named after it.
            let child_dir = dir.join(child);
            let mut child_path = path.clone();
            child_path.push(child.clone());
            todo.push((child_path, child_file, child_dir));
        }
        modules.insert(path, module);
    }
    Crate { modules }
}

impl Crate {
    /// The module that defines what `path` names when written in module `at`, or `None` for
    /// something outside the crate (std, another crate) or local to `at`.
    fn resolve(&self, at: &[String], path: &[String], fuel: u32) -> Option<Vec<String>> {
        if fuel == 0 || path.is_empty() {
            return None;
        }
        let module = self.modules.get(at)?;
        let (mut target, rest): (Vec<String>, &[String]) = match path[0].as_str() {
            "crate" => (Vec::new(), &path[1..]),
            "self" => (at.to_vec(), &path[1..]),
            "super" => {
                let mut base = at.to_vec();
                let mut k = 0;
                while path.get(k).map(String::as_str) == Some("super") {
                    base.pop();
                    k += 1;
                }
                (base, &path[k..])
            }
            first if module.children.contains(first) => {
                let mut child = at.to_vec();
                child.push(first.to_string());
                (child, &path[1..])
            }
            first => match module.imports.get(first) {
                Some(full) if full.as_slice() != path => {
                    let mut joined = full.clone();
                    joined.extend_from_slice(&path[1..]);
                    return self.resolve(at, &joined, fuel - 1);
                }
                _ => return None,
            },
        };
        let mut rest = rest;
        while let Some(seg) = rest.first() {
            let mut child = target.clone();
            child.push(seg.clone());
            if self.modules.contains_key(&child) {
                target = child;
                rest = &rest[1..];
            } else {
                break;
            }
        }
        // `rest[0]` is an item of `target`: follow it if `target` only imports it.
        if let Some(item) = rest.first() {
            let owner = self.modules.get(&target)?;
            if !owner.items.contains(item) {
                if let Some(full) = owner.imports.get(item) {
                    let mut joined = full.clone();
                    joined.extend_from_slice(&rest[1..]);
                    if let Some(found) = self.resolve(&target, &joined, fuel - 1) {
                        return Some(found);
                    }
                }
            }
        }
        Some(target)
    }

    /// Module → the modules it depends on (self-edges dropped), each with the paths written
    /// in the module that make the dependency (for the failure message).
    pub fn edges(&self) -> BTreeMap<Vec<String>, BTreeMap<Vec<String>, Vec<String>>> {
        let mut edges = BTreeMap::new();
        for (at, module) in &self.modules {
            let mut out: BTreeMap<Vec<String>, Vec<String>> = BTreeMap::new();
            let mut add = |t: Option<Vec<String>>, why: String| {
                if let Some(t) = t {
                    if &t != at {
                        let reasons = out.entry(t).or_default();
                        if !reasons.contains(&why) {
                            reasons.push(why);
                        }
                    }
                }
            };
            for path in module.imports.values().chain(&module.paths) {
                add(self.resolve(at, path, 16), path.join("::"));
            }
            for glob in &module.globs {
                let Some(target) = self.resolve(at, glob, 16) else { continue };
                let Some(owner) = self.modules.get(&target) else { continue };
                let why = |name: &str| format!("{}::* ({name})", glob.join("::"));
                for name in &module.idents {
                    if owner.items.contains(name) {
                        add(Some(target.clone()), why(name));
                    } else if let Some(full) = owner.imports.get(name) {
                        add(self.resolve(&target, full, 16), why(name));
                    } else if owner.children.contains(name) {
                        let mut child = target.clone();
                        child.push(name.clone());
                        add(Some(child), why(name));
                    }
                }
            }
            edges.insert(at.clone(), out);
        }
        edges
    }
}

pub type Edges = BTreeMap<Vec<String>, BTreeMap<Vec<String>, Vec<String>>>;

/// The strongly connected components with more than one module (Tarjan's algorithm).
pub fn cycles(edges: &Edges) -> Vec<Vec<Vec<String>>> {
    struct Tarjan<'a> {
        edges: &'a Edges,
        index: BTreeMap<&'a Vec<String>, usize>,
        low: BTreeMap<&'a Vec<String>, usize>,
        stack: Vec<&'a Vec<String>>,
        on_stack: BTreeSet<&'a Vec<String>>,
        out: Vec<Vec<Vec<String>>>,
    }
    impl<'a> Tarjan<'a> {
        fn visit(&mut self, v: &'a Vec<String>) {
            let n = self.index.len();
            self.index.insert(v, n);
            self.low.insert(v, n);
            self.stack.push(v);
            self.on_stack.insert(v);
            for w in self.edges.get(v).into_iter().flat_map(|m| m.keys()) {
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let lw = self.low[w];
                    let lv = self.low.get_mut(v).expect("visited");
                    *lv = (*lv).min(lw);
                } else if self.on_stack.contains(w) {
                    let iw = self.index[w];
                    let lv = self.low.get_mut(v).expect("visited");
                    *lv = (*lv).min(iw);
                }
            }
            if self.low[v] == self.index[v] {
                let mut component = Vec::new();
                while let Some(w) = self.stack.pop() {
                    self.on_stack.remove(w);
                    component.push(w.clone());
                    if w == v {
                        break;
                    }
                }
                if component.len() > 1 {
                    component.sort();
                    self.out.push(component);
                }
            }
        }
    }
    let mut t = Tarjan {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in edges.keys() {
        if !t.index.contains_key(v) {
            t.visit(v);
        }
    }
    t.out
}

pub fn name(path: &[String]) -> String {
    if path.is_empty() {
        "crate".to_string()
    } else {
        path.join("::")
    }
}
