//! The caller's bounds on time and memory. The logic has no clock and no allocator of its own
//! (it compiles to wasm32 and runs inside the engine's runs), so a front end that bounds a
//! computation hands it an [`Interrupt`]: asked now and then by every long loop of the crate
//! (the unfolding search, the base-pair and base-formula fixed points, witness unfolding,
//! model building, the model checker, enumeration), it answers which bound has been passed,
//! and the computation ends at once, saying so.

use std::fmt;

/// A bound of the caller that stopped a computation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Halt {
    /// A time limit whose value the logic does not know (a caller's deadline).
    Deadline,
    /// The time limit, in milliseconds.
    Time { ms: u64 },
    /// The memory bound, in megabytes.
    Memory { mb: u64 },
}

impl fmt::Display for Halt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Halt::Deadline => write!(f, "the time limit"),
            Halt::Time { ms } => write!(f, "the time limit ({ms} ms)"),
            Halt::Memory { mb } => write!(f, "the memory bound ({mb} MB)"),
        }
    }
}

/// Asked before each unit of work (a partial heap, a consistency check, an unfolding), so it
/// must be cheap (a clock read, an allocator's counter); `Some(bound)` stops the computation,
/// which reports that bound. Once it has fired it must keep firing: a computation may ask
/// again on its way out (the memory in use may drop back below the bound as it unwinds).
pub type Interrupt<'a> = dyn FnMut() -> Option<Halt> + 'a;

/// An interrupt that never fires.
pub fn never() -> Option<Halt> {
    None
}
