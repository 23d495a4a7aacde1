//! The `a2alint` binary: parses the command line and hands it to the library.

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    a2alint::run(a2alint::commands::cli::Cli::parse())
}
