//! Inputs the fuzzers (see FUZZING.md) found crashing a2alint, kept as fixtures in
//! `tests/fixtures/regressions/`: each must lint without a panic, give the finding a
//! person would expect, and render in every format.

mod common;

use std::path::{Path, PathBuf};

use a2alint::FileReport;
use a2alint::output::report::Format;
use common::{fired, lint_file, render};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/regressions")
        .join(name)
}

/// Lints the fixture and renders it in every format; any panic fails the test.
fn lint(name: &str) -> FileReport {
    let report = lint_file(&fixture(name));
    let reports = [report];
    for format in common::text_formats() {
        render(format, &reports);
    }
    let [report] = reports;
    report
}

fn messages(report: &FileReport) -> Vec<&str> {
    report
        .diagnostics
        .iter()
        .map(|d| d.message.as_str())
        .collect()
}

/// A file starting with a UTF-8 continuation byte: the window of the finding at byte 0
/// stepped back before the start of the file looking for the character's first byte.
#[test]
fn window_at_a_leading_continuation_byte() {
    let report = lint("leading-continuation-byte.http");
    assert_eq!(fired(&report), ["capture-syntax"]);
    let diagnostic = &report.diagnostics[0];
    assert!(
        diagnostic
            .message
            .contains("expected a request line or a status line"),
        "{:?}",
        messages(&report)
    );
    assert_eq!(
        (
            diagnostic.primary.start.line,
            diagnostic.primary.start.column
        ),
        (1, 1)
    );
}

/// A HAR log that is not JSON before its entries: the masking scan still found entry 0,
/// which the HAR reader never wrote, and compared its length with a text that has none.
#[test]
fn har_entry_after_a_syntax_error() {
    let report = lint("har-entry-after-a-syntax-error.har");
    assert_eq!(report.exchanges, 0);
    assert_eq!(fired(&report), ["capture-syntax"]);
    assert!(
        report.diagnostics[0]
            .message
            .starts_with("HAR file is not valid JSON"),
        "{:?}",
        messages(&report)
    );
    // The credential in the entry is still masked in the window shown around the error.
    let human = render(Format::Human, &[report]);
    assert!(!human.contains("fuzz-not-a-secret"), "{human}");
}

/// A HAR file cut short right after a backslash in a string: the JSON scanner stepped
/// over the escape and past the end of the file.
#[test]
fn har_cut_after_a_backslash() {
    let report = lint("har-cut-after-a-backslash.har");
    assert_eq!(report.exchanges, 0);
    assert_eq!(fired(&report), ["capture-syntax"]);
    assert!(
        report.diagnostics[0]
            .message
            .starts_with("HAR file is cut short"),
        "{:?}",
        messages(&report)
    );
}

/// `#` lines inside a body that no separator or start line follows are body lines. Each
/// was looked at again for every line before it, so a body of many of them took
/// quadratic time: 20,000 lines took minutes.
#[test]
fn comment_lines_in_a_body() {
    let report = lint("comment-lines-in-a-body.http");
    assert_eq!(report.exchanges, 1);
    assert_eq!(fired(&report), ["body-not-json"]);
    assert_eq!(report.diagnostics[0].primary.start.line, 5);

    let bytes = std::fs::read(fixture("comment-lines-in-a-body.http")).unwrap();
    let text = String::from_utf8(bytes).unwrap();
    let many = text.replace("# another\n", &"# another\n".repeat(50_000));
    let started = std::time::Instant::now();
    let report = a2alint::lint_source("many.http", many.as_bytes(), &Default::default());
    assert_eq!(fired(&report), ["body-not-json"]);
    assert!(
        started.elapsed() < std::time::Duration::from_secs(30),
        "took {:?}",
        started.elapsed()
    );
}

/// A pcapng block whose length is below any block's minimum: pcap-parser took 12 from it
/// and overflowed (found by the `pcap_reader` target).
#[test]
fn pcapng_block_shorter_than_a_block() {
    let report = lint("pcapng-short-process-information-block.pcapng");
    assert_eq!(fired(&report), ["capture-syntax"]);
    assert!(
        report.diagnostics[0]
            .message
            .contains("a pcapng block claims a length of 8 bytes"),
        "{:?}",
        messages(&report)
    );
}

/// An `Upgrade: h2c` whose request range holds only blank lines after its head: httparse
/// parsed nothing and a2alint took the span of a string outside the buffer (found by the
/// `h2_decoder` target; the fixture is in that target's layout: the client's length in
/// two bytes, a flags byte, an order byte, the client's bytes, the server's bytes).
#[test]
fn h2_upgrade_of_blank_lines() {
    use a2alint::input::capture::wire::h2::{H2Start, read_h2};
    use a2alint::input::capture::wire::{Connection, Stream, StreamPiece};
    let input = std::fs::read(fixture("h2-upgrade-switching-of-blank-lines.h2-input")).unwrap();
    let client_len = usize::from(u16::from_be_bytes([input[0], input[1]]));
    let (client, server) = input[4..].split_at(client_len);
    let stream = |bytes: &[u8]| Stream {
        bytes: bytes.to_vec(),
        pieces: vec![StreamPiece {
            at: 0,
            file: 0,
            len: bytes.len(),
            frame: 1,
        }],
        end: Default::default(),
    };
    let connection = Connection {
        number: 1,
        client: "127.0.0.1:1".parse().unwrap(),
        server: "127.0.0.1:2".parse().unwrap(),
    };
    let start = H2Start::Upgrade {
        request: 0..client.len(),
        switching: 0..server.len(),
        client_at: client.len(),
        server_at: server.len(),
    };
    let read = read_h2(&connection, &stream(client), &stream(server), start, 0);
    for exchange in &read.exchanges {
        let _ = exchange.http2_exchange();
    }
}

/// A chunked body cut after a whole chunk and a blank line (a client closing an event
/// stream): trimming the blank line off the body's end reached back into the chunk's
/// data, so the body's raw span ended inside its own content.
#[test]
fn chunked_cut_after_a_chunk_ending_in_a_blank_line() {
    use a2alint::input::capture::{Content, Origin, read_http};
    let bytes = std::fs::read(fixture(
        "chunked-cut-after-a-chunk-ending-in-a-blank-line.http",
    ))
    .unwrap();
    let capture = read_http(&bytes);
    let body = &capture.exchanges[0].response.as_ref().unwrap().body;
    let Some(Content {
        origin: Origin::Chunked(pieces),
        ..
    }) = &body.content
    else {
        panic!("{body:?}")
    };
    for piece in pieces {
        assert!(
            body.raw.start <= piece.raw && piece.raw + piece.len <= body.raw.end,
            "{piece:?} outside {:?}",
            body.raw
        );
    }
    let report = lint("chunked-cut-after-a-chunk-ending-in-a-blank-line.http");
    // A response alone (the file holds no request) is also unpaired.
    assert_eq!(fired(&report), ["unpaired-message", "capture-incomplete"]);
}

/// One 16 KB gzip message of empty `Task.history` entries: decoded, it was 8.4 million
/// structs and 1.9 GB (FUZZING.md #7). Its fields are counted first now, and it is
/// refused before decoding.
#[test]
fn grpc_task_history_of_empty_messages() {
    let report = lint("grpc-task-history-of-empty-messages.pcap");
    assert_eq!(fired(&report), ["undecodable-body"]);
}
