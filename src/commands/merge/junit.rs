//! `a2alint merge` of JUnit reports: every shard's `<testsuite>` (one per file) in the
//! run's file order under one `<testsuites>`, its `tests` and `failures` added up. It
//! reads the shape a2alint writes (`report/junit.rs`), not JUnit XML at large.

use super::{MergeError, Report, file_order, malformed};

/// One `<testsuite>` element as written, with its file.
struct Suite {
    path: String,
    text: String,
}

pub fn merge(reports: &[Report]) -> Result<String, MergeError> {
    let (mut tests, mut failures) = (0u64, 0u64);
    let mut name = None;
    let mut suites = Vec::new();
    for report in reports {
        let text = &report.text;
        let open = text
            .find("<testsuites")
            .ok_or_else(|| malformed(report, "no <testsuites>"))?;
        let head_end = open
            + text[open..]
                .find('>')
                .ok_or_else(|| malformed(report, "an unclosed <testsuites>"))?;
        let head = &text[open..head_end];
        tests += number(head, "tests").ok_or_else(|| malformed(report, "no tests count"))?;
        failures +=
            number(head, "failures").ok_or_else(|| malformed(report, "no failures count"))?;
        name.get_or_insert_with(|| attribute(head, "name").unwrap_or("a2alint").to_string());
        let mut rest = &text[head_end + 1..];
        while let Some(start) = rest.find("<testsuite ") {
            let after = &rest[start..];
            let head = &after[..after
                .find('>')
                .ok_or_else(|| malformed(report, "an unclosed <testsuite>"))?];
            let end = match head.ends_with('/') {
                true => head.len() + 1,
                false => {
                    let close = "</testsuite>";
                    after
                        .find(close)
                        .ok_or_else(|| malformed(report, "no </testsuite>"))?
                        + close.len()
                }
            };
            let path = unescape(attribute(head, "name").unwrap_or(""));
            // The element with its indentation, as the shard wrote it.
            let line_start = rest[..start].rfind('\n').map_or(0, |i| i + 1);
            suites.push(Suite {
                path,
                text: rest[line_start..start + end].to_string(),
            });
            rest = &rest[start + end..];
        }
    }
    suites.sort_by(|a, b| file_order(&a.path, &b.path));
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let name = name.unwrap_or_else(|| "a2alint".to_string());
    out.push_str(&format!(
        "<testsuites name=\"{name}\" tests=\"{tests}\" failures=\"{failures}\">\n"
    ));
    for suite in suites {
        out.push_str(&suite.text);
        out.push('\n');
    }
    out.push_str("</testsuites>\n");
    Ok(out)
}

/// The value of `name="..."` in an element's head.
fn attribute<'t>(head: &'t str, name: &str) -> Option<&'t str> {
    let key = format!(" {name}=\"");
    let start = head.find(&key)? + key.len();
    let len = head[start..].find('"')?;
    Some(&head[start..start + len])
}

fn number(head: &str, name: &str) -> Option<u64> {
    attribute(head, name)?.parse().ok()
}

/// Undoes the five XML escapes a2alint writes in attributes.
fn unescape(text: &str) -> String {
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&amp;", "&")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(text: &str) -> Report {
        Report {
            path: "r.xml".into(),
            text: text.into(),
        }
    }

    #[test]
    fn suites_of_two_shards_come_in_file_order_with_counts_added() {
        let a = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"a2alint\" tests=\"2\" failures=\"1\">\n  <testsuite name=\"b.http\" tests=\"1\" failures=\"1\">\n    <testcase name=\"x\" classname=\"b.http\"/>\n  </testsuite>\n  <testsuite name=\"d.http\" tests=\"1\" failures=\"0\">\n    <testcase name=\"a2alint\" classname=\"d.http\"/>\n  </testsuite>\n</testsuites>\n";
        let b = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"a2alint\" tests=\"1\" failures=\"1\">\n  <testsuite name=\"c &amp; d.http\" tests=\"1\" failures=\"1\">\n    <testcase name=\"y\" classname=\"c &amp; d.http\"/>\n  </testsuite>\n</testsuites>\n";
        let merged = merge(&[report(a), report(b)]).unwrap();
        assert!(merged.contains("tests=\"3\" failures=\"2\""), "{merged}");
        let order: Vec<usize> = [
            "\"b.http\" tests",
            "\"c &amp; d.http\" tests",
            "\"d.http\" tests",
        ]
        .iter()
        .map(|n| merged.find(n).unwrap())
        .collect();
        assert!(order.windows(2).all(|w| w[0] < w[1]), "{merged}");
        assert!(merged.ends_with("</testsuites>\n"));
    }
}
