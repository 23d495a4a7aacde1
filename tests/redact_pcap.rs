//! `a2alint redact` on pcap files: every credential byte replaced in place by `*`, so the
//! capture reads back with the same exchanges, framing and TCP checksums, and no secret.

#[allow(dead_code)]
#[path = "common/h2.rs"]
mod h2;
#[allow(dead_code)]
#[path = "common/pcap/mod.rs"]
mod pcap;
#[allow(dead_code)]
#[path = "common/twin.rs"]
mod twin;

#[allow(dead_code)]
#[path = "common/redacted.rs"]
mod redacted;

use a2alint::commands::redact::redact_source;
use a2alint::input::capture::wire::read_pcap;
use redacted::{SECRETS, assert_checksums, carried, plain_exchanges, rules};

fn capture(http: &[u8]) -> Vec<u8> {
    let options = pcap::Options::new(pcap::Container::PCAP, pcap::Link::Ethernet);
    twin::twin(http, &options, 120, twin::Connections::KeepAlive)
}

#[test]
fn a_redacted_pcap_holds_no_secret_and_reads_the_same() {
    let before = capture(&plain_exchanges());
    let text = carried(&before);
    for secret in SECRETS {
        assert!(text.contains(secret), "the capture holds {secret}");
    }
    assert!(rules("run.pcap", &before).contains(&"secret-in-capture".to_string()));

    let redaction = redact_source("run.pcap", &before)
        .unwrap()
        .expect("secrets to redact");
    let after = &redaction.redacted;
    assert_eq!(
        after.len(),
        before.len(),
        "same length: sequence numbers stay right"
    );
    let text = carried(after) + &String::from_utf8_lossy(after);
    for secret in SECRETS {
        assert!(!text.contains(secret), "still holds {secret}");
    }
    assert_checksums(after);
    assert!(!rules("run.pcap", after).contains(&"secret-in-capture".to_string()));
    assert_eq!(
        redacted::rules_but_secrets("run.pcap", after),
        redacted::rules_but_secrets("run.pcap", &before)
    );
    assert_eq!(redacted::reading(after), redacted::reading(&before));
    assert!(redacted::unmasked(after).is_empty());
    let count = |file: &[u8]| {
        let mut n = 0;
        read_pcap(file, &mut |_| n += 1);
        n
    };
    assert_eq!(count(after), count(&before));
    assert!(
        redact_source("run.pcap", after).unwrap().is_none(),
        "redacting twice changes nothing"
    );
}

#[test]
fn a_secret_inside_a_compressed_body_is_refused_and_the_file_left_alone() {
    let http = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/redact/secrets.http"
    ))
    .unwrap();
    let error = redact_source("run.pcap", &capture(&http)).unwrap_err();
    assert!(error.contains("compressed body"), "{error}");
}

/// Whether `needle` stands anywhere in `file`, even split over two segments of the same
/// packet order: checked on the raw bytes, where a retransmitted copy would be.
fn holds(file: &[u8], needle: &[u8]) -> bool {
    file.windows(needle.len()).any(|w| w == needle)
}

#[test]
fn every_copy_of_a_credential_is_masked_retransmissions_and_overlaps_too() {
    const TOKEN: &[u8] = b"sk-live-retransmitted-0042";
    let request = [
        &b"POST /a2a HTTP/1.1\r\nHost: agent\r\nAuthorization: Bearer "[..],
        TOKEN,
        b"\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}",
    ]
    .concat();
    let response =
        b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}";
    let mut conversation = pcap::Conversation::new(
        "10.4.0.2:40000".parse().unwrap(),
        "10.4.0.1:8080".parse().unwrap(),
    )
    .mss(40);
    conversation.handshake();
    conversation.exchange(&request, response);
    conversation.close();
    let mut segments = conversation.segments().to_vec();
    let client_data = pcap::data_segments(&segments, true);
    // The segment holding the token sent twice, the second time late; and a later
    // segment re-sending part of it with new bytes.
    let with_token = client_data[1];
    let late = segments.len() - 2;
    pcap::retransmit_at(&mut segments, with_token, late);
    pcap::overlap(&mut segments, client_data[2], 12);
    let file = pcap::write_capture(
        &conversation.packets_of(&segments),
        &pcap::Options::default(),
    )
    .bytes;
    let piece = &TOKEN[..12];
    assert!(holds(&file, piece), "the capture holds the token");
    let redaction = redact_source("run.pcap", &file)
        .unwrap()
        .expect("a secret to redact");
    for start in 0..=TOKEN.len() - 8 {
        let piece = &TOKEN[start..start + 8];
        assert!(
            !holds(&redaction.redacted, piece),
            "{} is left",
            String::from_utf8_lossy(piece)
        );
    }
    assert_checksums(&redaction.redacted);
}

#[test]
fn diff_names_frames_and_shows_no_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run.pcap");
    std::fs::write(&path, capture(&plain_exchanges())).unwrap();
    let out = assert_cmd::Command::cargo_bin("a2alint")
        .unwrap()
        .args(["redact", "--diff"])
        .arg(&path)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).expect("the preview is text");
    assert!(
        text.lines().skip(2).all(|l| l.starts_with("frame ")),
        "{text}"
    );
    assert!(text.contains("bytes masked at file offset"), "{text}");
    for secret in SECRETS {
        assert!(!text.contains(secret), "{text}");
    }
}
