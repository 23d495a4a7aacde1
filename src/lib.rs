//! a2alint reads recorded traffic of A2A agents and reports, at the exact bytes, where it
//! breaks the A2A error contract and related wire rules.
//!
//! # The pipeline
//!
//! ```text
//!  paths ─▶ input::walk ─▶ captures, one at a time ─▶ lint (a pool of workers; each file
//!           (no list kept)   in order                   whole, handed over in input order)
//!    per file:   bytes ─▶ input::capture (Kind: .http | HAR | pcap) ─▶ exchanges, every
//!                         part with its span (HAR: per entry; pcap: per TCP connection,
//!                         HTTP/1.x or HTTP/2 with gRPC, a text view mapped to frames)
//!                exchange ─▶ protocol::classify ─▶ a view (binding, operation, errors)
//!                view ─▶ rules (every enabled rule) ─▶ finding::Finding, labels on spans
//!                findings ─▶ settings::suppress (inline directives)
//!                         ─▶ output::resolve (lines, HAR members, frames, windows)
//!                         ─▶ output::FileReport; the file's bytes are dropped
//!    per report: settings::gate (config ignores, baseline) ─▶ output::report (the format's
//!                Reporter writes it at once) ─▶ the report's diagnostics are dropped, its
//!                run-level facts taken in (lint::Run)
//!    at the end: run-level rules over those facts ─▶ gate ─▶ reporter, then the
//!                document's end; summary to stderr; exit status from --fail-on
//! ```
//!
//! # Layers
//!
//! The top-level modules are layers; each may import only from the layers above it in
//! this list, never from one below (`.ci/check-imports` fails the build on a cycle):
//!
//! | layer | holds |
//! |---|---|
//! | [`input`] | files and stdin, byte spans and labels, the capture readers, protobuf, credential search |
//! | [`protocol`] | what an exchange means in A2A: classification, the error table, profiles, advice |
//! | [`finding`] | what rules report: findings, rule ids, suggestions, what run-level rules share with the engine |
//! | [`rules`] | the rules, one module each (`src/rules/<snake_slug>.rs` is rule `<slug>`) |
//! | [`output`] | a file's report, placing findings in the capture, the reporters |
//! | [`settings`] | configuration, the rule set, suppressions, the gate, shards |
//! | [`lint`] | the engine: one file (`FileLint`, a driver per format), a run in order, run-level rules |
//! | [`commands`] | the command line and each subcommand |
//!
//! Rules of thumb: a fact about A2A (a new error, a status table, a binding) goes in
//! `protocol`, and a rule reads it from the view rather than from bytes; a new check is a
//! rule (see `rules/README.md`); a new way of showing findings is a `Reporter` in
//! `output::report`; nothing in a layer knows how the layers below it use it.
//!
//! # Adding an input format
//!
//! pcap was the last format added, and went this way:
//!
//! 1. A variant of [`input::capture::Kind`], with its test in `Kind::of` (a magic number
//!    or a name). The compiler then lists the stages that treat formats differently: the
//!    engine (`lint::lint_source`), `redact` and `inspect`'s walk over exchanges.
//! 2. A reader under `input::capture/` that yields [`input::capture::Exchange`]s whose
//!    parts carry spans into the text they were read from (`wire/`: containers, links,
//!    TCP, HTTP/1.x, HTTP/2; each exchange a text view whose bytes know their frames).
//! 3. A driver in `lint/` (`lint/pcap.rs`) that feeds each exchange to the one engine
//!    path, `FileLint::exchange`, with its origin as a `Unit` (`Unit::Wire`), and says
//!    in `Unit` how findings about that origin are placed.
//! 4. One place that maps the reader's spans back to what people and SARIF viewers are
//!    shown, in `output::resolve` (`wire_map.rs`: frames and connections), used by the
//!    `Resolver` when it enters that unit.
//! 5. Its extensions in `input::walk` (`CAPTURE_EXTENSIONS`), its redaction in
//!    `commands::redact` (`pcap.rs`), fixtures under `tests/fixtures/` (a pcap names its
//!    profile at the end of its file name), a fuzz target (`fuzz/`), and a section of
//!    its own in the README.

pub mod commands;
pub mod finding;
pub mod input;
pub mod lint;
pub mod output;
pub mod protocol;
pub mod rules;
pub mod settings;

pub use commands::run;
pub use lint::{Options, lint_source};
pub use output::FileReport;
pub use protocol::profile::Profile;
