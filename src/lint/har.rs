//! HAR files in the engine: each entry is written as HTTP/1.1 text and linted as soon as
//! it is read, so a large log is never held as text whole; findings are placed back in
//! the HAR file.

use crate::finding::Finding;
use crate::input::capture::{EntryText, HarLog, HarProblem, NotHar, Side, for_each_read_entry};
use crate::input::source::Label;
use crate::lint::Defer;
use crate::lint::Options;
use crate::lint::file::{FileLint, Unit};
use crate::output::FileReport;
use crate::output::resolve::{Resolver, har_file_span};
use crate::rules::RuleId;

/// HAR logs from this size on are read on a thread of their own when the run has more
/// than one ([`Options::read_ahead`]): below it, starting the thread is not worth it.
const READ_AHEAD_FROM: usize = 1 << 20;

pub(super) fn lint_har(path: &str, har: &[u8], options: &Options, defer: Defer) -> FileReport {
    let resolver = Resolver::for_har(path, har).identified_as(options.identity(path));
    let mut lint = FileLint::new(path, options, resolver, defer);
    let ahead = options.read_ahead && har.len() >= READ_AHEAD_FROM;
    let log = for_each_read_entry(har, ahead, &mut |written, capture| {
        for exchange in &mut capture.exchanges {
            // Numbered across the file, as if its entries were one text.
            exchange.index = lint.exchanges();
            let extra = base64_findings(written, exchange, options);
            lint.exchange(written.text, exchange, Unit::Har(written), extra);
        }
        lint.problems(&capture.problems, Unit::Har(written));
    });
    lint.finish(file_findings(har, &log, options))
}

/// Bodies of the exchange's entry marked base64 that are not.
fn base64_findings(
    written: &EntryText<'_>,
    exchange: &crate::input::capture::Exchange<'_>,
    options: &Options,
) -> Vec<Finding> {
    let rule = RuleId::UndecodableBody;
    if !options.rules.is_enabled(rule) {
        return Vec::new();
    }
    (written.bad_base64.iter())
        .filter_map(|&side: &Side| exchange.message(side))
        .map(|message| {
            Finding::new(
                rule,
                Label::at(message.body.raw, "not base64"),
                "body is marked `encoding: base64` but is not base64",
            )
            .help("the HAR file was edited or damaged; a2alint checked the text as it is")
        })
        .collect()
}

/// A file that is not a HAR log, or stops being one.
fn file_findings(har: &[u8], log: &HarLog, options: &Options) -> Vec<Finding> {
    let rule = RuleId::CaptureSyntax;
    let Some(HarProblem::NotHar {
        offset,
        message,
        kind,
    }) = &log.not_har
    else {
        return Vec::new();
    };
    if !options.rules.is_enabled(rule) {
        return Vec::new();
    }
    let offset = *offset;
    let end = (offset + 1).min(har.len());
    let span = har_file_span(crate::input::source::Span::new(offset, end.max(offset)));
    let (what, label) = match kind {
        NotHar::Syntax => ("HAR file is not valid JSON", "cannot read this"),
        NotHar::Truncated => ("HAR file is cut short", "the file ends here"),
        NotHar::Shape => ("file is not a HAR 1.2 log", "not what a HAR log holds"),
    };
    let read = match log.entries {
        0 => "no entry was read".to_string(),
        1 => "the entry before it was read".to_string(),
        n => format!("the {n} entries before it were read"),
    };
    vec![
        Finding::new(rule, Label::at(span, label), format!("{what}: {message}")).help(format!(
            "a HAR file is a JSON object whose `log.entries` array holds one request and \
             response per entry, as browsers, mitmproxy, Charles and Playwright export it; \
             {read}"
        )),
    ]
}

/// Says in an unanswered HAR entry's `unpaired-message` why the recorder saw no answer
/// (its `_error`), so the reader can tell a refused connection from a lost response.
pub(super) fn note_failure(findings: &mut [Finding], why: &str) {
    let why: String = why.chars().filter(|c| !c.is_control()).take(200).collect();
    for finding in findings
        .iter_mut()
        .filter(|f| f.rule == RuleId::UnpairedMessage)
    {
        finding.message = format!("{} (the HAR entry's `_error`: {why})", finding.message);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A log over the read-ahead size whose every entry gives findings (a JSON-RPC
    /// error without its ErrorInfo, over HTTP 500).
    fn large_log() -> String {
        let entry = |i: usize| {
            let body = format!(
                r#"{{\"jsonrpc\": \"2.0\", \"id\": {i}, \"error\": {{\"code\": -32001, \"message\": \"Task t{i} not found\"}}}}"#
            );
            format!(
                r#"{{"request": {{"method": "POST", "url": "http://agent.example/a2a", "httpVersion": "HTTP/1.1",
                    "headers": [{{"name": "Content-Type", "value": "application/json"}}],
                    "postData": {{"mimeType": "application/json", "text": "{{\"jsonrpc\": \"2.0\", \"id\": {i}, \"method\": \"GetTask\", \"params\": {{\"id\": \"t{i}\"}}}}"}}}},
                  "response": {{"status": 500, "statusText": "Internal Server Error", "httpVersion": "HTTP/1.1",
                    "headers": [{{"name": "Content-Type", "value": "application/json"}}],
                    "content": {{"mimeType": "application/json", "text": "{body}"}}}}}}"#
            )
        };
        let mut entries = Vec::new();
        let mut size = 0;
        while size <= READ_AHEAD_FROM {
            entries.push(entry(entries.len()));
            size += entries.last().map_or(0, String::len);
        }
        format!(
            r#"{{"log": {{"version": "1.2", "entries": [{}]}}}}"#,
            entries.join(",\n")
        )
    }

    #[test]
    fn reading_ahead_changes_nothing_in_the_report() {
        let har = large_log();
        let report = |read_ahead| {
            let options = Options {
                read_ahead,
                ..Options::default()
            };
            let report = crate::lint::lint_source("large.har", har.as_bytes(), &options);
            (report.diagnostics.len(), format!("{report:?}"))
        };
        let (here, ahead) = (report(false), report(true));
        // Findings in every entry, so that any change of order or of place would show.
        assert!(here.0 > 1000, "{} diagnostics", here.0);
        assert_eq!(here, ahead);
    }
}
