//! Writing generated exchanges out as a capture, noting where every part went.

use a2alint::input::source::Span;

use super::*;

/// Where the writer put one message's parts.
#[derive(Debug, Default)]
pub(crate) struct Written {
    pub(crate) span: Span,
    pub(crate) start_line: Span,
    pub(crate) headers: Vec<(Span, Span)>,
    pub(crate) raw_body: Span,
    /// For a chunked body: where each chunk's data went.
    pub(crate) chunks: Vec<Span>,
    pub(crate) comments: Vec<Span>,
}

impl Msg {
    pub(crate) fn eol(&self) -> &'static str {
        if self.crlf { "\r\n" } else { "\n" }
    }

    /// No body by RFC 9110: responses with 1xx, 204 and 304, and responses to HEAD.
    pub(crate) fn has_no_body(&self, request_method: Option<&str>) -> bool {
        match &self.start {
            Start::Request { .. } => false,
            Start::Response { status, .. } => {
                matches!(status, 100..=199 | 204 | 304) || request_method == Some("HEAD")
            }
        }
    }

    /// The body as the message carries it, after content coding.
    pub(crate) fn coded_body(&self) -> Vec<u8> {
        if !self.gzip {
            return self.body.clone();
        }
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        encoder.write_all(&self.body).unwrap();
        encoder.finish().unwrap()
    }

    pub(crate) fn start_line(&self) -> String {
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
    pub(crate) fn all_headers(&self, no_body: bool) -> Vec<(String, String, &'static str)> {
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

    pub(crate) fn write(&self, out: &mut Vec<u8>, no_body: bool) -> Written {
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
    pub(crate) fn write(&self, out: &mut Vec<u8>, first: bool) -> Vec<Span> {
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
pub(crate) struct Expected {
    pub(crate) request: Msg,
    pub(crate) interim: bool,
    pub(crate) response: Msg,
    pub(crate) written: Vec<Written>,
}

pub(crate) fn write_capture(spec: &CaptureSpec) -> (Vec<u8>, Vec<Expected>) {
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
