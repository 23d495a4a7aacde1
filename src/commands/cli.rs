//! The command line: what a user can ask for, parsed by clap.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::output::report::{ColorChoice, Format};
use crate::protocol::profile::Profile;
use crate::settings::config::FailOn;

/// Lints recorded A2A agent traffic: finds where errors break the A2A error contract.
#[derive(Debug, Parser)]
#[command(name = "a2alint", version, about, long_about = None, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Lint captures (`.http`, HAR and pcap/pcapng files, or directories of them).
    Check(Box<CheckArgs>),
    /// Show each exchange's binding, operation, status, A2A error and what a client
    /// should do next, then a matrix of errors by binding.
    Inspect(InspectArgs),
    /// Rewrite captures with every credential replaced (headers, cookies, push config
    /// tokens, credentials and JWTs in bodies): by `<redacted>` in `.http` and HAR files,
    /// keeping Content-Length right, and by bytes of the same length in pcap files.
    Redact(RedactArgs),
    /// List every rule with its group and default severity.
    Rules {
        #[command(flatten)]
        out: OutputArgs,
    },
    /// Show the documentation of a rule.
    Explain {
        /// The rule id, for example `capture-syntax`.
        rule: String,
        #[command(flatten)]
        out: OutputArgs,
    },
    /// Merge the json, sarif, junit or gitlab reports of a sharded run (`check --shard K/N`)
    /// into the report of the whole run.
    Merge {
        /// The shards' reports, all of one format.
        #[arg(required = true, value_name = "REPORT")]
        reports: Vec<PathBuf>,
        #[command(flatten)]
        out: OutputArgs,
    },
    /// Print a shell completion script.
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
        #[command(flatten)]
        out: OutputArgs,
    },
}

/// Where output goes and how it looks: the same flags on every subcommand. Each one
/// honours those that apply to what it prints (only `check` has a summary and a
/// progress bar; only `check` and `inspect` colour their output) and accepts the rest.
#[derive(Debug, Clone, Args)]
pub struct OutputArgs {
    /// Write the output to this file instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// When to colour output; `auto` honours NO_COLOR, FORCE_COLOR and CLICOLOR_FORCE.
    /// Output written to a file is never coloured.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,

    /// Print the output only: no summary or progress on standard error, and no
    /// per-file status lines from `redact`.
    #[arg(short, long)]
    pub quiet: bool,

    /// Never show a progress bar.
    #[arg(long)]
    pub no_progress: bool,
}

#[derive(Debug, Args)]
#[command(
    after_help = "Exit status: 0 when no finding is at or above --fail-on, \
1 when one is, 2 when a2alint itself failed (bad flag, no input, unreadable file)."
)]
pub struct CheckArgs {
    /// Capture files or directories to lint (default: the current directory); `-` reads
    /// one capture from standard input.
    pub paths: Vec<PathBuf>,

    /// How findings are printed.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,

    #[command(flatten)]
    pub out: OutputArgs,

    /// SARIF `automationDetails.id`: tells runs of different jobs apart in code scanning.
    #[arg(long, value_name = "CATEGORY")]
    pub sarif_category: Option<String>,

    /// Which A2A error table to check against: spec (v1.0.1, the default), spec-1.0.0, or
    /// tck (what the a2a-tck test kit expects).
    #[arg(long, value_enum)]
    pub profile: Option<Profile>,

    /// The lowest severity that makes the exit status 1 [default: warning].
    #[arg(long, value_enum)]
    pub fail_on: Option<FailOn>,

    /// Exit 0 even when there are findings (for gating on code-scanning results instead).
    #[arg(long)]
    pub exit_zero: bool,

    /// Run only these rules or groups (comma-separated).
    #[arg(long, value_delimiter = ',', value_name = "RULES")]
    pub select: Vec<String>,

    /// Do not run these rules or groups (comma-separated).
    #[arg(long, value_delimiter = ',', value_name = "RULES")]
    pub ignore: Vec<String>,

    /// Use this configuration file instead of looking for `a2alint.toml`.
    #[arg(long, value_name = "FILE", conflicts_with = "no_config")]
    pub config: Option<PathBuf>,

    /// Use no configuration file.
    #[arg(long)]
    pub no_config: bool,

    /// Honour no suppression: inline comments and configured ignores alike.
    #[arg(long)]
    pub no_ignores: bool,

    /// The repository root that json, sarif, github, gitlab and junit paths, fingerprints
    /// and baselines are relative to [default: the nearest directory upward holding
    /// `.git`, else the configuration file's directory, else the current directory].
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,

    /// Report only findings that this baseline file does not hold.
    #[arg(long, value_name = "FILE")]
    pub baseline: Option<PathBuf>,

    /// Lint only shard K of N (`--shard 2/4`), for CI matrices: a stable share of the
    /// files, picked by a hash of each path from the repository root. `a2alint merge`
    /// joins the shards' reports. Run-level rules see only the shard's files.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<crate::settings::shard::Shard>,

    /// What a shard keeps together: `file` (the even split) or `directory` (a
    /// directory's captures in one shard, for run-level rules).
    #[arg(
        long,
        value_enum,
        value_name = "UNIT",
        default_value = "file",
        requires = "shard"
    )]
    pub shard_by: crate::settings::shard::ShardBy,

    /// Record today's findings in this baseline file, and exit 0.
    #[arg(long, value_name = "FILE", conflicts_with = "baseline")]
    pub write_baseline: Option<PathBuf>,

    /// Lint exactly the capture files listed in FILE (`-` for standard input), one per line;
    /// missing and non-capture paths are skipped and nothing is walked.
    #[arg(long, value_name = "FILE", conflicts_with = "paths")]
    pub files_from: Option<PathBuf>,

    /// Skip (with an error) capture files larger than this: 200M, 2G...
    #[arg(long, value_name = "SIZE", default_value = "4G", value_parser = crate::input::walk::parse_size)]
    pub max_file_size: u64,

    /// Number of files linted at once (default: one per CPU).
    #[arg(short = 'j', long)]
    pub threads: Option<usize>,

    /// The name reports give to a capture read from standard input.
    #[arg(long, default_value = "<stdin>")]
    pub stdin_filename: String,
}

#[derive(Debug, Args)]
pub struct InspectArgs {
    /// Capture files or directories (default: the current directory).
    pub paths: Vec<PathBuf>,

    /// `table` for people, `json` for machines.
    #[arg(long, value_enum, default_value_t = InspectFormat::Table)]
    pub format: InspectFormat,

    /// The error table to read statuses against.
    #[arg(long, value_enum, default_value_t = Profile::Spec)]
    pub profile: Profile,

    #[command(flatten)]
    pub out: OutputArgs,
}

#[derive(Debug, Args)]
#[command(
    after_help = "Files are rewritten atomically (a temporary file renamed over the original), so a \
failure leaves the original untouched. Exit status: 0 done, 1 with --check when a file would change, 2 on errors."
)]
pub struct RedactArgs {
    /// Capture files or directories (`.http`, `.har`, `.pcap`, `.pcapng`); `-` reads standard input and
    /// writes the redacted capture to standard output.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,

    /// Change nothing; exit 1 if any file holds a credential.
    #[arg(long, conflicts_with = "diff")]
    pub check: bool,

    /// Change nothing; show the lines that would change (credentials masked).
    #[arg(long)]
    pub diff: bool,

    #[command(flatten)]
    pub out: OutputArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum InspectFormat {
    Table,
    Json,
}
