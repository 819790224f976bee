//! What users ask of a run, as one all-optional serde type (STYLE.md item 9, issue 28 item 1):
//! the CLI's flags, the wasm API's options object and the page's controls all produce an
//! [`Options`], and [`Options::resolve`] turns it into the engine's [`Config`] (defaults for
//! what it leaves out). Bounds come from the one table in [`super::bounds`].

use super::bounds::BoundOptions;
use super::config::{Config, PreMode, SearchOrder, SlCompletion};
use super::strategy::{self, Driver, STRATEGIES};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The order in which pending states (or, for `concolic`, unexplored branches) are taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum OrderOption {
    /// Depth first.
    Dfs,
    /// Breadth first.
    Bfs,
    /// `concolic` only: DFS and BFS picks in turn (its default).
    Mixed,
}

/// What to do with the method's `requires`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PreOption {
    /// Explore only inputs that satisfy it (evaluated at entry).
    Assume,
    /// Explore every input, then classify each test's input with the model checker.
    Ignore,
}

/// How `sl` completes a path that ends with predicate instances still folded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SlCompletionOption {
    /// From a model of the remaining formula (JSF's way).
    Model,
    /// By running the instances' bodies.
    Run,
}

/// The options of a symbolic run; every field may be left out.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Options {
    /// A strategy registry name (`lazy`, `lazier`, `lazier#`, `sl`, `symheap`, `concolic`).
    /// Default: `lazier#`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strategy: Option<String>,
    /// Default: `dfs` (`mixed` for `concolic`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub order: Option<OrderOption>,
    /// Default: `assume`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pre: Option<PreOption>,
    /// `symheap`: a test for every distinct input heap of each path. Default: false.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub all_heaps: Option<bool>,
    /// `sl` only. Default: `model`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sl_completion: Option<SlCompletionOption>,
    /// Keep a minimal suite with the same covered directions and distinct outcomes (greedy
    /// set cover over the generated tests). Default: true for `concolic`, false otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub minimize: Option<bool>,
    /// Raise `k` (and `depth`) step by step from the given values until coverage of the
    /// method's directions stops growing or the time bound ends; the summary names the k
    /// chosen. Default: false.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub raise_bound: Option<bool>,
    /// The bounds given (the others keep their defaults).
    #[serde(default, skip_serializing_if = "is_empty")]
    pub bounds: BoundOptions,
}

fn is_empty(b: &BoundOptions) -> bool {
    *b == BoundOptions::default()
}

/// Options that name something that does not exist or does not fit together.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionsError {
    /// The option at fault (`strategy`, `order`).
    pub option: &'static str,
    pub message: String,
}

impl fmt::Display for OptionsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "option `{}`: {}", self.option, self.message)
    }
}

impl std::error::Error for OptionsError {}

impl Options {
    /// The registry name of the strategy asked for (the default when none is).
    pub fn strategy_name(&self) -> &str {
        self.strategy.as_deref().unwrap_or(strategy::info(Config::default().strategy).name)
    }

    /// Who runs the strategy asked for (an unknown name is an error naming `strategy`).
    pub fn driver(&self) -> Result<Driver, OptionsError> {
        let name = self.strategy_name();
        strategy::by_name(name).map(|row| row.driver).ok_or_else(|| {
            let known: Vec<&str> = STRATEGIES.iter().map(|s| s.name).collect();
            OptionsError {
                option: "strategy",
                message: format!("unknown strategy `{name}` (known: {})", known.join(", ")),
            }
        })
    }

    /// The explorer's configuration for these options: defaults where they say nothing. A
    /// strategy the explorer does not run (`concolic`, its own driver: see [`Options::driver`])
    /// or an order it does not know is an error that names the option.
    pub fn resolve(&self) -> Result<Config, OptionsError> {
        let mut config = Config::default();
        let name = self.strategy_name();
        config.strategy = match self.driver()? {
            Driver::Explorer(kind) => kind,
            Driver::Concolic => {
                return Err(OptionsError {
                    option: "strategy",
                    message: format!(
                        "`{name}` has its own driver (the concolic loop), not the explorer"
                    ),
                })
            }
        };
        config.order = match self.order {
            None | Some(OrderOption::Dfs) => SearchOrder::Dfs,
            Some(OrderOption::Bfs) => SearchOrder::Bfs,
            Some(OrderOption::Mixed) => {
                return Err(OptionsError {
                    option: "order",
                    message: "`mixed` is the `concolic` loop's; the explorer takes dfs or bfs"
                        .into(),
                })
            }
        };
        config.pre = match self.pre {
            None | Some(PreOption::Assume) => PreMode::Assume,
            Some(PreOption::Ignore) => PreMode::Ignore,
        };
        config.all_heaps = self.all_heaps.unwrap_or(false);
        config.sl_completion = match self.sl_completion {
            None | Some(SlCompletionOption::Model) => SlCompletion::Model,
            Some(SlCompletionOption::Run) => SlCompletion::Run,
        };
        self.bounds.apply(&mut config.bounds);
        Ok(config)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_options_resolve_to_the_defaults() {
        assert_eq!(Options::default().resolve(), Ok(Config::default()));
    }

    #[test]
    fn options_read_from_json_resolve() {
        let text = r#"{"strategy": "sl", "pre": "ignore", "bounds": {"k": 3, "timeout_ms": 0}}"#;
        let options: Options = serde_json::from_str(text).expect("valid options");
        let config = options.resolve().expect("resolves");
        assert_eq!(Some(config.strategy), strategy::by_name("sl").and_then(|s| s.kind()));
        assert_eq!((config.bounds.k, config.bounds.timeout_ms), (3, None));
        assert_eq!(config.pre, PreMode::Ignore);
        let bad: Result<Options, _> = serde_json::from_str(r#"{"bounds": {"kk": 3}}"#);
        assert!(bad.is_err(), "an unknown bound is refused");
        let unknown = Options { strategy: Some("eager".into()), ..Options::default() };
        assert_eq!(unknown.resolve().map_err(|e| e.option), Err("strategy"));
    }
}
