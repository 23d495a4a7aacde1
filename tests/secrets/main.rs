//! No output a2alint writes ever shows a credential. Captures full of fake secrets (in
//! headers, push config bodies, JSON-RPC errors, SSE events, a gzip body and HAR files),
//! each placed right beside other findings so that context windows show those lines,
//! are run through every `--format`, the GitHub step summary, a baseline file and
//! `a2alint inspect`; no secret value, nor any 8-character piece of one, may appear.
//!
//! The test target `secrets` (this file) holds the tests; its modules hold the fixtures
//! (`values`, `captures`, `har`, `edge`) and the leak scanner (`leaks`).

#[allow(dead_code)]
#[path = "../common/h2.rs"]
mod h2;
#[allow(dead_code)]
#[path = "../common/pcap/mod.rs"]
mod pcap;
#[allow(dead_code)]
#[path = "../common/twin.rs"]
mod twin;

mod captures;
mod edge;
mod har;
mod leaks;
mod values;

use captures::fixtures;
use edge::edge_fixtures;
use leaks::{a2alint, every_output_leaks, report, text};
use values::{PIECE, Secrets};

#[test]
fn fixtures_hold_what_they_claim() {
    let s = Secrets::new();
    let dir = fixtures(&s);
    // The captures really hold every secret, so the leak check below means something.
    let mut all = Vec::new();
    for entry in std::fs::read_dir(dir.path()).unwrap() {
        all.extend(std::fs::read(entry.unwrap().path()).unwrap());
    }
    let all = text(&all);
    // No two secrets share a piece, so a leaked piece names one secret.
    let secrets = s.all();
    for (i, a) in secrets.iter().enumerate() {
        for b in &secrets[i + 1..] {
            let shared = a
                .value
                .as_bytes()
                .windows(PIECE)
                .find(|w| b.value.as_bytes().windows(PIECE).any(|v| v == *w));
            assert!(
                shared.is_none(),
                "{} and {} share {:?}",
                a.name,
                b.name,
                shared.map(text)
            );
        }
    }
    for secret in s.all() {
        let encoded_only = secret.name == "jwt_gzip" || secret.name == "jwt_har64";
        assert_eq!(
            all.contains(&secret.value),
            !encoded_only,
            "{}: {}",
            secret.name,
            secret.placed
        );
    }
    // And secret-in-capture finds them in each file, beside the other findings.
    let out = a2alint()
        .args([
            "check",
            "--no-config",
            "--no-progress",
            "--format",
            "concise",
        ])
        .arg(dir.path())
        .output()
        .unwrap();
    let concise = text(&out.stdout);
    for file in [
        "headers.http",
        "push.http",
        "jwt-rpc.http",
        "stream.http",
        "gzip.http",
        "pretty.har",
        "minified.har",
        "headers.pcapng",
        "push.pcapng",
        "jwt-rpc.pcapng",
        "stream.pcapng",
        "gzip.pcapng",
        "headers-h2.pcap",
        "push-h2.pcap",
        "jwt-rpc-h2.pcap",
        "stream-h2.pcap",
        "gzip-h2.pcap",
    ] {
        let rules: Vec<&str> = concise
            .lines()
            .filter(|l| l.contains(file))
            .filter_map(|l| l.split('[').nth(1)?.split(']').next())
            .collect();
        assert!(
            rules.contains(&"secret-in-capture"),
            "{file}: secret-in-capture did not fire\n{concise}"
        );
        assert!(
            rules.iter().any(|r| *r != "secret-in-capture"),
            "{file}: no other finding beside the secrets\n{concise}"
        );
    }
}

#[test]
fn no_output_shows_a_secret() {
    let s = Secrets::new();
    let dir = fixtures(&s);
    let found = every_output_leaks(dir.path(), &s.all());
    assert!(found.is_empty(), "{}", report(&found));
}

#[test]
fn masking_keeps_positions() {
    let s = Secrets::new();
    let dir = fixtures(&s);
    let out = a2alint()
        .args(["check", "--no-config", "--no-progress", "--color", "never"])
        .arg(dir.path())
        .output()
        .unwrap();
    let human = text(&out.stdout);
    let stars = |n: usize| "*".repeat(n);
    let expected = [
        format!("Authorization: {}", stars("Bearer ".len() + s.bearer.len())),
        format!("Authorization: {}", stars("Basic ".len() + s.basic.len())),
        format!(
            "Proxy-Authorization: {}",
            stars("Basic ".len() + s.proxy.len())
        ),
        format!(
            "Cookie: {}",
            stars(format!("sid={}; csrftoken={}; theme=dark", s.sid, s.csrf).len())
        ),
        format!(
            "Set-Cookie: {}",
            stars(format!("refresh={}; Path=/; HttpOnly; Secure", s.set_cookie).len())
        ),
        format!("X-API-Key: {}", stars(s.api_key.len())),
        format!("\"token\":\"{}\"", stars(s.push_token.len())),
        format!("\"credentials\":\"{}\"", stars(s.push_cred.len())),
        format!("\"token\": \"{}\"", stars(s.push_token.len())),
        format!("using session {}", stars(s.jwt_sse.len())),
        format!("\"credentials\": \"{}\"", stars(s.jwt_gzip.len())),
    ];
    let missing: Vec<&String> = expected.iter().filter(|e| !human.contains(*e)).collect();
    assert!(
        missing.is_empty(),
        "the human report does not show these masked lines: {missing:#?}\n{human}"
    );
}

#[test]
fn no_output_shows_a_secret_in_harder_shapes() {
    let dir = tempfile::tempdir().unwrap();
    let secrets = edge_fixtures(dir.path());
    let found = every_output_leaks(dir.path(), &secrets);
    assert!(found.is_empty(), "{}", report(&found));
}
