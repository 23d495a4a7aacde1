//! `--format json`: a versioned JSON document of every finding and a summary.
//!
//! Schema, version 1 (a field is only ever added within a version; renaming or removing one
//! bumps `version`). Positions are 1-based like every other a2alint output, unlike zizmor's
//! 0-based `json-v1` (linter-conventions takeaway 1):
//!
//! ```text
//! {
//!   "version": 1,
//!   "tool": { "name": "a2alint", "version": "0.1.0" },
//!   "files": [ { "path": string, "exchanges": int } ],   // every file checked, clean ones too
//!   "diagnostics": [ {
//!     "path": string,                 // from the repository root (absolute outside it)
//!     "rule": string,                 // the rule's slug, e.g. "body-not-json"
//!     "severity": "error" | "warning" | "info",
//!     "message": string,
//!     "help": string | null,
//!     "fingerprint": string,          // 16 hex digits: rule, file, exchange, JSON member
//!     "exchange": int | null,         // 0-based, as in `#exchanges[N]`; null: about the file
//!     "member": string | null,        // what the label points at, e.g. "response/error/code"
//!     "location": Location,           // the primary label
//!     "related": [ Location ]
//!   } ],
//!   "summary": { "files", "exchanges", "errors", "warnings", "infos",
//!                "suppressed", "baselined", "stale_baseline": int,
//!                // present when not 0: pcap traffic skipped (not TCP; TCP but not
//!                // HTTP) and encrypted connections
//!                "skipped_frames", "skipped_connections", "tls_connections": int }
//! }
//! Location = {
//!   "start": { "line": int, "column": int, "offset": int },
//!   "end":   { "line": int, "column": int, "offset": int },   // exclusive
//!   "body": string | null,   // e.g. "#exchanges[2].response.body": the label is inside that
//!                            // decoded body; start/end then cover the body's bytes in the file
//!   "label": string,         // the label's note, possibly ""
//!   "frame": Frame           // only in a pcap or pcapng file (absent elsewhere)
//! }
//! Frame = {
//!   "number": int,           // 1-based frame of the label's first byte, as Wireshark counts
//!   "last": int,             // frame of its last byte
//!   "connection": int | null,// 1-based TCP connection, in order of first frame
//!   "peers": string | null,  // "client:port → server:port"
//!   "stream": int | null     // HTTP/2 stream id
//! }
//! ```
//!
//! In a pcap file, `offset`s are byte offsets into the pcap file (the label's bytes in
//! the frame's packet) and `line` is the frame number, `column` 1.
//!
//! Lines and columns are 1-based; columns count Unicode scalar values; offsets are 0-based
//! byte offsets into the file. Diagnostics are in file order, then by position; the
//! findings of the run-level rules (`binding-divergence`, `card-contradicted`, and
//! `unsupported-version-accepted` against a card read in another file) come after every
//! file's, again in file order, then by position.
//!
//! The document is written as files complete: the entries of `files` and the
//! diagnostics go to temporary files (`spool`) until the summary is known, then follow
//! it.

use std::io::{self, Write};

use serde::Serialize;

use crate::input::source::LineCol;
use crate::input::walk::Input;
use crate::output::FileReport;
use crate::output::report::github::display_path;
use crate::output::report::spool::Spool;
use crate::output::report::stream::{Elements, cut};
use crate::output::report::{Context, Reporter, Summary};
use crate::output::resolve::Location;

/// The schema's version; bumped on any change that is not a pure addition.
const VERSION: u32 = 1;

pub struct Json<'w> {
    context: &'w Context,
    out: &'w mut dyn Write,
    /// Every file checked, with its exchanges, as written.
    files: Elements,
    files_spool: Spool,
    diagnostics: Elements,
    spool: Spool,
}

impl<'w> Json<'w> {
    pub fn new(context: &'w Context, out: &'w mut dyn Write) -> io::Result<Self> {
        // Where the elements go, and so how they are indented, does not depend on the
        // counts, which are known only at the end.
        let at_diagnostics = cut(&document(&Summary::default()), Some("diagnostics"));
        let at_files = cut(&at_diagnostics.head, Some("files"));
        Ok(Json {
            context,
            out,
            files: Elements::new(&at_files),
            files_spool: Spool::new()?,
            diagnostics: Elements::new(&at_diagnostics),
            spool: Spool::new()?,
        })
    }

    fn push(&mut self, report: &FileReport) -> io::Result<String> {
        // Paths as the CI formats give them: from the repository root, so a document
        // reads the same whatever directory a2alint ran in.
        let path = display_path(&report.path, self.context);
        for d in &report.diagnostics {
            let diagnostic = JsonDiagnostic {
                path: &path,
                rule: d.rule.slug(),
                severity: d.severity.as_str(),
                message: &d.message,
                help: d.help.as_deref(),
                fingerprint: &d.fingerprint,
                exchange: d.exchange,
                member: d.member.as_deref(),
                location: location(&d.primary),
                related: d.related.iter().map(location).collect(),
            };
            self.diagnostics.push(&diagnostic, &mut self.spool)?;
        }
        Ok(path)
    }
}

impl Reporter for Json<'_> {
    fn file(&mut self, report: &FileReport, _source: Option<&Input>) -> io::Result<()> {
        let path = self.push(report)?;
        let file = File {
            path: &path,
            exchanges: report.exchanges,
        };
        self.files.push(&file, &mut self.files_spool)
    }

    fn run_level(&mut self, reports: &[(usize, FileReport)]) -> io::Result<()> {
        for (_, report) in reports {
            self.push(report)?;
        }
        Ok(())
    }

    fn finish(self: Box<Self>, summary: &Summary) -> io::Result<()> {
        let Json {
            out,
            files,
            files_spool,
            diagnostics,
            spool,
            ..
        } = *self;
        let whole = document(summary);
        let at_diagnostics = cut(&whole, Some("diagnostics"));
        let at_files = cut(&at_diagnostics.head, Some("files"));
        out.write_all(at_files.head.as_bytes())?;
        files_spool.copy_to(out)?;
        files.close(out)?;
        out.write_all(at_files.tail.as_bytes())?;
        spool.copy_to(out)?;
        diagnostics.close(out)?;
        out.write_all(at_diagnostics.tail.as_bytes())?;
        writeln!(out)
    }
}

/// The document with no file and no diagnostic, pretty-printed, to be cut.
fn document(s: &Summary) -> String {
    let document = Document {
        version: VERSION,
        tool: Tool {
            name: "a2alint",
            version: env!("CARGO_PKG_VERSION"),
        },
        files: Vec::new(),
        diagnostics: Vec::new(),
        summary: JsonSummary {
            files: s.files,
            exchanges: s.exchanges,
            errors: s.errors,
            warnings: s.warnings,
            infos: s.infos,
            suppressed: s.suppressed,
            baselined: s.baselined,
            stale_baseline: s.stale_baseline,
            skipped_frames: s.skipped_frames,
            skipped_connections: s.skipped_connections,
            tls_connections: s.tls_connections,
        },
    };
    serde_json::to_string_pretty(&document).expect("a document of plain values")
}

fn location(l: &Location) -> JsonLocation<'_> {
    JsonLocation {
        start: position(l.start, l.span.start),
        end: position(l.end, l.span.end),
        body: l.body.as_deref(),
        label: &l.text,
        frame: l.frame.as_ref().map(|f| JsonFrame {
            number: f.frame,
            last: f.last_frame,
            connection: f.connection,
            peers: f.peers.as_deref(),
            stream: f.stream,
        }),
    }
}

fn position(at: LineCol, offset: usize) -> Position {
    Position {
        line: at.line,
        column: at.column,
        offset,
    }
}

#[derive(Serialize)]
struct Document<'a> {
    version: u32,
    tool: Tool,
    files: Vec<File<'a>>,
    diagnostics: Vec<JsonDiagnostic<'a>>,
    summary: JsonSummary,
}

#[derive(Serialize)]
struct Tool {
    name: &'static str,
    version: &'static str,
}

#[derive(Serialize)]
struct File<'a> {
    path: &'a str,
    exchanges: usize,
}

#[derive(Serialize)]
struct JsonDiagnostic<'a> {
    path: &'a str,
    rule: &'static str,
    severity: &'static str,
    message: &'a str,
    help: Option<&'a str>,
    fingerprint: &'a str,
    exchange: Option<usize>,
    member: Option<&'a str>,
    location: JsonLocation<'a>,
    related: Vec<JsonLocation<'a>>,
}

#[derive(Serialize)]
struct JsonLocation<'a> {
    start: Position,
    end: Position,
    body: Option<&'a str>,
    label: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    frame: Option<JsonFrame<'a>>,
}

#[derive(Serialize)]
struct JsonFrame<'a> {
    number: u32,
    last: u32,
    connection: Option<usize>,
    peers: Option<&'a str>,
    stream: Option<u32>,
}

#[derive(Serialize)]
struct Position {
    line: usize,
    column: usize,
    offset: usize,
}

#[derive(Serialize)]
struct JsonSummary {
    files: usize,
    exchanges: usize,
    errors: usize,
    warnings: usize,
    infos: usize,
    suppressed: usize,
    baselined: usize,
    stale_baseline: usize,
    // Only for runs with pcap files that held traffic a2alint does not read.
    #[serde(skip_serializing_if = "is_zero")]
    skipped_frames: usize,
    #[serde(skip_serializing_if = "is_zero")]
    skipped_connections: usize,
    #[serde(skip_serializing_if = "is_zero")]
    tls_connections: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}
