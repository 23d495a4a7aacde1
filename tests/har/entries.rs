//! Entries: their index, odd bodies, pairing, directories, upgrades and unanswered entries.

use common::{fired, lint_file};
use std::path::{Path, PathBuf};

use super::*;

#[test]
fn entries_keep_their_index_and_odd_bodies_are_reported() {
    let text = r#"{"log": {"entries": [
  {"comment": "an entry with nothing in it"},
  {"request": {"method": "POST", "url": "https://agent.example/message:send", "httpVersion": "HTTP/2.0",
     "headers": [{"name": "content-type", "value": "application/a2a+json"}, {"name": "a2a-version", "value": "1.0"}],
     "postData": {"mimeType": "application/a2a+json", "text": "{\"message\": {not json"}},
   "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/2.0",
     "headers": [{"name": "content-type", "value": "application/a2a+json"}],
     "content": {"mimeType": "application/a2a+json", "text": "!!not base64!!", "encoding": "base64"}}}
]}}"#;
    let report = lint_text("odd.har", text);
    let body = find(&report, "body-not-json");
    assert_eq!(body.exchange, Some(1));
    assert_eq!(
        body.primary.body.as_deref(),
        Some("#entries[1].request.postData")
    );
    assert_eq!(body.snippets[0].name, "odd.har#entries[1].request.postData");
    let undecodable = find(&report, "undecodable-body");
    assert_eq!(undecodable.exchange, Some(1));
    assert_eq!(
        undecodable.primary.body.as_deref(),
        Some("#entries[1].response.content")
    );
    assert_eq!(
        undecodable.primary.start.line,
        position(text, "!!not base64!!", 0).0
    );
}

/// Each entry is read on its own: a request that was never answered is not paired with
/// the response of the next entry (one that has no request), as it would be if the
/// entries were read as one text.
#[test]
fn entries_are_never_paired_across() {
    let text = r#"{"log": {"entries": [
  {"request": {"method": "GET", "url": "https://agent.example/tasks/t-1", "headers": [{"name": "A2A-Version", "value": "1.0"}]},
   "response": {"status": 0, "_error": "net::ERR_CONNECTION_RESET"}},
  {"response": {"status": 200, "statusText": "OK",
     "headers": [{"name": "content-type", "value": "application/a2a+json"}],
     "content": {"text": "{\"id\": \"t-2\"}"}}}
]}}"#;
    let report = lint_text("unpaired.har", text);
    assert_eq!(report.exchanges, 2);
    let unpaired: Vec<_> = (report.diagnostics.iter())
        .filter(|d| d.rule.slug() == "unpaired-message")
        .map(|d| d.exchange)
        .collect();
    assert_eq!(unpaired, [Some(0), Some(1)], "{:?}", findings(&report));
    let rows = a2alint::protocol::inspect::inspect_source(
        "unpaired.har",
        text.as_bytes(),
        Default::default(),
    );
    let entries: Vec<_> = rows.iter().map(|r| (r.entry, r.status)).collect();
    assert_eq!(entries, [(Some(0), None), (Some(1), Some(200))]);
}

#[test]
fn directories_yield_har_files() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["a.http", "b.HAR", "c.json", "d.har"] {
        std::fs::write(dir.path().join(name), "{}").unwrap();
    }
    let found = a2alint::input::walk::walk(&[dir.path().to_path_buf()], "-", &|_| false);
    let names: Vec<String> = found
        .inputs
        .iter()
        .map(|i| i.display_name().rsplit('/').next().unwrap().to_string())
        .collect();
    assert_eq!(names, ["a.http", "b.HAR", "d.har"]);
}

fn unpaired_fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/unpaired-message")
        .join(name)
}

/// A WebSocket upgrade, as Chrome, Firefox and mitmproxy record it (status 101; Chrome
/// and mitmproxy add `_resourceType: "websocket"` and `_webSocketMessages`), is a
/// completed exchange: its 101 is the answer, not an interim response before one. And a
/// response with a real status is an answer even when the entry has an `_error` (Chrome's
/// `net::ERR_ABORTED` for a body the page cancelled).
#[test]
fn websocket_upgrades_and_aborted_bodies_are_answered() {
    for (name, statuses) in [
        ("ok-har-chrome-websocket-upgrade.har", &[101, 200][..]),
        ("ok-har-firefox-websocket-upgrade.har", &[101, 200]),
        ("ok-har-mitmproxy-websocket-upgrade.har", &[101, 200]),
        ("ok-har-chrome-aborted-stream-with-status.har", &[200]),
    ] {
        let path = unpaired_fixture(name);
        let report = lint_file(&path);
        assert_eq!(report.exchanges, statuses.len(), "{name}");
        assert!(
            !fired(&report).contains(&"unpaired-message"),
            "{name}: {:?}",
            findings(&report)
        );
        let bytes = std::fs::read(&path).unwrap();
        let rows = a2alint::protocol::inspect::inspect_source(name, &bytes, Default::default());
        let seen: Vec<_> = rows.iter().filter_map(|r| r.status).collect();
        assert_eq!(seen, statuses, "{name}");
    }
}

/// Status 0 with an `_error` is still a request nobody answered, and the finding says
/// what the recorder saw.
#[test]
fn an_entry_with_no_status_is_unanswered_and_says_why() {
    for (name, why) in [
        (
            "bad-har-chrome-connection-refused.har",
            "net::ERR_CONNECTION_REFUSED",
        ),
        ("bad-har-mitmproxy-flow-killed.har", "Connection killed."),
    ] {
        let report = lint_file(&unpaired_fixture(name));
        let unpaired = find(&report, "unpaired-message");
        assert_eq!(unpaired.exchange, Some(0), "{name}");
        assert!(
            unpaired
                .message
                .ends_with(&format!("(the HAR entry's `_error`: {why})")),
            "{name}: {}",
            unpaired.message
        );
    }
}
