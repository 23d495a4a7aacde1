//! HAR 1.2 files in the shapes real tools write: the same findings as the equivalent
//! `.http` capture, machine locations on the right HAR members, bodies shown as sources
//! of their own, credentials never shown, and files that are not HAR logs.

mod common;

use std::path::{Path, PathBuf};

use a2alint::output::report::Format;
use a2alint::output::resolve::Diagnostic;
use a2alint::{FileReport, Options, lint_source};
use common::{fired, lint_file, render};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/har")
        .join(name)
}

fn lint_text(path: &str, text: &str) -> FileReport {
    lint_source(path, text.as_bytes(), &Options::default())
}

/// What a finding says, leaving out where it is.
fn findings(report: &FileReport) -> Vec<String> {
    report
        .diagnostics
        .iter()
        .map(|d| {
            format!(
                "{} {} exchange={:?} member={:?} related={} | {} | {:?}",
                d.rule,
                d.severity,
                d.exchange,
                d.member,
                d.related.len(),
                d.message,
                d.help
            )
        })
        .collect()
}

fn find<'r>(report: &'r FileReport, slug: &str) -> &'r Diagnostic {
    report
        .diagnostics
        .iter()
        .find(|d| d.rule.slug() == slug)
        .unwrap_or_else(|| panic!("{slug} did not fire: {:?}", fired(report)))
}

/// 1-based line and column of the `nth` (0-based) occurrence of `needle` in `text`.
fn position(text: &str, needle: &str, nth: usize) -> (usize, usize) {
    let at = text
        .match_indices(needle)
        .nth(nth)
        .unwrap_or_else(|| panic!("{needle} #{nth} not found"))
        .0;
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    (
        text[..at].matches('\n').count() + 1,
        text[line_start..at].chars().count() + 1,
    )
}

#[test]
fn har_files_give_the_findings_of_the_equivalent_http_capture() {
    for name in ["mitmproxy-hardump", "browser-export"] {
        let har = lint_file(&fixture(&format!("{name}.har")));
        let http = lint_file(&fixture(&format!("twins/{name}.http")));
        // The browser export also carries fake credentials (`secret-in-capture`).
        let rules = fired(&har);
        for rule in [
            "error-info-missing",
            "http-status-mismatch",
            "unpaired-message",
        ] {
            assert!(rules.contains(&rule), "{name}: {rules:?}");
        }
        // The same findings, but that the HAR entry of an unanswered request says why
        // (its `_error`), which the `.http` twin cannot.
        let noted = findings(&har);
        assert!(
            noted
                .iter()
                .any(|f| f.contains(" (the HAR entry's `_error`: ")),
            "{name}: {noted:?}"
        );
        let without_note: Vec<String> = (noted.iter())
            .map(
                |f| match (f.find(" (the HAR entry's `_error`: "), f.find(") | ")) {
                    (Some(start), Some(end)) if start < end => {
                        format!("{}{}", &f[..start], &f[end + 1..])
                    }
                    _ => f.clone(),
                },
            )
            .collect();
        assert_eq!(without_note, findings(&http), "{name}");
        assert_eq!(har.exchanges, http.exchanges, "{name}");
    }
}

#[test]
fn machine_locations_point_at_the_members_in_the_har_file() {
    let path = fixture("mitmproxy-hardump.har");
    let text = std::fs::read_to_string(&path).unwrap();
    let report = lint_file(&path);

    // A finding in a body: the body is its own source, the location the `text` member.
    let missing = find(&report, "error-info-missing");
    assert_eq!(missing.exchange, Some(0));
    assert_eq!(
        missing.primary.body.as_deref(),
        Some("#entries[0].response.content")
    );
    let text_member = position(
        &text,
        r#""text": "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\""#,
        0,
    );
    assert_eq!(missing.primary.start.line, text_member.0);
    assert_eq!(
        missing.primary.start.column,
        text_member.1 + "\"text\": ".len()
    );
    let window = &missing.snippets[0];
    assert_eq!(
        window.name,
        "tests/fixtures/har/mitmproxy-hardump.har#entries[0].response.content"
    );
    assert_eq!((window.line, window.column), (1, 25));

    // A status: the very characters of the `status` member.
    let status = find(&report, "http-status-mismatch");
    assert_eq!(status.exchange, Some(1));
    assert_eq!(&text[status.primary.span.range()], "409");
    let (line, column) = position(&text, "\"status\": 409", 0);
    assert_eq!(
        (status.primary.start.line, status.primary.start.column),
        (line, column + "\"status\": ".len())
    );
    assert_eq!(status.primary.body, None);

    // A request that was never answered: its URL.
    let unpaired = find(&report, "unpaired-message");
    assert_eq!(unpaired.exchange, Some(2));
    assert_eq!(
        &text[unpaired.primary.span.range()],
        "\"http://agent.example:8080/a2a\""
    );
    assert_eq!(
        unpaired.primary.start.line,
        position(&text, "\"url\": ", 2).0
    );

    let concise = render(Format::Concise, &[report]);
    assert!(
        concise.contains(&format!(
            "tests/fixtures/har/mitmproxy-hardump.har:{}:{}: error[http-status-mismatch]",
            line,
            column + 10
        )),
        "{concise}"
    );
}

#[test]
fn human_output_shows_bodies_as_their_own_sources() {
    insta::glob!("fixtures/har/*.har", |path| {
        let reports = [lint_file(path)];
        insta::assert_snapshot!(format!(
            "{}\n----- human -----\n{}",
            render(Format::Concise, &reports),
            render(Format::Human, &reports)
        ));
    });
}

#[test]
fn credentials_in_a_har_file_are_never_shown() {
    let pretty = r#"{"log": {"entries": [{
  "request": {
    "method": "POST",
    "url": "http://agent.example/a2a",
    "headers": [
      {"name": "Authorization", "value": "Bearer SECRET-1"},
      {"name": "Cookie", "value": "sid=SECRET-2"},
      {"name": "Content-Type", "value": "text/plain"}],
    "cookies": [{"name": "sid", "value": "SECRET-3"}],
    "postData": {"mimeType": "text/plain", "text": "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"GetTask\",\"params\":{\"id\":\"t-1\"}}"}
  },
  "response": {"status": 200, "statusText": "OK", "headers": [{"name": "Set-Cookie", "value": "sid=SECRET-4"},
    {"name": "Content-Type", "value": "application/json"}],
    "content": {"text": "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"id\":\"t-1\",\"status\":{\"state\":\"TASK_STATE_COMPLETED\"}}}"}}
}]}}"#;
    let reports = [
        lint_text("pretty.har", pretty),
        lint_file(&fixture("minified.har")),
        lint_file(&fixture("browser-export.har")),
    ];
    assert!(fired(&reports[0]).contains(&"request-content-type"));
    let content_type = find(&reports[0], "request-content-type");
    assert_eq!(&pretty[content_type.primary.span.range()], "text/plain");
    for format in [
        Format::Human,
        Format::Concise,
        Format::Json,
        Format::Sarif,
        Format::Github,
        Format::Gitlab,
        Format::Junit,
    ] {
        let output = render(format, &reports);
        assert!(!output.contains("SECRET"), "{format:?}:\n{output}");
    }
    let human = render(Format::Human, &reports[..1]);
    assert!(
        human.contains(r#"{"name": "Authorization", "value": "***************"},"#),
        "{human}"
    );
    assert!(
        human.contains(r#"[{"name": "sid", "value": "********"}],"#),
        "{human}"
    );
}

#[test]
fn a_file_that_is_not_a_har_log_is_a_capture_syntax_finding_at_its_place() {
    let report = lint_file(&fixture("not-a-har.har"));
    assert_eq!(fired(&report), ["capture-syntax"]);
    let finding = &report.diagnostics[0];
    assert_eq!(
        finding.message,
        "file is not a HAR 1.2 log: missing field `log`"
    );
    assert_eq!(
        (finding.primary.start.line, finding.primary.start.column),
        (14, 1)
    );

    for (text, message, line, column) in [
        (
            "{\"log\": {\"entries\": [}}",
            "HAR file is not valid JSON: expected value",
            1,
            22,
        ),
        (
            "{\"log\": {\"pages\": []}}\n",
            "file is not a HAR 1.2 log: missing field `entries`",
            1,
            21,
        ),
        (
            "{\"log\": {\"entries\": {}}}",
            "file is not a HAR 1.2 log: invalid type: map, expected an array of HAR entries",
            1,
            21,
        ),
        (
            "\n\n{\"log\": {\"entries\": [\n",
            "HAR file is cut short: EOF while parsing a list",
            3,
            21,
        ),
    ] {
        let report = lint_text("x.har", text);
        assert_eq!(fired(&report), ["capture-syntax"], "{text}");
        let finding = &report.diagnostics[0];
        assert_eq!(finding.message, message, "{text}");
        assert_eq!(
            (finding.primary.start.line, finding.primary.start.column),
            (line, column),
            "{text}"
        );
    }

    // A file cut short mid-log: the entries before the cut are still linted.
    let report = lint_file(&fixture("truncated.har"));
    assert_eq!(fired(&report), ["error-info-missing", "capture-syntax"]);
    assert_eq!(report.exchanges, 1);
}

#[test]
fn json_files_of_any_name_are_read_as_har() {
    let text = std::fs::read_to_string(fixture("mitmproxy-hardump.har")).unwrap();
    let as_json = lint_text("capture.json", &text);
    let from_stdin = lint_text("-", &format!("\u{feff}  \n{text}"));
    assert_eq!(
        fired(&as_json),
        [
            "error-info-missing",
            "http-status-mismatch",
            "unpaired-message"
        ]
    );
    assert_eq!(findings(&as_json), findings(&from_stdin));
    assert_eq!(
        from_stdin.diagnostics[1].primary.start.line,
        as_json.diagnostics[1].primary.start.line + 1
    );
}

#[test]
fn fingerprints_do_not_depend_on_the_layout_of_the_file() {
    let text = std::fs::read_to_string(fixture("browser-export.har")).unwrap();
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    let pretty = lint_text("trace.har", &text);
    let minified = lint_text("trace.har", &serde_json::to_string(&value).unwrap());
    // Re-serialising reorders members, so findings come in another order: compare sets.
    let prints = |r: &FileReport| -> Vec<String> {
        let mut prints: Vec<String> = r
            .diagnostics
            .iter()
            .map(|d| d.fingerprint.clone())
            .collect();
        prints.sort();
        prints
    };
    assert_eq!(prints(&pretty), prints(&minified));
    assert!(
        minified
            .diagnostics
            .iter()
            .all(|d| d.primary.start.line == 1)
    );
    // The status and URL labels still land on the very members.
    for (report, source) in [
        (&pretty, text.clone()),
        (&minified, serde_json::to_string(&value).unwrap()),
    ] {
        let status = find(report, "http-status-mismatch");
        assert_eq!(&source[status.primary.span.range()], "409");
    }
}

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
