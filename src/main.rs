//! The `a2alint` binary: parses the command line and hands it to the library.

use std::process::ExitCode;

use clap::Parser;

/// jemalloc's thread caches make the small, short-lived allocations of each exchange
/// cheap, and frees on a thread other than the allocating one stay cheap too (the
/// writer drops reports the workers built).
#[cfg(not(target_env = "msvc"))]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

fn main() -> ExitCode {
    a2alint::run(a2alint::commands::cli::Cli::parse())
}
