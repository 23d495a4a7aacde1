//! The text of a gRPC body in the view, as Wireshark's protobuf dissector shows one:
//! each message as proto3 JSON of its method's type, and the Status of
//! `grpc-status-details-bin` decoded after the trailers.

use std::ops::Range;

use crate::input::capture::wire::grpc::framing::{decompress, split_messages};
use crate::input::capture::wire::grpc::metadata::decode_bin;
use crate::input::proto::{GrpcMethod, decode_status, grpc_method};

/// A body written as text.
#[derive(Debug, Default)]
pub struct RenderedBody {
    pub text: Vec<u8>,
    pub messages: Vec<RenderedMessage>,
    /// What could not be read, as spans of `text` with the coding and the reason.
    pub problems: Vec<(Range<usize>, &'static str, String)>,
}

/// One message of the body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenderedMessage {
    /// Its proto3 JSON, or the line saying why there is none, in the rendered text.
    pub text: Range<usize>,
    /// Its bytes, prefix included, in the body.
    pub data: Range<usize>,
    /// Whether `text` is JSON.
    pub json: bool,
}

/// Renders the messages of a gRPC `body` sent on `path`, compressed (per message flag)
/// with `encoding`; inflated bytes are taken from `inflate_left`, what the connection may
/// still inflate, so that many small bombs cannot add up.
pub fn render_body(
    body: &[u8],
    path: &str,
    encoding: &str,
    is_request: bool,
    inflate_left: &mut usize,
) -> RenderedBody {
    let mut out = RenderedBody::default();
    let (messages, trailing) = split_messages(body);
    let method = grpc_method(path);
    for (i, framed) in messages.iter().enumerate() {
        let start = out.text.len();
        let raw = &body[framed.payload.clone()];
        let inflated;
        let bytes = if framed.compressed {
            let outcome = decompress(encoding, raw).and_then(|bytes| match bytes.len() {
                len if len <= *inflate_left => {
                    *inflate_left -= len;
                    Ok(bytes)
                }
                _ => Err(format!(
                    "the connection's inflated messages pass {} MiB; a2alint inflates no more",
                    crate::input::capture::MAX_DECODED_BYTES >> 20
                )),
            });
            match outcome {
                Ok(bytes) => {
                    inflated = bytes;
                    &inflated[..]
                }
                Err(reason) => {
                    out.line(format!(
                        "[message {}: {} compressed bytes, not inflated]",
                        i + 1,
                        raw.len()
                    ));
                    out.problems
                        .push((start..out.text.len(), "grpc-encoding", reason));
                    out.push(start, framed.whole.clone(), false);
                    continue;
                }
            }
        } else {
            raw
        };
        let decoded = match method {
            GrpcMethod::Current(rpc) if is_request => Some(rpc.decode_request(bytes)),
            GrpcMethod::Current(rpc) => Some(rpc.decode_response(bytes)),
            _ => None,
        };
        match decoded {
            Some(Ok(json)) => {
                write_pretty(&mut out.text, &json);
                out.text.extend(b"\r\n");
                out.push(start, framed.whole.clone(), true);
            }
            Some(Err(failure)) => {
                out.line(format!(
                    "[message {}: {} bytes that are not a {}]",
                    i + 1,
                    bytes.len(),
                    failure.type_name
                ));
                out.problems
                    .push((start..out.text.len(), "protobuf", failure.reason));
                out.push(start, framed.whole.clone(), false);
            }
            None => {
                out.line(format!(
                    "[message {}: {} bytes of protobuf; a2alint has no schema for {path}]",
                    i + 1,
                    bytes.len()
                ));
                out.push(start, framed.whole.clone(), false);
            }
        }
    }
    if let Some(reason) = trailing {
        let start = out.text.len();
        let at = messages.last().map_or(0, |m| m.whole.end);
        out.line(format!(
            "[{} bytes that are not a whole message]",
            body.len() - at
        ));
        out.problems
            .push((start..out.text.len(), "gRPC framing", reason));
    }
    out
}

impl RenderedBody {
    fn line(&mut self, line: String) {
        self.text.extend(line.into_bytes());
        self.text.extend(b"\r\n");
    }

    fn push(&mut self, start: usize, data: Range<usize>, json: bool) {
        // The span ends before the line break that follows it.
        let end = self.text.len() - 2;
        self.messages.push(RenderedMessage {
            text: start..end.max(start),
            data,
            json,
        });
    }
}

/// The Status of a `grpc-status-details-bin` value: a heading line, then its proto3
/// JSON; the JSON's span in the returned text, or why it could not be read.
pub fn render_status(value: &[u8], true_binary: bool) -> (Vec<u8>, Result<Range<usize>, String>) {
    let raw = true_binary && value.first() == Some(&0);
    let sent = if raw {
        ", sent as true binary (0x00 and raw bytes),"
    } else {
        ""
    };
    let status = decode_bin(value, true_binary).and_then(|bytes| {
        decode_status(&bytes).map_err(|f| format!("not a {}: {}", f.type_name, f.reason))
    });
    match status {
        Ok(json) => {
            let mut text =
                format!("# grpc-status-details-bin{sent} decoded as google.rpc.Status:\r\n")
                    .into_bytes();
            let start = text.len();
            write_pretty(&mut text, &json);
            let span = start..text.len();
            text.extend(b"\r\n");
            (text, Ok(span))
        }
        Err(reason) => {
            let text = format!(
                "# grpc-status-details-bin{sent} could not be decoded as google.rpc.Status\r\n"
            );
            (text.into_bytes(), Err(reason))
        }
    }
}

/// `json` pretty-printed onto the end of `text`, where it is read from: writing it into
/// a buffer of its own first cost a growing allocation and a copy per message.
fn write_pretty(text: &mut Vec<u8>, json: &serde_json::Value) {
    // A `Value` has string keys and finite numbers, and memory takes every write.
    serde_json::to_writer_pretty(text, json).expect("a JSON value always writes");
}

#[cfg(test)]
mod tests {
    use super::*;
    use a2a_pb::protojson as pb;
    use prost::Message;

    fn framed(flag: u8, bytes: &[u8]) -> Vec<u8> {
        let mut out = vec![flag];
        out.extend((bytes.len() as u32).to_be_bytes());
        out.extend(bytes);
        out
    }

    #[test]
    fn each_message_is_its_methods_type_as_json() {
        let task = pb::Task {
            id: "t-1".into(),
            ..Default::default()
        };
        let mut body = framed(0, &task.encode_to_vec());
        body.extend(framed(0, &[0x0a, 0x50]));
        let rendered = render_body(&body, "/lf.a2a.v1.A2AService/GetTask", "", false, &mut {
            usize::MAX
        });
        let text = String::from_utf8(rendered.text.clone()).unwrap();
        assert!(text.starts_with("{\n  \"id\": \"t-1\"\n}\r\n"), "{text}");
        assert!(
            text.contains("bytes that are not a lf.a2a.v1.Task]"),
            "{text}"
        );
        assert_eq!(rendered.messages.len(), 2);
        assert!(rendered.messages[0].json && !rendered.messages[1].json);
        assert_eq!(
            &rendered.text[rendered.messages[0].text.clone()],
            b"{\n  \"id\": \"t-1\"\n}"
        );
        assert_eq!(rendered.problems.len(), 1);
        assert_eq!(rendered.problems[0].1, "protobuf");
    }

    #[test]
    fn unknown_methods_are_named_and_cut_bodies_are_problems() {
        let mut body = framed(0, b"\x08\x01");
        body.extend([0, 0, 0]);
        let rendered = render_body(&body, "/a2a.v1.A2AService/SendMessage", "", true, &mut {
            usize::MAX
        });
        let text = String::from_utf8(rendered.text).unwrap();
        assert!(
            text.contains("no schema for /a2a.v1.A2AService/SendMessage"),
            "{text}"
        );
        assert!(
            text.contains("[3 bytes that are not a whole message]"),
            "{text}"
        );
        assert_eq!(rendered.problems[0].1, "gRPC framing");
    }

    #[test]
    fn inflated_bytes_come_out_of_the_connections_budget() {
        use std::io::Write;
        let mut gzip = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        gzip.write_all(&[0x0a, 0x03, b't', b'-', b'1']).unwrap();
        let body = framed(1, &gzip.finish().unwrap());
        let path = "/lf.a2a.v1.A2AService/GetTask";
        let mut left = 5;
        let rendered = render_body(&body, path, "gzip", true, &mut left);
        assert!(rendered.messages[0].json && left == 0, "{rendered:?}");
        let rendered = render_body(&body, path, "gzip", true, &mut left);
        assert!(
            rendered.problems[0].2.contains("inflates no more"),
            "{rendered:?}"
        );
    }

    #[test]
    fn a_compressed_message_with_an_unknown_encoding_is_a_problem() {
        let body = framed(1, b"xx");
        let rendered = render_body(
            &body,
            "/lf.a2a.v1.A2AService/GetTask",
            "snappy",
            true,
            &mut { usize::MAX },
        );
        assert_eq!(rendered.problems[0].1, "grpc-encoding");
        assert!(!rendered.messages[0].json);
    }

    #[test]
    fn a_status_renders_as_json_and_bad_values_say_why() {
        let status = tonic_types::pb::Status {
            code: 5,
            message: "gone".into(),
            details: vec![],
        };
        let mut value = vec![0];
        value.extend(status.encode_to_vec());
        let (text, span) = render_status(&value, true);
        let span = span.unwrap();
        assert_eq!(
            &text[span],
            b"{\n  \"code\": 5,\n  \"message\": \"gone\"\n}"
        );
        assert!(String::from_utf8_lossy(&text).contains("true binary"));
        let (_, failure) = render_status(b"@@@", false);
        assert!(failure.unwrap_err().contains("base64"));
        let (_, failure) = render_status(b"/w", false);
        assert!(failure.unwrap_err().contains("google.rpc.Status"));
    }
}
