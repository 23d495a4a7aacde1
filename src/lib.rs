//! a2alint reads recorded HTTP traffic of A2A agents and reports, at the exact bytes,
//! where it breaks the A2A error contract and related wire rules.
//!
//! ```text
//! paths ── walk ──▶ sorted capture files (.http, .har, .pcap/.pcapng/.cap; explicit files
//!                   of any name; - for stdin)
//!       ── a pool of workers, files taken in order, handed over in order ──▶ for each file:
//!            .http  bytes ── capture::read_http ──▶ exchanges, every part with its byte span
//!            HAR    entries ── each written as HTTP/1.1 text ──▶ exchanges of that text
//!            pcap   packets ── capture::wire: link and IP, TCP reassembly per connection
//!                   ── HTTP/1.x (the .http framing) or HTTP/2 (frames, HPACK) ──▶ one text
//!                   view per exchange, whose bytes know their frames and file offsets
//!            each exchange ── classify ──▶ a view (JSON decoded once, dropped after)
//!            views ── every rule ──▶ findings
//!            findings ── resolve (one place per format: file lines, HAR members, frames)
//!                        ──▶ diagnostics with a location and a small window;
//!                        the file's bytes are dropped here
//!       ── config ignores, baseline ──▶ findings that count
//!       ── report (human, concise, json, sarif, github, gitlab, junit, html) ──▶ stdout or
//!          --output, file by file; the file's diagnostics are dropped, its run-level facts kept
//!   after the last file: run-level rules over those facts ── gate ── report, then the
//!   document's end; summary ──▶ stderr
//!       ── exit status: 0 clean, 1 findings at or above --fail-on, 2 a2alint failed
//! ```

pub mod commands;
pub mod input;
pub mod lint;
pub mod output;
pub mod protocol;
pub mod rules;
pub mod settings;

pub use commands::run;
pub use lint::{Options, lint_inputs, lint_source};
pub use output::FileReport;
pub use protocol::profile::Profile;
