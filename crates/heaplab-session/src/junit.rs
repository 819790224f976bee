//! The JUnit 5 export of generated tests, one implementation for `heaplab run --emit junit` and
//! the page's `testsJunit` / `concolicRun`: for a Java file, tests of the user's own class in
//! its package; for HeapLab, the program translated to Java with a test class beside it.

use heaplab_engine::symbolic::PathResult;
use heaplab_java::JavaMap;
use heaplab_syntax::Analysis;
use heaplab_testgen::{emit, Generation};

use crate::tests_view::{JsFile, JsJunit};
use crate::{fail, Failure};

/// What the export reads.
pub struct JunitSource<'a> {
    /// The checked program (lowered, for a Java file).
    pub analysis: &'a Analysis,
    /// The program's text.
    pub source: &'a str,
    /// The Java names, for a Java file.
    pub java: Option<&'a JavaMap>,
    /// The file's stem (a HeapLab program's Java package is named after it).
    pub stem: &'a str,
    /// How the tests were found, said in a Java test class's header.
    pub settings: &'a str,
    /// The explorer's paths behind the tests (none for `concolic`).
    pub paths: &'a [PathResult],
}

/// The files (paths relative to the output folder) and warnings of the export; fails with
/// `Untranslatable` when a HeapLab program uses what Java cannot express faithfully.
pub fn junit(input: &JunitSource, generation: &Generation) -> Result<JsJunit, Failure> {
    let files = |files: Vec<(String, String)>| -> Vec<JsFile> {
        files.into_iter().map(|(name, text)| JsFile { name, text }).collect()
    };
    if let Some(map) = input.java {
        let original = emit::junit_java::OriginalInput {
            program: &input.analysis.program,
            map,
            settings: input.settings,
        };
        let out = emit::junit_java::junit_for_original_with_source(
            &original,
            generation,
            Some(input.source),
        );
        return Ok(JsJunit { files: files(out.files), warnings: out.warnings });
    }
    let hl = emit::junit::JunitInput {
        program: &input.analysis.program,
        info: &input.analysis.info,
        source: input.source,
        package: Some(emit::junit::package_name(input.stem)),
        paths: input.paths,
    };
    let java =
        emit::junit::junit(&hl, generation).map_err(|e| fail("Untranslatable", &e.to_string()))?;
    Ok(JsJunit { files: files(java.files), warnings: java.warnings })
}
