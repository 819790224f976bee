//! The committed schema (`docs/report.schema.json`), the page's typedefs
//! (`web/src/report-types.js`) and its copy of the bound table and strategy registry
//! (`web/src/vocabulary.js`) are what the types and tables generate: a key added, renamed or removed in
//! a type without regenerating them fails here. `UPDATE_EXPECT=1 cargo test -p heaplab-report
//! --test schema` rewrites both (review the diff).

use heaplab_report::schema::{jsdoc, schema, schema_text, vocabulary_js};
use std::path::Path;

fn check(path: &Path, want: &str) {
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::write(path, want).expect("write the generated file");
        return;
    }
    let have = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        have == want,
        "{} differs from what the types generate: run `UPDATE_EXPECT=1 cargo test -p heaplab-report --test schema` and commit it",
        path.display()
    );
}

#[test]
fn committed_schema_and_typedefs_match_the_types() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    check(&root.join("docs/report.schema.json"), &schema_text());
    check(&root.join("web/src/report-types.js"), &jsdoc(&schema()));
    check(&root.join("web/src/vocabulary.js"), &vocabulary_js());
}

#[test]
fn the_schema_names_every_document() {
    let s = schema();
    let defs = s["$defs"].as_object().expect("$defs");
    for name in ["RunSummary", "Options", "OutcomeReport", "CheckReport", "TestReport"] {
        assert!(defs.contains_key(name), "{name} missing from the schema");
    }
    // Every document carries its version.
    for name in ["RunSummary", "CheckReport", "TestReport", "ExecReport", "SatReport"] {
        let required = defs[name]["required"].as_array().expect("required");
        assert!(required.iter().any(|r| r == "schema_version"), "{name} has no schema_version");
    }
}
