//! Credentials never shown, files that are not HAR logs, JSON files of any name, and fingerprints.

use a2alint::FileReport;
use a2alint::output::report::Format;
use common::{fired, lint_file, render};

use super::*;

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
    for format in common::text_formats() {
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
