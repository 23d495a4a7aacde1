//! `a2alint redact` on pcap files: every credential byte replaced in place by `*`, so the
//! capture reads back with the same exchanges, framing and TCP checksums, and no secret.

#[allow(dead_code)]
#[path = "common/h2.rs"]
mod h2;
#[allow(dead_code)]
#[path = "common/pcap.rs"]
mod pcap;
#[allow(dead_code)]
#[path = "common/twin.rs"]
mod twin;

#[allow(dead_code)]
#[path = "common/redacted.rs"]
mod redacted;

use a2alint::capture::wire::read_pcap;
use a2alint::redact::redact_source;
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
