//! `a2alint redact` on HTTP/2 pcaps: credentials in HPACK header blocks are replaced
//! where they are coded, plain strings by `*`s and Huffman-coded ones by a placeholder
//! of the same decoded and coded length, so both dynamic tables stay in step and the
//! capture reads back with the same exchanges and no secret.

#[allow(dead_code)]
#[path = "common/h2.rs"]
mod h2;
#[allow(dead_code)]
#[path = "common/pcap/mod.rs"]
mod pcap;
#[allow(dead_code)]
#[path = "common/redacted.rs"]
mod redacted;
#[allow(dead_code)]
#[path = "common/twin.rs"]
mod twin;

use a2alint::commands::redact::redact_source;
use h2::{CONTINUATION, DATA, END_HEADERS, END_STREAM, HEADERS, frame, huffman, integer};
use redacted::{assert_checksums, carried, reading, rules, rules_but_secrets, unmasked};

/// Redacts `before` and checks everything a redaction must keep: the same length,
/// exchanges, fields and findings, right checksums, no secret in the bytes or views, and
/// nothing more to do the second time. Returns how many credentials were replaced.
fn redacts_cleanly(before: &[u8], secrets: &[&str]) -> usize {
    let text = carried(before);
    for secret in secrets {
        assert!(text.contains(secret), "the capture holds {secret}");
    }
    assert!(!unmasked(before).is_empty());
    assert!(rules("run.pcap", before).contains(&"secret-in-capture".to_string()));

    let redaction = redact_source("run.pcap", before)
        .unwrap()
        .expect("secrets to redact");
    let after = &redaction.redacted;
    assert_eq!(after.len(), before.len(), "sequence numbers stay right");
    let text = carried(after) + &String::from_utf8_lossy(&redacted::payloads(after));
    for secret in secrets {
        assert!(!text.contains(secret), "still holds {secret}");
    }
    assert_eq!(unmasked(after), Vec::<String>::new());
    assert_eq!(
        reading(after),
        reading(before),
        "the same exchanges and fields"
    );
    assert!(!rules("run.pcap", after).contains(&"secret-in-capture".to_string()));
    assert_eq!(
        rules_but_secrets("run.pcap", after),
        rules_but_secrets("run.pcap", before)
    );
    assert_checksums(after);
    assert!(
        redact_source("run.pcap", after).unwrap().is_none(),
        "redacting twice changes nothing"
    );
    redaction.replaced
}

#[test]
fn the_http2_twin_of_the_redaction_capture_is_redacted() {
    let before = twin::h2_twin(&redacted::plain_exchanges()).unwrap();
    assert_eq!(redacts_cleanly(&before, redacted::SECRETS), 6);
}

/// A string literal (RFC 7541 §5.2), plain or Huffman-coded.
fn string(text: &str, coded: bool) -> Vec<u8> {
    if coded {
        let octets = huffman(text.as_bytes());
        [integer(octets.len(), 7, 0x80), octets].concat()
    } else {
        [integer(text.len(), 7, 0), text.as_bytes().to_vec()].concat()
    }
}

/// §6.1: a field from the static (1-61) or dynamic (62-) table.
fn indexed(index: usize) -> Vec<u8> {
    integer(index, 7, 0x80)
}

/// §6.2 with the name at `index`: `kind` 0x40 adds the field to the dynamic table, 0x00
/// does not, 0x10 never lets it be.
fn named(kind: u8, index: usize, value: &str, coded: bool) -> Vec<u8> {
    let prefix = if kind == 0x40 { 6 } else { 4 };
    [integer(index, prefix, kind), string(value, coded)].concat()
}

/// §6.2 with a new name.
fn new_name(kind: u8, name: &str, value: &str, coded: bool) -> Vec<u8> {
    [vec![kind], string(name, coded), string(value, coded)].concat()
}

const GET_TASK: &[u8] = br#"{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"t-1"}}"#;
const ANSWER: &[u8] = br#"{"jsonrpc":"2.0","id":1,"result":{"id":"t-1"}}"#;

const HAND_SECRETS: &[&str] = &[
    "sk-hand-raw-0001",
    "key-huff-0002",
    "sk-hand-huff-0003",
    "hand-cookie-0004",
    "hand-cookie-0005",
    "proxy-huff-0006",
];

/// The client's requests on streams 1, 3, 5 and 7, under a 256-byte dynamic table that
/// evicts (an entry takes its name's and value's decoded lengths and 32, RFC 7541 §4.1):
/// had a replacement changed a decoded length, the table would evict otherwise and the
/// fields indexed later would not decode the same.
fn requests() -> Vec<u8> {
    let start = |path_coded| [indexed(3), indexed(6), named(0x00, 4, "/a2a", path_coded)].concat();
    let json = named(0x00, 31, "application/json", true);
    // Stream 1, plain strings: the table holds x-api-key (54 bytes, index 62),
    // authorization (68, 63) and :authority (55, 64): 177 bytes.
    let first = [
        integer(256, 5, 0x20),
        start(false),
        named(0x40, 1, "agent.example", false),
        named(0x40, 23, "Bearer sk-hand-raw-0001", false),
        new_name(0x40, "x-api-key", "key-huff-0002", true),
        json.clone(),
    ]
    .concat();
    // Stream 3 refers to all three, then a 132-byte entry evicts :authority: 254 bytes.
    let second = [
        start(true),
        indexed(64),
        indexed(63),
        indexed(62),
        new_name(0x40, "x-filler", &"f".repeat(92), false),
        json.clone(),
    ]
    .concat();
    // Stream 5 adds :authority (evicting the plain authorization), then a Huffman-coded
    // authorization (69) that evicts x-api-key and fills the table to exactly 256 bytes:
    // one byte more would evict x-filler too. The block is cut inside that value, over
    // three frames.
    let mut third = [start(false), named(0x40, 1, "agent.example", true)].concat();
    let value_at = third.len() + 2;
    third.extend(named(0x40, 23, "Bearer sk-hand-huff-0003", true));
    third.extend(named(0x10, 49, "Basic proxy-huff-0006", true));
    third.extend(new_name(0x00, "x-request-id", "req-5", true));
    third.extend(json.clone());
    // Stream 7: authorization (62), :authority (63) and x-filler (64) from the table.
    let fourth = [start(true), indexed(63), indexed(62), indexed(64), json].concat();

    let mut client = [h2::PREFACE, &h2::settings(&[]), &h2::settings_ack()].concat();
    for (stream, block) in [(1, &first), (3, &second)] {
        client.extend(frame(HEADERS, END_HEADERS, stream, block));
        client.extend(frame(DATA, END_STREAM, stream, GET_TASK));
    }
    let cuts = [value_at + 3, value_at + 9];
    client.extend(frame(HEADERS, 0, 5, &third[..cuts[0]]));
    client.extend(frame(CONTINUATION, 0, 5, &third[cuts[0]..cuts[1]]));
    client.extend(frame(CONTINUATION, END_HEADERS, 5, &third[cuts[1]..]));
    client.extend(frame(DATA, END_STREAM, 5, GET_TASK));
    client.extend(frame(HEADERS, END_HEADERS | END_STREAM, 7, &fourth));
    client
}

/// The server's answers: set-cookie added to its table, indexed, then sent without
/// indexing.
fn responses() -> Vec<u8> {
    let blocks = [
        [indexed(8), named(0x40, 55, "sid=hand-cookie-0004", true)].concat(),
        [indexed(8), indexed(62)].concat(),
        [indexed(8), named(0x00, 55, "sid=hand-cookie-0005", false)].concat(),
    ];
    let mut server = h2::settings_ack();
    for (stream, block) in [1, 3, 5].into_iter().zip(&blocks) {
        server.extend(frame(HEADERS, END_HEADERS, stream, block));
        server.extend(frame(DATA, END_STREAM, stream, ANSWER));
    }
    let last = [indexed(8), indexed(62)].concat();
    server.extend(frame(HEADERS, END_HEADERS | END_STREAM, 7, &last));
    server
}

/// The conversation in small TCP segments: strings straddle them. The server first
/// limits the client's table to 256 bytes (SETTINGS_HEADER_TABLE_SIZE).
fn conversation(client: &[u8], server: &[u8]) -> Vec<u8> {
    let mut conversation = pcap::Conversation::new(
        "127.0.0.1:50200".parse().unwrap(),
        "127.0.0.1:41243".parse().unwrap(),
    )
    .mss(37);
    conversation.handshake();
    conversation.send(false, &h2::settings(&[(0x1, 256)]));
    conversation.send(true, client);
    conversation.send(false, server);
    conversation.close();
    pcap::write_capture(&conversation.packets(), &pcap::Options::default()).bytes
}

#[test]
fn hpack_credentials_are_replaced_where_they_are_coded() {
    let before = conversation(&requests(), &responses());
    let text = carried(&before);
    assert_eq!(text.matches("sk-hand-raw-0001").count(), 2, "indexed once");
    assert_eq!(text.matches("sk-hand-huff-0003").count(), 2, "indexed once");
    assert_eq!(redacts_cleanly(&before, HAND_SECRETS), 6);

    let after = redact_source("run.pcap", &before)
        .unwrap()
        .unwrap()
        .redacted;
    // The Huffman codings are gone too (those no frame header cuts), and the plain value
    // is all `*`.
    let (sent, left) = (redacted::payloads(&before), redacted::payloads(&after));
    for value in [
        "key-huff-0002",
        "Basic proxy-huff-0006",
        "sid=hand-cookie-0004",
    ] {
        let coded = huffman(value.as_bytes());
        assert!(memchr::memmem::find(&sent, &coded).is_some());
        assert!(memchr::memmem::find(&left, &coded).is_none(), "{value}");
    }
    let text = carried(&after);
    assert!(text.contains(&format!("authorization: {}\r\n", "*".repeat(23))));
    assert!(!text.contains("Bearer"), "the scheme is masked too");
}

#[test]
fn a_huffman_value_no_placeholder_fits_is_refused() {
    // Eight 5-bit codes fill five octets exactly: every placeholder takes more.
    let block = [
        indexed(3),
        indexed(6),
        indexed(4),
        named(0x00, 23, "aaaaaaaa", true),
    ]
    .concat();
    let mut client = [h2::PREFACE, &h2::settings(&[]), &h2::settings_ack()].concat();
    client.extend(frame(HEADERS, END_HEADERS | END_STREAM, 1, &block));
    let server = [
        h2::settings_ack(),
        frame(HEADERS, END_HEADERS | END_STREAM, 1, &indexed(8)),
    ]
    .concat();
    let before = conversation(&client, &server);
    let error = redact_source("run.pcap", &before).unwrap_err();
    assert!(error.contains("Huffman-coded `authorization`"), "{error}");
    assert!(error.contains("left unchanged"), "{error}");
}
