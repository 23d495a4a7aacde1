//! What is generated: exchanges, their framing and the gaps between them.

use proptest::prelude::*;

#[derive(Debug, Clone)]
pub(crate) enum Start {
    Request { method: String, target: String },
    Response { status: u16, reason: String },
}

#[derive(Debug, Clone)]
pub(crate) enum Framing {
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
pub(crate) struct Msg {
    pub(crate) start: Start,
    pub(crate) minor: u8,
    /// Name, value, and the whitespace written between the colon and the value.
    pub(crate) headers: Vec<(String, String, &'static str)>,
    /// The decoded body: what the reader must give back.
    pub(crate) body: Vec<u8>,
    pub(crate) framing: Framing,
    pub(crate) gzip: bool,
    pub(crate) crlf: bool,
}

/// What is written between two messages (or before the first).
#[derive(Debug, Clone)]
pub(crate) enum Gap {
    /// The next start line right after the previous message's last byte.
    BackToBack,
    /// A line end, then these lines.
    Lines { crlf: bool, lines: Vec<GapLine> },
}

#[derive(Debug, Clone)]
pub(crate) enum GapLine {
    Blank,
    Separator(String),
    Comment(String),
}

#[derive(Debug, Clone)]
pub(crate) struct Exch {
    pub(crate) request: Msg,
    /// A `100 Continue` between request and response.
    pub(crate) interim: Option<bool>,
    pub(crate) response: Msg,
}

#[derive(Debug, Clone)]
pub(crate) struct CaptureSpec {
    pub(crate) exchanges: Vec<Exch>,
    /// One gap before each message (request, interim, response, in order).
    pub(crate) gaps: Vec<Gap>,
    pub(crate) final_newline: bool,
}

pub(crate) fn json_value() -> impl Strategy<Value = serde_json::Value> {
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

pub(crate) fn body() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        1 => Just(Vec::new()),
        4 => (json_value(), any::<bool>()).prop_map(|(value, pretty)| if pretty {
            serde_json::to_vec_pretty(&value).unwrap()
        } else {
            serde_json::to_vec(&value).unwrap()
        }),
    ]
}

pub(crate) fn headers() -> impl Strategy<Value = Vec<(String, String, &'static str)>> {
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

pub(crate) fn framing() -> impl Strategy<Value = Framing> {
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

pub(crate) fn message(start: impl Strategy<Value = Start>) -> impl Strategy<Value = Msg> {
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

pub(crate) fn request() -> impl Strategy<Value = Msg> {
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

pub(crate) fn response() -> impl Strategy<Value = Msg> {
    let reason = prop_oneof![Just(String::new()), "[A-Za-z]([A-Za-z ]{0,15}[A-Za-z])?"];
    message((200u16..600, reason).prop_map(|(status, reason)| Start::Response { status, reason }))
}

pub(crate) fn gap() -> impl Strategy<Value = Gap> {
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

pub(crate) fn capture_spec() -> impl Strategy<Value = CaptureSpec> {
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
