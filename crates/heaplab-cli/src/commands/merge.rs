//! `heaplab merge SHARD.json...`: the JSON summaries of the slices of one sharded run
//! (`heaplab run --shard i/n --format json`) added up into the whole run's summary, or the
//! slices of a sharded bench (`heaplab bench --shard i/n --format json`) put back together
//! (`heaplab_report::merge` decides how each key adds).

use anyhow::Context;
use heaplab_report::{BenchReport, RunSummary};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// The slices' summaries (`heaplab run ... --shard I/N --format json > shard-I.json`), every
    /// slice of the run once, in any order.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Output format of the merged run summary (merged bench reports are JSON).
    #[arg(long, value_enum, default_value_t = super::run::Format::Text)]
    format: super::run::Format,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let mut runs = Vec::new();
    let mut benches = Vec::new();
    for file in &args.files {
        let text = std::fs::read_to_string(file)
            .with_context(|| format!("cannot read `{}`", file.display()))?;
        let value: serde_json::Value = serde_json::from_str(&text)
            .with_context(|| format!("`{}` is not JSON", file.display()))?;
        // A bench report has rows; a run's summary has paths.
        if value.get("rows").is_some() {
            let report: BenchReport = serde_json::from_value(value).with_context(|| {
                format!("`{}` is not the JSON report of a `heaplab bench`", file.display())
            })?;
            benches.push(report);
        } else {
            let summary: RunSummary = serde_json::from_value(value).with_context(|| {
                format!("`{}` is not the JSON summary of a `heaplab run`", file.display())
            })?;
            runs.push(summary);
        }
    }
    if !benches.is_empty() {
        if !runs.is_empty() {
            anyhow::bail!(
                "the files mix run summaries and bench reports: merge one kind at a time"
            );
        }
        let whole = heaplab_report::merge::merge_bench(benches)?;
        println!("{}", serde_json::to_string_pretty(&whole)?);
        return Ok(ExitCode::SUCCESS);
    }
    let whole = heaplab_report::merge::merge(runs)?;
    let mut out = std::io::stdout();
    let _ = match args.format {
        super::run::Format::Json => writeln!(out, "{}", serde_json::to_string_pretty(&whole)?),
        super::run::Format::Text => {
            write!(out, "{}", super::run::summary_text(&whole, whole.time_ms))
        }
    };
    // As `heaplab run`: a broken contract on a valid input is a finding (1).
    let broken = whole.findings.iter().any(|f| f.breaks_contract);
    Ok(if broken { ExitCode::from(super::exit::FOUND) } else { ExitCode::SUCCESS })
}
