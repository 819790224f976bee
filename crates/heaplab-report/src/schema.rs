//! The JSON Schema of the vocabulary, generated from the types (schemars), and the JSDoc
//! typedefs the page is typed with, generated from the schema. Both are committed
//! (`docs/report.schema.json`, `web/src/report-types.js`); `tests/schema.rs` fails when they and
//! the types drift apart, and `UPDATE_EXPECT=1` rewrites them.

use crate::commands::{
    BenchReport, CheckReport, CompareReport, EnumerationReport, ExecReport, SatFileReport,
    SatReport, TestReport,
};
use crate::outcome::OutcomeReport;
use crate::summary::RunSummary;
use heaplab_engine::symbolic::bounds::BOUNDS;
use heaplab_engine::symbolic::{strategy, Config, Options};
use schemars::JsonSchema;
use serde_json::Value;

/// Every document of the vocabulary, one property each: the schema's `$defs` hold their types
/// (validate a document against `#/$defs/RunSummary`, say).
#[derive(JsonSchema)]
#[allow(dead_code)]
struct Vocabulary {
    /// What a run is asked: the CLI's flags, the wasm API's and the page's options.
    options: Options,
    /// `heaplab run --format json`, `Exploration.summary()`, `concolicRun(...).summary`.
    run: RunSummary,
    outcome: OutcomeReport,
    check: CheckReport,
    test: TestReport,
    exec: ExecReport,
    sat: SatReport,
    /// `heaplab sat FILE.smt2` with a declared status or several queries.
    sat_file: SatFileReport,
    enumeration: EnumerationReport,
    compare: CompareReport,
    bench: BenchReport,
}

/// The schema, as the JSON committed in `docs/report.schema.json`.
pub fn schema() -> Value {
    let schema = schemars::schema_for!(Vocabulary);
    serde_json::to_value(&schema).unwrap_or(Value::Null)
}

/// The schema as pretty JSON with a final newline (the committed file's bytes).
pub fn schema_text() -> String {
    serde_json::to_string_pretty(&schema()).unwrap_or_default() + "\n"
}

/// JSDoc `@typedef`s for every type of the schema's `$defs` (the committed
/// `web/src/report-types.js`).
pub fn jsdoc(schema: &Value) -> String {
    let mut out = String::from(
        "// Generated from docs/report.schema.json by heaplab-report (tests/schema.rs); do not edit.\n\
         // The types of what the wasm engine returns and the CLI prints with --format json.\n\n",
    );
    let empty = serde_json::Map::new();
    let defs = schema.get("$defs").and_then(Value::as_object).unwrap_or(&empty);
    for (name, def) in defs {
        out.push_str("/**\n");
        if let Some(d) = def.get("description").and_then(Value::as_str) {
            for line in d.lines() {
                out.push_str(&format!(" * {line}\n"));
            }
        }
        match def.get("properties").and_then(Value::as_object) {
            Some(props) => {
                out.push_str(&format!(" * @typedef {{Object}} {name}\n"));
                let required: Vec<&str> = def
                    .get("required")
                    .and_then(Value::as_array)
                    .map(|r| r.iter().filter_map(Value::as_str).collect())
                    .unwrap_or_default();
                for (prop, ty) in props {
                    let js = js_type(ty);
                    let key = if required.contains(&prop.as_str()) {
                        prop.clone()
                    } else {
                        format!("[{prop}]")
                    };
                    let doc = ty.get("description").and_then(Value::as_str).unwrap_or("");
                    let doc = doc.lines().collect::<Vec<_>>().join(" ");
                    let line = format!(" * @property {{{js}}} {key} {doc}");
                    out.push_str(line.trim_end());
                    out.push('\n');
                }
            }
            None => out.push_str(&format!(" * @typedef {{{}}} {name}\n", js_type(def))),
        }
        out.push_str(" */\n\n");
    }
    out.push_str("export {};\n");
    out
}

/// The JSDoc type of one schema.
fn js_type(s: &Value) -> String {
    if let Some(r) = s.get("$ref").and_then(Value::as_str) {
        return r.rsplit('/').next().unwrap_or("*").to_string();
    }
    if let Some(values) = s.get("enum").and_then(Value::as_array) {
        let lits: Vec<String> = values.iter().map(|v| v.to_string()).collect();
        return lits.join("|");
    }
    if let Some(c) = s.get("const") {
        return c.to_string();
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(alts) = s.get(key).and_then(Value::as_array) {
            let parts: Vec<String> = alts.iter().map(js_type).collect();
            return format!("({})", parts.join("|"));
        }
    }
    match s.get("type") {
        Some(Value::Array(types)) => {
            let parts: Vec<String> = types
                .iter()
                .map(|t| {
                    let mut one = s.clone();
                    if let Some(o) = one.as_object_mut() {
                        o.insert("type".into(), t.clone());
                    }
                    js_type(&one)
                })
                .collect();
            format!("({})", parts.join("|"))
        }
        Some(Value::String(t)) => match t.as_str() {
            "integer" | "number" => "number".into(),
            "string" => "string".into(),
            "boolean" => "boolean".into(),
            "null" => "null".into(),
            "array" => match s.get("items") {
                Some(items) => format!("Array<{}>", js_type(items)),
                None => "Array<*>".into(),
            },
            "object" => match s.get("additionalProperties") {
                Some(v) if v.is_object() => format!("Object<string, {}>", js_type(v)),
                _ => "Object".into(),
            },
            _ => "*".into(),
        },
        _ => "*".into(),
    }
}

/// The page's copy of the two tables the engine declares once: every bound (its option name,
/// label, tooltip, help, default, whether the page shows a control) and every strategy
/// registry row (name, driver, source, description, "Learn more" paragraph, what concerns
/// it). The page builds its controls, menus, Compare rows, links and "Learn more" from it
/// (committed as `web/src/vocabulary.js`; `tests/schema.rs` keeps it equal to the tables).
pub fn vocabulary_js() -> String {
    let bounds: Vec<Value> = BOUNDS
        .iter()
        .map(|b| {
            serde_json::json!({
                "name": b.name, "label": b.label, "title": b.title, "help": b.help,
                "default": b.default_value(), "zero_is_off": b.zero_is_off, "on_page": b.on_page,
            })
        })
        .collect();
    let strategies: Vec<Value> = strategy::STRATEGIES
        .iter()
        .map(|s| {
            serde_json::json!({
                "name": s.name, "driver": s.driver.name(), "source": s.paper,
                "description": s.description, "learn": s.learn,
                "reads_requires": s.reads_requires, "uses_depth": s.uses_depth,
                "all_heaps": s.all_heaps,
            })
        })
        .collect();
    let pretty = |v: &Vec<Value>| serde_json::to_string_pretty(v).unwrap_or_default();
    let default = strategy::info(Config::default().strategy).name;
    format!(
        "// Generated from the engine's bound table and strategy registry by heaplab-report\n\
         // (tests/schema.rs); do not edit.\n\n\
         /** Every bound, declared once in heaplab_engine::symbolic::bounds. */\n\
         export const BOUNDS = {};\n\n\
         /** Every strategy, in menu order (heaplab_engine::symbolic::strategy::STRATEGIES). */\n\
         export const STRATEGIES = {};\n\n\
         /** The strategy a run uses when none is named. */\n\
         export const DEFAULT_STRATEGY = {};\n",
        pretty(&bounds),
        pretty(&strategies),
        serde_json::to_string(default).unwrap_or_default()
    )
}
