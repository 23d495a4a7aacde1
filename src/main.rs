//! The `a2alint` binary: parses the command line and hands it to the library.

use std::process::ExitCode;

use clap::Parser;

/// jemalloc's thread caches make the small, short-lived allocations of each exchange
/// cheap, and frees on a thread other than the allocating one stay cheap too (the
/// writer drops reports the workers built).
#[cfg(not(target_env = "msvc"))]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

/// jemalloc's options, read as a C string before the first allocation. By default a
/// thread's cache is trimmed after every 64 KiB it allocates; the small, short-lived
/// allocations of each exchange made those trims 1.6 % of a run's instructions. After
/// every 4 MiB they cost almost nothing, and peak memory stays the same (BENCHMARKS.md,
/// "The fourteenth round"). `_RJEM_MALLOC_CONF` in the environment still overrides it.
#[cfg(not(target_env = "msvc"))]
#[unsafe(export_name = "_rjem_malloc_conf")]
static JEMALLOC_OPTIONS: &u8 = &b"tcache_gc_incr_bytes:4194304\0"[0];

fn main() -> ExitCode {
    a2alint::run(a2alint::commands::cli::Cli::parse())
}
