//! The bound flags of the commands that run the explorer, made from the engine's one bound
//! table ([`heaplab_engine::symbolic::bounds::BOUNDS`]): a new bound there is a new flag here,
//! with its help text and default, and nothing to add by hand.

use clap::{Arg, ArgMatches, Command};
use heaplab_engine::symbolic::bounds::{BoundOptions, Bounds, BOUNDS};

/// The bounds given on the command line (`--k 3 --timeout-ms 0`), the others left out.
#[derive(Clone, Debug, Default)]
pub struct BoundFlags(pub BoundOptions);

impl BoundFlags {
    /// The engine's bounds: the defaults with the given ones written over them.
    pub fn resolve(&self) -> Bounds {
        let mut bounds = Bounds::default();
        self.0.apply(&mut bounds);
        bounds
    }
}

impl clap::FromArgMatches for BoundFlags {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        let mut options = BoundOptions::default();
        for spec in BOUNDS {
            if let Some(v) = matches.get_one::<u64>(spec.name) {
                options.set(spec.name, *v);
            }
        }
        Ok(BoundFlags(options))
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

impl clap::Args for BoundFlags {
    fn augment_args(cmd: Command) -> Command {
        BOUNDS.iter().fold(cmd, |cmd, spec| {
            cmd.arg(
                Arg::new(spec.name)
                    .long(spec.flag())
                    .value_name("N")
                    .value_parser(clap::value_parser!(u64))
                    .help(format!("{} [default: {}]", spec.help, spec.default_value())),
            )
        })
    }

    fn augment_args_for_update(cmd: Command) -> Command {
        Self::augment_args(cmd)
    }
}
