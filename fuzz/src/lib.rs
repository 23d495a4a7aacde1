//! Invariants the fuzz targets check on top of "does not panic": every span a2alint hands
//! out lies inside the bytes it was read from, and the bytes it says are there are there.
//! `grpc_call` writes the captures of gRPC calls `grpc_decoder` lints.

pub mod grpc_call;

use a2alint::input::capture::wire::{
    FILE_SPANS, Wire, WireExchange, WireMessage, WireParts, frame_offsets, unshift_file_span,
};
use a2alint::input::capture::{Capture, Content, Event, Message, Origin, ReadProblem, read_http};
use a2alint::output::report::Format;
use a2alint::output::report::{Context, Summary};
use a2alint::input::source::Span;
use a2alint::{FileReport, Options, lint_source};

/// Every report format; a new `Format` variant fails to compile here until it is fuzzed.
pub fn all_formats() -> [Format; 8] {
    let all = [
        Format::Human,
        Format::Concise,
        Format::Json,
        Format::Sarif,
        Format::Github,
        Format::Gitlab,
        Format::Junit,
        Format::Html,
    ];
    for format in all {
        match format {
            Format::Human
            | Format::Concise
            | Format::Json
            | Format::Sarif
            | Format::Github
            | Format::Gitlab
            | Format::Junit
            | Format::Html => {}
        }
    }
    all
}

fn in_bounds(src: &[u8], span: Span, what: &str) {
    assert!(
        span.start <= span.end && span.end <= src.len(),
        "{what} {span:?} outside 0..{}",
        src.len()
    );
}

/// Checks what `read_http` returned for `src`.
pub fn check_capture(src: &[u8], capture: &Capture<'_>) {
    for (i, exchange) in capture.exchanges.iter().enumerate() {
        assert_eq!(exchange.index, i, "exchange indices run 0, 1, 2, ...");
        let messages = exchange
            .request
            .iter()
            .chain(exchange.interim.iter())
            .chain(exchange.response.iter());
        for message in messages {
            check_message(src, message);
        }
    }
    for problem in &capture.problems {
        match problem {
            ReadProblem::Syntax { span, .. } => in_bounds(src, *span, "syntax problem"),
            ReadProblem::LengthMismatch { header, body, .. } => {
                in_bounds(src, *header, "length mismatch header");
                in_bounds(src, *body, "length mismatch body");
            }
            ReadProblem::Undecodable { header, .. } => in_bounds(src, *header, "coding header"),
            ReadProblem::Incomplete { span, .. } => in_bounds(src, *span, "incomplete"),
        }
    }
}

fn check_message(src: &[u8], message: &Message<'_>) {
    in_bounds(src, message.span, "message");
    in_bounds(src, message.start_line_span, "start line");
    assert_eq!(message.start_line_span.start, message.span.start);
    for comment in &message.comments {
        in_bounds(src, *comment, "comment");
    }
    for header in &message.headers {
        in_bounds(src, header.name_span, "header name");
        in_bounds(src, header.value_span, "header value");
        assert_eq!(header.name.as_bytes(), &src[header.name_span.range()]);
        assert_eq!(header.value, &src[header.value_span.range()]);
    }
    let raw = message.body.raw;
    in_bounds(src, raw, "body");
    if let Some(content) = &message.body.content {
        check_content(src, raw, content);
    }
}

fn check_content(src: &[u8], raw: Span, content: &Content<'_>) {
    match &content.origin {
        Origin::Verbatim { start } => {
            let end = start + content.bytes.len();
            assert!(end <= src.len(), "verbatim body past the end");
            assert_eq!(&src[*start..end], &*content.bytes, "verbatim bytes differ");
        }
        Origin::Chunked(pieces) => {
            let mut joined = Vec::new();
            for piece in pieces {
                let span = Span::new(piece.raw, piece.raw + piece.len);
                in_bounds(src, span, "chunk piece");
                assert!(
                    raw.start <= span.start && span.end <= raw.end,
                    "chunk piece {span:?} before body {raw:?}"
                );
                assert_eq!(piece.decoded, joined.len(), "pieces are contiguous");
                joined.extend_from_slice(&src[span.range()]);
            }
            assert_eq!(joined, &*content.bytes, "de-chunked bytes differ");
        }
        Origin::Decoded => {}
    }
    let len = content.bytes.len();
    for (start, end) in [(0, len), (0, 0), (len / 2, len), (len, len)] {
        if let Some(span) = content.capture_span(Span::new(start, end)) {
            in_bounds(src, span, "mapped body span");
        }
    }
}

/// Checks what `parse_events` returned for `body`.
pub fn check_events(body: &[u8], events: &[Event<'_>]) {
    for (i, event) in events.iter().enumerate() {
        assert_eq!(event.index, i);
        in_bounds(body, event.span, "event");
        let mut joined: Vec<u8> = Vec::new();
        for (n, piece) in event.pieces.iter().enumerate() {
            let span = Span::new(piece.raw, piece.raw + piece.len);
            in_bounds(body, span, "data line");
            if n > 0 {
                joined.push(b'\n');
            }
            assert_eq!(piece.decoded, joined.len(), "data pieces are contiguous");
            joined.extend_from_slice(&body[span.range()]);
        }
        assert_eq!(joined, &*event.data, "event data differs from its lines");
        let len = event.data.len();
        for (start, end) in [(0, len), (0, 0), (len / 2, len), (len, len)] {
            in_bounds(
                body,
                event.body_span(Span::new(start, end)),
                "mapped event span",
            );
        }
    }
}

/// Lints `bytes` as a run of one file does, once under each of `paths`, then renders the
/// reports together in every format. SARIF carries every rule's documentation, so writing
/// it costs several times the rest of the run: it is written (and checked to be JSON) only
/// when `sarif` is set.
pub fn lint_and_render(paths: &[&str], bytes: &[u8], color: bool, sarif: bool) -> Vec<FileReport> {
    let mut reports: Vec<FileReport> = paths
        .iter()
        .map(|path| lint_source(path, bytes, &Options::default()))
        .collect();
    // The run-level rules, as over a run of these files.
    a2alint::lint::check_linted_run(&mut reports);
    let context = Context {
        color,
        summary: Summary::of(&reports),
        ..Context::default()
    };
    for format in all_formats() {
        if format == Format::Sarif && !sarif {
            continue;
        }
        let mut out = Vec::new();
        a2alint::output::report::write(format, &reports, &context, &mut out).expect("write to a Vec");
        if matches!(format, Format::Json | Format::Sarif | Format::Gitlab)
            && let Err(e) = serde_json::from_slice::<serde::de::IgnoredAny>(&out)
        {
            panic!("{format:?} output is not JSON: {e}");
        }
    }
    reports
}

/// Every span a problem names.
fn problem_spans(problem: &ReadProblem) -> Vec<Span> {
    match problem {
        ReadProblem::Syntax { span, .. } | ReadProblem::Incomplete { span, .. } => vec![*span],
        ReadProblem::LengthMismatch { header, body, .. } => vec![*header, *body],
        ReadProblem::Undecodable { header, .. } => vec![*header],
    }
}

/// Checks a problem about frames: its spans are spans of the capture file `file`, moved
/// up by [`FILE_SPANS`](a2alint::input::capture::wire::FILE_SPANS).
pub fn check_file_problem(file: &[u8], problem: &ReadProblem) {
    for span in problem_spans(problem) {
        let Some(span) = unshift_file_span(span) else {
            panic!("problem span {span:?} is not a file span: {problem:?}");
        };
        in_bounds(file, span, "file problem");
    }
}

/// Checks a problem in the text of one exchange: its spans lie inside that text.
pub fn check_text_problem(text: &[u8], problem: &ReadProblem) {
    for span in problem_spans(problem) {
        in_bounds(text, span, "exchange problem");
    }
}

/// Checks what `read_pcap` returned for `file`, besides the exchanges.
pub fn check_wire(file: &[u8], wire: &Wire) {
    assert_eq!(wire.counts.frames, wire.frames.len());
    for frame in &wire.frames {
        in_bounds(file, *frame, "frame");
    }
    assert!(
        wire.frames.windows(2).all(|w| w[0].end <= w[1].start),
        "frames in file order"
    );
    let starts: Vec<usize> = wire.frames.iter().map(|f| f.start).collect();
    assert_eq!(
        frame_offsets(file),
        starts,
        "both passes see the same frames"
    );
    let counts = wire.counts;
    assert!(
        counts.http_connections + counts.skipped_connections + counts.tls_connections
            <= counts.connections,
        "{counts:?}"
    );
    assert!(counts.skipped_frames <= counts.frames, "{counts:?}");
    let connection_problems = wire.connection_problems.iter().map(|(_, p)| p);
    for problem in wire.problems.iter().chain(connection_problems) {
        check_file_problem(file, problem);
    }
}

/// Checks one exchange the wire reader handed out. `file` holds the bytes its origins
/// point into, `frames` is how many frames it has (origins name frames `1..=frames`).
pub fn check_wire_exchange(file: &[u8], frames: usize, exchange: &WireExchange) {
    let text = &exchange.text;
    assert!(text.len() < FILE_SPANS);
    let mut last = 0;
    for origin in &exchange.origins {
        in_bounds(text, origin.text, "origin text");
        in_bounds(file, origin.file, "origin file");
        assert!(origin.text.start >= last, "origins sorted by text start");
        last = origin.text.start;
        assert!(
            (1..=frames).contains(&(origin.frame as usize)),
            "origin frame {} of {frames}",
            origin.frame
        );
        if origin.exact {
            assert_eq!(
                &text[origin.text.range()],
                &file[origin.file.range()],
                "exact origin {origin:?} differs from the file"
            );
        }
    }
    match &exchange.parts {
        WireParts::Http1 => {
            assert!(exchange.http2_exchange().is_none());
            let capture = read_http(text);
            check_capture(text, &capture);
        }
        WireParts::Http2 {
            request,
            interim,
            response,
        } => {
            for m in request.iter().chain(interim).chain(response) {
                check_wire_message(text, m);
            }
            let http2 = exchange
                .http2_exchange()
                .expect("an HTTP/2 view reads as an exchange");
            assert_eq!(http2.index, exchange.index);
            assert_eq!(http2.request.is_some(), request.is_some());
            assert_eq!(http2.interim.len(), interim.len());
            assert_eq!(http2.response.is_some(), response.is_some());
            let messages = http2
                .request
                .iter()
                .chain(http2.interim.iter())
                .chain(http2.response.iter());
            for message in messages {
                check_http2_message(text, message);
            }
        }
    }
}

fn check_wire_message(text: &[u8], m: &WireMessage) {
    in_bounds(text, m.span, "message");
    for (span, what) in [
        (m.start_line, "start line"),
        (m.first, "start line part"),
        (m.second, "start line part"),
        (m.body.raw, "body"),
    ] {
        in_bounds(text, span, what);
        assert!(
            m.span.start <= span.start && span.end <= m.span.end,
            "{what} {span:?} outside its message {:?}",
            m.span
        );
    }
    for &(name, value) in m.headers.iter().chain(&m.trailers) {
        in_bounds(text, name, "field name");
        in_bounds(text, value, "field value");
    }
}

/// An HTTP/2 message as the rules read it: spans inside the text, fields are the bytes
/// their spans name (a name that is not UTF-8 reads as ""), bodies map back inside it.
fn check_http2_message(text: &[u8], message: &Message<'_>) {
    in_bounds(text, message.span, "message");
    in_bounds(text, message.start_line_span, "start line");
    for header in message.headers.iter().chain(&message.trailers) {
        in_bounds(text, header.name_span, "header name");
        in_bounds(text, header.value_span, "header value");
        let name = &text[header.name_span.range()];
        let expected = std::str::from_utf8(name).unwrap_or("");
        assert_eq!(header.name, expected);
        assert_eq!(header.value, &text[header.value_span.range()]);
    }
    let raw = message.body.raw;
    in_bounds(text, raw, "body");
    if let Some(content) = &message.body.content {
        check_content(text, raw, content);
    }
}
