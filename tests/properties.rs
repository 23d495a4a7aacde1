//! Property tests of the capture readers. Generated exchanges written out with random
//! framing (CRLF or LF, Content-Length, chunked or delimited bodies, gzip, `###`
//! separators, comments, exact back-to-back wire bytes) read back to the same exchanges,
//! with spans that slice the file to the text written; and no bytes at all make the
//! readers or the linter panic.
//!
//! 64 cases per property by default; `PROPTEST_CASES=10000 cargo test --test properties`
//! runs more.

use std::io::Write;

use a2alint::input::capture::{
    Capture, Message, Origin, StartLine, Version, parse_events, read_har, read_http,
};
use a2alint::input::source::Span;
use a2alint::{Options, lint_source};
use proptest::prelude::*;
use proptest::test_runner::Config;

fn config() -> Config {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(64);
    Config {
        cases,
        ..Config::default()
    }
}

// ---------------------------------------------------------------------------------------
// What is generated
// ---------------------------------------------------------------------------------------

#[derive(Debug, Clone)]
enum Start {
    Request { method: String, target: String },
    Response { status: u16, reason: String },
}

#[derive(Debug, Clone)]
enum Framing {
    ContentLength,
    /// Each number picks where the next chunk ends.
    Chunked {
        cuts: Vec<usize>,
        upper_hex: bool,
        extension: bool,
        trailer: bool,
    },
    /// No length: the body runs to the next delimiter line. Never gzip, never followed
    /// by back-to-back bytes.
    Delimited,
}

#[derive(Debug, Clone)]
struct Msg {
    start: Start,
    minor: u8,
    /// Name, value, and the whitespace written between the colon and the value.
    headers: Vec<(String, String, &'static str)>,
    /// The decoded body: what the reader must give back.
    body: Vec<u8>,
    framing: Framing,
    gzip: bool,
    crlf: bool,
}

/// What is written between two messages (or before the first).
#[derive(Debug, Clone)]
enum Gap {
    /// The next start line right after the previous message's last byte.
    BackToBack,
    /// A line end, then these lines.
    Lines { crlf: bool, lines: Vec<GapLine> },
}

#[derive(Debug, Clone)]
enum GapLine {
    Blank,
    Separator(String),
    Comment(String),
}

#[derive(Debug, Clone)]
struct Exch {
    request: Msg,
    /// A `100 Continue` between request and response.
    interim: Option<bool>,
    response: Msg,
}

#[derive(Debug, Clone)]
struct CaptureSpec {
    exchanges: Vec<Exch>,
    /// One gap before each message (request, interim, response, in order).
    gaps: Vec<Gap>,
    final_newline: bool,
}

fn json_value() -> impl Strategy<Value = serde_json::Value> {
    use serde_json::Value;
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        "\\PC{0,12}".prop_map(Value::String),
    ];
    leaf.prop_recursive(3, 24, 5, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::btree_map("[a-zA-Z@_]{1,10}", inner, 0..5)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

fn body() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        1 => Just(Vec::new()),
        4 => (json_value(), any::<bool>()).prop_map(|(value, pretty)| if pretty {
            serde_json::to_vec_pretty(&value).unwrap()
        } else {
            serde_json::to_vec(&value).unwrap()
        }),
    ]
}

fn headers() -> impl Strategy<Value = Vec<(String, String, &'static str)>> {
    let name = "[A-Za-z][A-Za-z0-9-]{0,15}".prop_filter("framing headers are written apart", |n| {
        !["content-length", "transfer-encoding", "content-encoding"]
            .contains(&n.to_ascii_lowercase().as_str())
    });
    let value = prop_oneof![
        1 => Just(String::new()),
        6 => "[!-~]([ -~]{0,30}[!-~])?",
    ];
    let space = prop_oneof![Just(" "), Just(""), Just("  "), Just("\t")];
    prop::collection::vec((name, value, space), 0..6)
}

fn framing() -> impl Strategy<Value = Framing> {
    prop_oneof![
        2 => Just(Framing::ContentLength),
        2 => (
            prop::collection::vec(any::<usize>(), 0..6),
            any::<bool>(),
            any::<bool>(),
            any::<bool>()
        )
            .prop_map(|(cuts, upper_hex, extension, trailer)| Framing::Chunked {
                cuts,
                upper_hex,
                extension,
                trailer,
            }),
        1 => Just(Framing::Delimited),
    ]
}

fn message(start: impl Strategy<Value = Start>) -> impl Strategy<Value = Msg> {
    (
        start,
        0u8..2,
        headers(),
        body(),
        framing(),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(start, minor, headers, body, framing, gzip, crlf)| Msg {
            start,
            minor,
            headers,
            body,
            gzip: gzip && !matches!(framing, Framing::Delimited),
            framing,
            crlf,
        })
}

fn request() -> impl Strategy<Value = Msg> {
    let method = prop_oneof![
        Just("GET".to_string()),
        Just("POST".to_string()),
        Just("PUT".to_string()),
        Just("PATCH".to_string()),
        Just("DELETE".to_string()),
        Just("OPTIONS".to_string()),
        Just("HEAD".to_string()),
        "[A-Z][A-Z_-]{0,11}",
    ];
    let target = prop_oneof![
        4 => "(/[A-Za-z0-9._~:-]{1,12}){0,4}(\\?[A-Za-z0-9=&]{1,10})?".prop_map(|p| {
            if p.is_empty() || p.starts_with('?') { format!("/{p}") } else { p }
        }),
        1 => "https://[a-z]{1,8}\\.example(/[a-z0-9]{1,8}){0,3}",
    ];
    message((method, target).prop_map(|(method, target)| Start::Request { method, target }))
}

fn response() -> impl Strategy<Value = Msg> {
    let reason = prop_oneof![Just(String::new()), "[A-Za-z]([A-Za-z ]{0,15}[A-Za-z])?"];
    message((200u16..600, reason).prop_map(|(status, reason)| Start::Response { status, reason }))
}

fn gap() -> impl Strategy<Value = Gap> {
    let line = prop_oneof![
        Just(GapLine::Blank),
        "( [ -~]{0,12})?".prop_map(GapLine::Separator),
        "(#|//)( [ -~]{0,20})?".prop_map(GapLine::Comment),
    ];
    prop_oneof![
        1 => Just(Gap::BackToBack),
        2 => (any::<bool>(), prop::collection::vec(line, 0..4))
            .prop_map(|(crlf, lines)| Gap::Lines { crlf, lines }),
    ]
}

fn capture_spec() -> impl Strategy<Value = CaptureSpec> {
    let exchange = (request(), prop::option::of(any::<bool>()), response()).prop_map(
        |(request, interim, response)| Exch {
            request,
            interim,
            response,
        },
    );
    (
        prop::collection::vec(exchange, 1..5),
        prop::collection::vec(gap(), 16),
        any::<bool>(),
    )
        .prop_map(|(exchanges, gaps, final_newline)| CaptureSpec {
            exchanges,
            gaps,
            final_newline,
        })
}

// ---------------------------------------------------------------------------------------
// Writing it out, noting where every part went
// ---------------------------------------------------------------------------------------

/// Where the writer put one message's parts.
#[derive(Debug, Default)]
struct Written {
    span: Span,
    start_line: Span,
    headers: Vec<(Span, Span)>,
    raw_body: Span,
    /// For a chunked body: where each chunk's data went.
    chunks: Vec<Span>,
    comments: Vec<Span>,
}

impl Msg {
    fn eol(&self) -> &'static str {
        if self.crlf { "\r\n" } else { "\n" }
    }

    /// No body by RFC 9110: responses with 1xx, 204 and 304, and responses to HEAD.
    fn has_no_body(&self, request_method: Option<&str>) -> bool {
        match &self.start {
            Start::Request { .. } => false,
            Start::Response { status, .. } => {
                matches!(status, 100..=199 | 204 | 304) || request_method == Some("HEAD")
            }
        }
    }

    /// The body as the message carries it, after content coding.
    fn coded_body(&self) -> Vec<u8> {
        if !self.gzip {
            return self.body.clone();
        }
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        encoder.write_all(&self.body).unwrap();
        encoder.finish().unwrap()
    }

    fn start_line(&self) -> String {
        match &self.start {
            Start::Request { method, target } => {
                format!("{method} {target} HTTP/1.{}", self.minor)
            }
            Start::Response { status, reason } if reason.is_empty() => {
                format!("HTTP/1.{} {status}", self.minor)
            }
            Start::Response { status, reason } => {
                format!("HTTP/1.{} {status} {reason}", self.minor)
            }
        }
    }

    /// The headers as the reader must give them back: those generated, then framing.
    fn all_headers(&self, no_body: bool) -> Vec<(String, String, &'static str)> {
        let mut all = self.headers.clone();
        if no_body {
            return all;
        }
        if self.gzip {
            all.push(("Content-Encoding".into(), "gzip".into(), " "));
        }
        match self.framing {
            Framing::ContentLength => {
                all.push((
                    "Content-Length".into(),
                    self.coded_body().len().to_string(),
                    " ",
                ));
            }
            Framing::Chunked { .. } => {
                all.push(("Transfer-Encoding".into(), "chunked".into(), " "));
            }
            Framing::Delimited => {}
        }
        all
    }

    fn write(&self, out: &mut Vec<u8>, no_body: bool) -> Written {
        let eol = self.eol();
        let mut written = Written::default();
        let start = out.len();
        out.extend_from_slice(self.start_line().as_bytes());
        written.start_line = Span::new(start, out.len());
        out.extend_from_slice(eol.as_bytes());
        for (name, value, space) in self.all_headers(no_body) {
            let name_start = out.len();
            out.extend_from_slice(name.as_bytes());
            let name_span = Span::new(name_start, out.len());
            out.push(b':');
            out.extend_from_slice(space.as_bytes());
            let value_start = out.len();
            out.extend_from_slice(value.as_bytes());
            written
                .headers
                .push((name_span, Span::new(value_start, out.len())));
            out.extend_from_slice(eol.as_bytes());
        }
        out.extend_from_slice(eol.as_bytes());
        let body_start = out.len();
        if !no_body {
            let coded = self.coded_body();
            match &self.framing {
                Framing::ContentLength | Framing::Delimited => out.extend_from_slice(&coded),
                Framing::Chunked {
                    cuts,
                    upper_hex,
                    extension,
                    trailer,
                } => {
                    let mut at = 0;
                    let mut ends: Vec<usize> = cuts
                        .iter()
                        .map(|c| {
                            if coded.is_empty() {
                                0
                            } else {
                                c % coded.len() + 1
                            }
                        })
                        .collect();
                    ends.push(coded.len());
                    ends.sort_unstable();
                    for end in ends {
                        if end <= at {
                            continue;
                        }
                        let size = if *upper_hex {
                            format!("{:X}", end - at)
                        } else {
                            format!("{:x}", end - at)
                        };
                        out.extend_from_slice(size.as_bytes());
                        if *extension {
                            out.extend_from_slice(b";ext=1");
                        }
                        out.extend_from_slice(eol.as_bytes());
                        let data_start = out.len();
                        out.extend_from_slice(&coded[at..end]);
                        written.chunks.push(Span::new(data_start, out.len()));
                        out.extend_from_slice(eol.as_bytes());
                        at = end;
                    }
                    out.push(b'0');
                    out.extend_from_slice(eol.as_bytes());
                    if *trailer {
                        out.extend_from_slice(b"X-Trailer: done");
                        out.extend_from_slice(eol.as_bytes());
                    }
                    out.extend_from_slice(eol.as_bytes());
                }
            }
        }
        let mut body_end = out.len();
        // The reader leaves trailing line ends and blank lines out of a body it frames by
        // anything but Content-Length.
        if !matches!(self.framing, Framing::ContentLength) {
            while body_end > body_start && out[body_end - 1].is_ascii_whitespace() {
                body_end -= 1;
            }
        }
        written.raw_body = Span::new(body_start, body_end);
        written.span = Span::new(start, body_end.max(written.start_line.end));
        written
    }
}

impl Gap {
    /// Writes the gap; returns the comment lines' spans.
    fn write(&self, out: &mut Vec<u8>, first: bool) -> Vec<Span> {
        let Gap::Lines { crlf, lines } = self else {
            return Vec::new();
        };
        let eol: &[u8] = if *crlf { b"\r\n" } else { b"\n" };
        if !first {
            out.extend_from_slice(eol);
        }
        let mut comments = Vec::new();
        for line in lines {
            let start = out.len();
            match line {
                GapLine::Blank => {}
                GapLine::Separator(name) => {
                    out.extend_from_slice(b"###");
                    out.extend_from_slice(name.as_bytes());
                }
                GapLine::Comment(text) => {
                    out.extend_from_slice(text.as_bytes());
                    comments.push(Span::new(start, out.len()));
                }
            }
            out.extend_from_slice(eol);
        }
        comments
    }
}

/// Everything the reader must give back for one exchange.
struct Expected {
    request: Msg,
    interim: bool,
    response: Msg,
    written: Vec<Written>,
}

fn write_capture(spec: &CaptureSpec) -> (Vec<u8>, Vec<Expected>) {
    let mut out = Vec::new();
    let mut gaps = spec.gaps.iter().cycle();
    let mut expected = Vec::new();
    let mut previous_delimited = false;
    for exchange in &spec.exchanges {
        let method = match &exchange.request.start {
            Start::Request { method, .. } => Some(method.as_str()),
            Start::Response { .. } => None,
        };
        let interim = exchange.interim.map(|crlf| Msg {
            start: Start::Response {
                status: 100,
                reason: "Continue".into(),
            },
            minor: 1,
            headers: Vec::new(),
            body: Vec::new(),
            framing: Framing::ContentLength,
            gzip: false,
            crlf,
        });
        let mut written = Vec::new();
        let messages = [
            Some(&exchange.request),
            interim.as_ref(),
            Some(&exchange.response),
        ];
        for message in messages.into_iter().flatten() {
            let mut gap = gaps.next().unwrap();
            // A body without a length ends at a line: it cannot be followed by bytes
            // back to back.
            let line_end = Gap::Lines {
                crlf: true,
                lines: Vec::new(),
            };
            if previous_delimited && matches!(gap, Gap::BackToBack) {
                gap = &line_end;
            }
            let first = out.is_empty();
            let comments = gap.write(&mut out, first);
            let no_body = message.has_no_body(method);
            let mut w = message.write(&mut out, no_body);
            w.comments = comments;
            written.push(w);
            previous_delimited = !no_body && matches!(message.framing, Framing::Delimited);
        }
        expected.push(Expected {
            request: exchange.request.clone(),
            interim: interim.is_some(),
            response: exchange.response.clone(),
            written,
        });
    }
    if spec.final_newline {
        out.push(b'\n');
    }
    (out, expected)
}

// ---------------------------------------------------------------------------------------
// Reading it back
// ---------------------------------------------------------------------------------------

fn slice(src: &[u8], span: Span) -> String {
    String::from_utf8_lossy(&src[span.range()]).into_owned()
}

fn check_message(
    src: &[u8],
    got: &Message<'_>,
    want: &Msg,
    written: &Written,
    no_body: bool,
) -> Result<(), TestCaseError> {
    match (&got.start_line, &want.start) {
        (
            StartLine::Request { method, target },
            Start::Request {
                method: m,
                target: t,
            },
        ) => {
            prop_assert_eq!(*method, m.as_str());
            prop_assert_eq!(*target, t.as_str());
        }
        (
            StartLine::Response { status, reason },
            Start::Response {
                status: s,
                reason: r,
            },
        ) => {
            prop_assert_eq!(*status, *s);
            prop_assert_eq!(*reason, r.as_str());
        }
        (got, want) => prop_assert!(false, "start line {got:?}, wrote {want:?}"),
    }
    let version = if want.minor == 0 {
        Version::Http10
    } else {
        Version::Http11
    };
    prop_assert_eq!(got.version, version);
    prop_assert_eq!(got.start_line_span, written.start_line);
    prop_assert_eq!(slice(src, got.start_line_span), want.start_line());

    let headers = want.all_headers(no_body);
    prop_assert_eq!(got.headers.len(), headers.len());
    for ((header, (name, value, _)), (name_span, value_span)) in
        got.headers.iter().zip(&headers).zip(&written.headers)
    {
        prop_assert_eq!(header.name, name.as_str());
        prop_assert_eq!(header.value, value.as_bytes());
        prop_assert_eq!(header.name_span, *name_span);
        prop_assert_eq!(slice(src, header.name_span), name.as_str());
        // An empty value has nowhere to be; its span only has to be empty.
        if !value.is_empty() {
            prop_assert_eq!(header.value_span, *value_span);
        }
        prop_assert_eq!(slice(src, header.value_span), value.as_str());
    }

    let body: &[u8] = if no_body { &[] } else { &want.body };
    prop_assert_eq!(got.body.bytes(), Some(body));
    prop_assert_eq!(got.body.raw, written.raw_body);
    prop_assert_eq!(got.span, written.span);
    let content = got.body.content.as_ref().unwrap();
    match (&content.origin, &want.framing) {
        (Origin::Decoded, _) => prop_assert!(want.gzip && !no_body),
        (Origin::Chunked(pieces), Framing::Chunked { .. }) => {
            prop_assert!(!want.gzip);
            let got: Vec<Span> = pieces
                .iter()
                .map(|p| Span::new(p.raw, p.raw + p.len))
                .collect();
            prop_assert_eq!(got, written.chunks.clone());
        }
        (Origin::Verbatim { start }, _) => {
            prop_assert!(!want.gzip || no_body);
            prop_assert_eq!(*start, written.raw_body.start);
        }
        (origin, framing) => prop_assert!(false, "{origin:?} for {framing:?}"),
    }
    let comments: Vec<String> = got.comments.iter().map(|&s| slice(src, s)).collect();
    let wanted: Vec<String> = written.comments.iter().map(|&s| slice(src, s)).collect();
    prop_assert_eq!(comments, wanted);
    Ok(())
}

fn check_capture(
    src: &[u8],
    capture: &Capture<'_>,
    expected: &[Expected],
) -> Result<(), TestCaseError> {
    prop_assert!(capture.problems.is_empty(), "{:?}", capture.problems);
    prop_assert_eq!(capture.exchanges.len(), expected.len());
    for (i, (got, want)) in capture.exchanges.iter().zip(expected).enumerate() {
        prop_assert_eq!(got.index, i);
        let method = match &want.request.start {
            Start::Request { method, .. } => Some(method.as_str()),
            Start::Response { .. } => None,
        };
        let mut written = want.written.iter();
        let request = got.request.as_ref().expect("a request");
        check_message(src, request, &want.request, written.next().unwrap(), false)?;
        prop_assert_eq!(got.interim.len(), usize::from(want.interim));
        if want.interim {
            prop_assert_eq!(got.interim[0].status(), Some(100));
            written.next();
        }
        let response = got.response.as_ref().expect("a response");
        let no_body = want.response.has_no_body(method);
        check_message(
            src,
            response,
            &want.response,
            written.next().unwrap(),
            no_body,
        )?;
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------
// Arbitrary bytes
// ---------------------------------------------------------------------------------------

/// Every span the reader gives lies inside the bytes it read.
fn spans_in_bounds(src: &[u8], capture: &Capture<'_>) -> Result<(), TestCaseError> {
    let inside = |span: Span| span.start <= span.end && span.end <= src.len();
    for exchange in &capture.exchanges {
        let messages = (exchange.request.iter())
            .chain(&exchange.interim)
            .chain(&exchange.response);
        for message in messages {
            prop_assert!(inside(message.span));
            prop_assert!(inside(message.start_line_span));
            prop_assert!(inside(message.body.raw));
            for header in &message.headers {
                prop_assert!(inside(header.name_span) && inside(header.value_span));
            }
        }
    }
    Ok(())
}

fn no_panic_anywhere(bytes: &[u8]) -> Result<(), TestCaseError> {
    let capture = read_http(bytes);
    spans_in_bounds(bytes, &capture)?;
    let har = read_har(bytes);
    prop_assert!(har.entry_starts.iter().all(|&s| s <= har.wire.len()));
    for event in parse_events(bytes) {
        prop_assert!(event.span.end <= bytes.len());
    }
    for name in ["fuzz.http", "fuzz.har"] {
        let report = lint_source(name, bytes, &Options::default());
        for diagnostic in &report.diagnostics {
            prop_assert!(diagnostic.primary.span.end <= bytes.len().max(1));
        }
    }
    Ok(())
}

#[derive(Debug, Clone)]
enum Edit {
    Replace(usize, u8),
    Insert(usize, Vec<u8>),
    Remove(usize, usize),
    Truncate(usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    let bytes = prop_oneof![
        prop::collection::vec(any::<u8>(), 1..4),
        prop::sample::select(vec![
            b"\r\n".to_vec(),
            b"\n\n".to_vec(),
            b"###\n".to_vec(),
            b"HTTP/1.1 200 OK\r\n".to_vec(),
            b"Transfer-Encoding: chunked\r\n".to_vec(),
            b"Content-Length: 99999\r\n".to_vec(),
            b"Content-Encoding: gzip\r\n".to_vec(),
            b"\"}]".to_vec(),
            b"\\".to_vec(),
        ]),
    ];
    prop_oneof![
        (any::<usize>(), any::<u8>()).prop_map(|(at, b)| Edit::Replace(at, b)),
        (any::<usize>(), bytes).prop_map(|(at, b)| Edit::Insert(at, b)),
        (any::<usize>(), 1usize..32).prop_map(|(at, n)| Edit::Remove(at, n)),
        any::<usize>().prop_map(Edit::Truncate),
    ]
}

fn apply(bytes: &mut Vec<u8>, edit: &Edit) {
    let at = |n: usize, len: usize| if len == 0 { 0 } else { n % (len + 1) };
    match edit {
        Edit::Replace(n, b) if !bytes.is_empty() => {
            let i = n % bytes.len();
            bytes[i] = *b;
        }
        Edit::Replace(..) => {}
        Edit::Insert(n, new) => {
            let i = at(*n, bytes.len());
            bytes.splice(i..i, new.iter().copied());
        }
        Edit::Remove(n, count) => {
            let i = at(*n, bytes.len());
            let end = (i + count).min(bytes.len());
            bytes.drain(i..end);
        }
        Edit::Truncate(n) => {
            let len = at(*n, bytes.len());
            bytes.truncate(len);
        }
    }
}

/// A small HAR log holding the same exchanges' bodies, to mutate.
fn har_of(src: &[u8], capture: &Capture<'_>) -> Vec<u8> {
    let text = |m: &Message<'_>| String::from_utf8_lossy(&src[m.body.raw.range()]).into_owned();
    let entries: Vec<serde_json::Value> = capture
        .exchanges
        .iter()
        .map(|e| {
            let request = e.request.as_ref().unwrap();
            let response = e.response.as_ref().unwrap();
            let headers = |m: &Message<'_>| -> Vec<serde_json::Value> {
                m.headers
                    .iter()
                    .map(|h| serde_json::json!({"name": h.name, "value": h.value_str()}))
                    .collect()
            };
            serde_json::json!({
                "request": {
                    "method": request.method(),
                    "url": "https://agent.example/",
                    "headers": headers(request),
                    "postData": {"text": text(request)},
                },
                "response": {
                    "status": response.status(),
                    "headers": headers(response),
                    "content": {"text": text(response)},
                },
            })
        })
        .collect();
    serde_json::to_vec_pretty(&serde_json::json!({"log": {"version": "1.2", "entries": entries}}))
        .unwrap()
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn written_exchanges_read_back_the_same(spec in capture_spec()) {
        let (src, expected) = write_capture(&spec);
        let capture = read_http(&src);
        check_capture(&src, &capture, &expected)?;
        // The capture lints, and is read the same way while linting.
        let report = lint_source("generated.http", &src, &Options::default());
        prop_assert_eq!(report.exchanges, expected.len());
        prop_assert!(
            report.diagnostics.iter().all(|d| d.rule.slug() != "capture-syntax"),
            "{:?}", report.diagnostics
        );
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..2048)) {
        no_panic_anywhere(&bytes)?;
    }

    #[test]
    fn damaged_captures_never_panic(
        spec in capture_spec(),
        edits in prop::collection::vec(edit(), 1..8),
    ) {
        let (mut src, _) = write_capture(&spec);
        let mut har = har_of(&src, &read_http(&src));
        for edit in &edits {
            apply(&mut src, edit);
            apply(&mut har, edit);
        }
        no_panic_anywhere(&src)?;
        no_panic_anywhere(&har)?;
    }
}
