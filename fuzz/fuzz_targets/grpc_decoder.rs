//! gRPC decoding on arbitrary bytes: the message framing, protobuf decoding by method,
//! `grpc-encoding`, `-bin` metadata and `grpc-message` escapes, each called on its own,
//! then the whole pipeline: the same bytes as the bodies and status fields of a gRPC
//! call over HTTP/2 in a pcap file, read by the wire reader and linted (classification,
//! every rule, every report format). Never panics; the rendered text says what its
//! parts say; the view of the call holds what the renderers make of its bytes.
//!
//! Input: a selector byte, a flags byte, the body's length (two bytes, big-endian, cut
//! to what is there), the body, then the status bytes.
//! - selector bits 0-3 pick the `:path` (`PATHS`: the eleven rpcs of
//!   `lf.a2a.v1.A2AService`, two of the 0.3 service, an unknown method, another service,
//!   a path with a query); bits 4-5 the request's content type (`CONTENT_TYPES`; the last
//!   is gRPC-Web, which the view does not decode); bits 6-7 how the response ends
//!   (`Shape`: trailers, trailers-only, no trailers, cut by the capture's end).
//! - flags bit 0: `render_body` reads the body as the request (1) or the response (0);
//!   bits 1-2: `grpc-encoding` absent, `identity`, `gzip` or `deflate`; bit 3: DATA frames
//!   of 13 bytes and TCP segments of 97; bits 4-5: in the call, the body is the request
//!   and the response, the request only, the response only, or cut after its first
//!   whole message (half way when there is none), request then response; bits 6-7: `grpc-status-details-bin` is sent as the detail bytes as they
//!   are, base64 padded, base64 unpadded, or true binary (0x00 then the bytes, both peers
//!   sending SETTINGS 0xfe03 = 1).
//! - status bytes: `grpc-status` (a byte under 0xf0 is its value mod 20 in decimal; 0xf0
//!   to 0xfe pick an odd value from `ODD_STATUS`; 0xff sends none), the length of
//!   `grpc-message` (0: not sent), its bytes, then the detail bytes (sent when there are
//!   some, or in any encoding but "as they are").
#![no_main]

use a2alint::input::capture::wire::grpc::{
    RenderedBody, decode_bin, is_grpc, percent_decode, render_body, render_status, split_messages,
};
use a2alint::input::capture::wire::{WireGrpc, WireParts, frame_offsets, read_pcap};
use a2alint::input::capture::{Content, Message};
use a2alint::input::proto::{GrpcMethod, code_name, decode_status, grpc_method};
use a2alint_fuzz::grpc_call::{Call, Shape, base64, percent_encode_all};
use libfuzzer_sys::fuzz_target;
use serde::de::IgnoredAny;

const PATHS: [&str; 16] = [
    "/lf.a2a.v1.A2AService/SendMessage",
    "/lf.a2a.v1.A2AService/SendStreamingMessage",
    "/lf.a2a.v1.A2AService/GetTask",
    "/lf.a2a.v1.A2AService/ListTasks",
    "/lf.a2a.v1.A2AService/CancelTask",
    "/lf.a2a.v1.A2AService/SubscribeToTask",
    "/lf.a2a.v1.A2AService/CreateTaskPushNotificationConfig",
    "/lf.a2a.v1.A2AService/GetTaskPushNotificationConfig",
    "/lf.a2a.v1.A2AService/ListTaskPushNotificationConfigs",
    "/lf.a2a.v1.A2AService/GetExtendedAgentCard",
    "/lf.a2a.v1.A2AService/DeleteTaskPushNotificationConfig",
    "/a2a.v1.A2AService/SendMessage",
    "/a2a.v1.A2AService/TaskSubscription",
    "/lf.a2a.v1.A2AService/SendMessages",
    "/grpc.health.v1.Health/Check",
    "/lf.a2a.v1.A2AService/GetTask?id=t-1",
];

/// The first eleven paths are the 1.0 rpcs.
const CURRENT: usize = 11;

const CONTENT_TYPES: [&[u8]; 4] = [
    b"application/grpc",
    b"application/grpc+proto",
    b"Application/GRPC; charset=utf-8",
    b"application/grpc-web+proto",
];

const SHAPES: [Shape; 4] = [
    Shape::Trailers,
    Shape::TrailersOnly,
    Shape::NoTrailers,
    Shape::Cut,
];

const ENCODINGS: [Option<&str>; 4] = [None, Some("identity"), Some("gzip"), Some("deflate")];

/// `grpc-status` values that are not a plain code: empty, padded, negative, past `i32`,
/// past `i64`, a name, a fraction, signs, hex, a non-ASCII digit, a tab, a leading zero.
const ODD_STATUS: [&[u8]; 15] = [
    b"",
    b" 5 ",
    b"-1",
    b"17",
    b"2147483648",
    b"99999999999999999999",
    b"OK",
    b"5.0",
    b"+5",
    b"0x5",
    "\u{0665}".as_bytes(),
    b"1\t",
    b"05",
    b"16",
    b"\xff",
];

/// The message framing of `body`: messages follow each other from the start, and a
/// reason is given exactly when they stop short of the end.
fn check_split(body: &[u8]) {
    let (messages, problem) = split_messages(body);
    let mut at = 0;
    for m in &messages {
        assert_eq!(m.whole.start, at, "messages follow each other");
        assert_eq!(m.payload.start, at + 5, "a 5-byte prefix");
        assert_eq!(m.payload.end, m.whole.end);
        assert!(m.whole.end <= body.len());
        assert_eq!(m.compressed, body[at] == 1);
        at = m.whole.end;
    }
    assert_eq!(problem.is_some(), at < body.len(), "{problem:?} at {at}");
}

fn is_json(bytes: &[u8]) -> bool {
    serde_json::from_slice::<IgnoredAny>(bytes).is_ok()
}

/// What `render_body` wrote for `body`: one entry per framed message, spans inside the
/// text in order, JSON where it says so, problems naming whole lines.
fn check_rendered(body: &[u8], rendered: &RenderedBody) {
    let (framed, _) = split_messages(body);
    assert_eq!(
        rendered.messages.len(),
        framed.len(),
        "one entry per message"
    );
    let text = &rendered.text;
    let mut last = 0;
    for (m, f) in rendered.messages.iter().zip(&framed) {
        assert_eq!(m.data, f.whole, "a message's bytes are its framed bytes");
        assert!(
            last <= m.text.start && m.text.start <= m.text.end && m.text.end <= text.len(),
            "message text {:?} after {last} in {}",
            m.text,
            text.len()
        );
        last = m.text.end;
        if m.json {
            assert!(is_json(&text[m.text.clone()]), "a JSON message is JSON");
        }
    }
    for (range, _, _) in &rendered.problems {
        // The view takes the line break off the end: a problem spans a whole line.
        assert!(range.start + 2 <= range.end && range.end <= text.len());
        assert_eq!(&text[range.end - 2..range.end], b"\r\n");
    }
}

/// `render_status`, against `decode_bin` and `decode_status` on the same value; the
/// Status's JSON, when it renders.
fn check_status(value: &[u8], true_binary: bool) -> Option<Vec<u8>> {
    let (text, status) = render_status(value, true_binary);
    let decoded = decode_bin(value, true_binary);
    if true_binary && value.first() == Some(&0) {
        assert_eq!(decoded.as_deref(), Ok(&value[1..]), "true binary is raw");
    }
    let status_json = decoded
        .as_ref()
        .ok()
        .map(|bytes| decode_status(bytes).is_ok());
    match &status {
        Ok(span) => {
            assert!(span.start <= span.end && span.end <= text.len());
            assert!(is_json(&text[span.clone()]), "a Status renders as JSON");
            assert_eq!(status_json, Some(true), "rendered, so it decoded");
        }
        Err(_) => assert_ne!(status_json, Some(true), "it decodes, so it renders"),
    }
    status.ok().map(|span| text[span].to_vec())
}

/// `decode_bin` reads back what a base64 encoder writes, padded or not, and a value it
/// decodes is base64 of those bytes.
fn check_bin(bytes: &[u8]) {
    for pad in [true, false] {
        let encoded = base64(bytes, pad);
        assert_eq!(
            decode_bin(&encoded, false).as_deref(),
            Ok(bytes),
            "pad {pad}"
        );
        let mut raw = vec![0];
        raw.extend_from_slice(bytes);
        assert_eq!(decode_bin(&raw, true).as_deref(), Ok(bytes));
    }
    if let Ok(decoded) = decode_bin(bytes, false) {
        assert_eq!(decode_bin(&base64(&decoded, true), false), Ok(decoded));
    }
}

/// `percent_decode` undoes an escape of every byte, and leaves a value without `%` as
/// it is (read as UTF-8).
fn check_percent(bytes: &[u8]) {
    let lossy = String::from_utf8_lossy(bytes);
    assert_eq!(percent_decode(&percent_encode_all(bytes)), lossy);
    let decoded = percent_decode(bytes);
    if !bytes.contains(&b'%') {
        assert_eq!(decoded, lossy);
    }
}

/// Every decoder there is, on each message's bytes: the rpc's request and response types
/// (whichever side the body is) and `google.rpc.Status`.
fn decode_each(body: &[u8], method: GrpcMethod<'_>) {
    let (framed, _) = split_messages(body);
    for m in framed.iter().filter(|m| !m.compressed) {
        let bytes = &body[m.payload.clone()];
        if let GrpcMethod::Current(rpc) = method {
            let _ = rpc.decode_request(bytes);
            let _ = rpc.decode_response(bytes);
        }
        let _ = decode_status(bytes);
    }
}

/// The view's gRPC parts of one message are the renderers' output for its bytes.
fn check_view_grpc(
    text: &[u8],
    grpc: &WireGrpc,
    rendered: &RenderedBody,
    status: Option<&[u8]>,
    what: &str,
) {
    assert_eq!(
        grpc.messages.len(),
        rendered.messages.len(),
        "{what}: the view has the messages render_body finds"
    );
    for (&(span, json), m) in grpc.messages.iter().zip(&rendered.messages) {
        assert_eq!(json, m.json, "{what}");
        assert_eq!(
            &text[span.range()],
            &rendered.text[m.text.clone()],
            "{what}: the view writes a message as render_body does"
        );
    }
    assert_eq!(
        grpc.status.map(|span| &text[span.range()]),
        status,
        "{what}: the view decodes the Status as render_status does"
    );
}

/// The rules' reading of a gRPC message: message spans inside the body content, JSON
/// where they say so; the Status is JSON.
fn check_message_grpc(message: &Message<'_>) {
    let Some(grpc) = &message.grpc else {
        return;
    };
    let content: Option<&Content<'_>> = message.body.content.as_ref();
    for &(span, json) in &grpc.messages {
        let content = content.expect("gRPC messages come with their body's content");
        let bytes = content.bytes.get(span.range()).unwrap_or_else(|| {
            panic!("message {span:?} outside a body of {}", content.bytes.len())
        });
        if json {
            assert!(is_json(bytes), "a JSON message reads as JSON");
        }
    }
    if let Some(status) = &grpc.status {
        assert!(is_json(&status.bytes), "the Status reads as JSON");
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&[selector, flags, high, low], rest)) = data.split_first_chunk::<4>() else {
        return;
    };
    let split = usize::from(u16::from_be_bytes([high, low])).min(rest.len());
    let (body, meta) = rest.split_at(split);
    let path = PATHS[usize::from(selector & 15)];
    let content_type = CONTENT_TYPES[usize::from(selector >> 4 & 3)];
    let shape = SHAPES[usize::from(selector >> 6)];
    let as_request = flags & 1 != 0;
    let encoding = ENCODINGS[usize::from(flags >> 1 & 3)];
    let small = flags & 8 != 0;
    let placement = flags >> 4 & 3;
    let details_mode = flags >> 6;

    let (status, message, details) = match meta {
        [] => (Some(b"0".to_vec()), &[][..], &[][..]),
        [status, rest @ ..] => {
            let status = match *status {
                0xff => None,
                b @ 0xf0.. => Some(ODD_STATUS[usize::from(b - 0xf0)].to_vec()),
                b => Some((b % 20).to_string().into_bytes()),
            };
            let (len, rest) = rest.split_first().map_or((0, rest), |(&l, r)| (l, r));
            let len = usize::from(len).min(rest.len());
            (status, &rest[..len], &rest[len..])
        }
    };

    // Each piece on its own.
    for (i, p) in PATHS.iter().enumerate() {
        assert_eq!(
            matches!(grpc_method(p), GrpcMethod::Current(_)),
            i < CURRENT,
            "{p}"
        );
    }
    let method = grpc_method(path);
    check_split(body);
    let rendered = render_body(body, path, encoding.unwrap_or(""), as_request, &mut { usize::MAX });
    check_rendered(body, &rendered);
    decode_each(body, method);
    for value in [details, message] {
        check_status(value, false);
        check_status(value, true);
        check_bin(value);
    }
    check_percent(message);
    let _ = is_grpc(message);
    let _ = code_name(i64::from(selector) - 8);

    // The call.
    let (request, response) = match placement {
        0 => (body, body),
        1 => (body, &[][..]),
        2 => (&[][..], body),
        // Request: the first whole message; response: the rest.
        _ => {
            let (framed, _) = split_messages(body);
            body.split_at(framed.first().map_or(body.len() / 2, |m| m.whole.end))
        }
    };
    let true_binary = details_mode == 3;
    let details_value = match details_mode {
        0 => details.to_vec(),
        1 => base64(details, true),
        2 => base64(details, false),
        _ => [&[0][..], details].concat(),
    };
    let mut fields: Vec<(&'static [u8], Vec<u8>)> = Vec::new();
    if let Some(status) = status {
        fields.push((b"grpc-status", status));
    }
    if !message.is_empty() {
        fields.push((b"grpc-message", message.to_vec()));
    }
    let sends_details = !details.is_empty() || details_mode != 0;
    if sends_details {
        fields.push((b"grpc-status-details-bin", details_value.clone()));
    }
    let call = Call {
        path,
        content_type,
        encoding,
        request,
        response,
        shape,
        fields,
        true_binary,
        small,
    };
    let file = call.pcap();

    let frames = frame_offsets(&file).len();
    let mut exchanges = 0;
    let wire = read_pcap(&file, &mut |exchange| {
        exchanges += 1;
        a2alint_fuzz::check_wire_exchange(&file, frames, &exchange);
        let WireParts::Http2 {
            request: Some(request_view),
            response: Some(response_view),
            ..
        } = &exchange.parts
        else {
            panic!("the call reads as an HTTP/2 request and response");
        };
        let text = &exchange.text;
        if is_grpc(content_type) {
            let encoding = encoding.unwrap_or("");
            let grpc = request_view.grpc.as_ref().expect("a gRPC request");
            check_view_grpc(
                text,
                grpc,
                &render_body(request, path, encoding, true, &mut { usize::MAX }),
                None,
                "request",
            );
            let response = if shape == Shape::TrailersOnly {
                &[][..]
            } else {
                response
            };
            let status = match shape {
                Shape::Trailers | Shape::TrailersOnly if sends_details => {
                    check_status(&details_value, true_binary)
                }
                _ => None,
            };
            let grpc = response_view.grpc.as_ref().expect("a gRPC response");
            check_view_grpc(
                text,
                grpc,
                &render_body(response, path, encoding, false, &mut { usize::MAX }),
                status.as_deref(),
                "response",
            );
        } else {
            assert!(request_view.grpc.is_none() && response_view.grpc.is_none());
        }
        let http2 = exchange.http2_exchange().expect("an HTTP/2 exchange");
        for message in http2.request.iter().chain(http2.response.iter()) {
            check_message_grpc(message);
        }
    });
    assert_eq!(exchanges, 1, "one call, one exchange");
    a2alint_fuzz::check_wire(&file, &wire);

    let color = selector & 1 == 1;
    let sarif = data.len().is_multiple_of(8);
    let reports = a2alint_fuzz::lint_and_render(&["fuzz.pcap"], &file, color, sarif);
    assert_eq!(
        reports[0].wire,
        Some(wire.counts),
        "the engine read the same capture"
    );
    assert_eq!(reports[0].exchanges, 1);
});
