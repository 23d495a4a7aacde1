//! What the HTML report gathers while files stream by, and draws once they are all done:
//! findings by severity and rule, inspect's errors-by-binding matrix, and one example of
//! each operation's error per binding for the side-by-side view.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::finding::Severity;
use crate::output::report::Summary;
use crate::output::report::html::escape::{attr, prose, text};
use crate::output::report::html::findings::rule_anchor;
use crate::output::report::html::text::masked;
use crate::output::resolve::Diagnostic;
use crate::protocol::inspect::{self, ErrorDetail, Row, Visited};
use crate::rules::RuleId;

/// An error's examples by binding, keyed by the binding's place in the matrix and name.
type ByBinding = BTreeMap<(usize, &'static str), Example>;

/// Up to this many side-by-side groups are shown open.
const OPEN_COMPARISONS: usize = 8;

/// One exchange standing for an error of an operation over a binding.
struct Example {
    anchor: String,
    place: String,
    status: String,
    detail: Option<ErrorDetail>,
}

#[derive(Default)]
pub struct Tally {
    /// Findings of each rule: errors, warnings, infos.
    by_rule: BTreeMap<&'static str, (RuleId, [usize; 3])>,
    /// Errors by name, then by binding, summed over files as inspect sums them.
    matrix: BTreeMap<String, BTreeMap<&'static str, usize>>,
    exchanges: usize,
    /// (operation, error) to the first example in each binding.
    /// Bindings in the matrix's order: JSON-RPC, HTTP+JSON, gRPC, then any other.
    examples: BTreeMap<(&'static str, String), ByBinding>,
}

impl Tally {
    pub fn diagnostics(&mut self, diagnostics: &[Diagnostic]) {
        for d in diagnostics {
            let entry = self
                .by_rule
                .entry(d.rule.slug())
                .or_insert((d.rule, [0; 3]));
            entry.1[severity_index(d.severity)] += 1;
        }
    }

    /// One file's rows, for the matrix.
    pub fn rows(&mut self, rows: &[Row]) {
        self.exchanges += rows.len();
        for (error, by_binding) in inspect::matrix(rows) {
            let counts = self.matrix.entry(error.to_string()).or_default();
            for (binding, n) in by_binding {
                *counts.entry(binding).or_default() += n;
            }
        }
    }

    /// Keeps the exchange as its operation's example of its error in its binding, unless
    /// one came before.
    pub fn example(&mut self, v: &Visited<'_>, anchor: &str) {
        let row = &v.row;
        let (Some(operation), Some(error)) = (row.operation, row.error.as_ref()) else {
            return;
        };
        let examples = self.examples.entry((operation, error.clone())).or_default();
        let order = (inspect::MATRIX_BINDINGS.iter())
            .position(|b| *b == row.binding)
            .unwrap_or(usize::MAX);
        examples
            .entry((order, row.binding))
            .or_insert_with(|| Example {
                anchor: anchor.to_string(),
                place: example_place(row),
                status: match (row.status, row.grpc_status_name) {
                    (Some(http), Some(_)) => format!("HTTP {http}, {}", inspect::status_cell(row)),
                    (Some(http), None) => format!("HTTP {http}"),
                    (None, _) => inspect::status_cell(row),
                },
                detail: v.error.clone(),
            });
    }

    /// The summary: files, exchanges, findings by severity, then by rule.
    pub fn push_summary(&self, out: &mut String, summary: &Summary) {
        out.push_str("<section id=\"summary\"><h2>Summary</h2>\n<ul class=\"totals\">");
        let _ = write!(
            out,
            "<li>{}</li><li>{}</li>\
             <li class=\"sev-error\"><b id=\"count-error\">{}</b> errors</li>\
             <li class=\"sev-warning\"><b id=\"count-warning\">{}</b> warnings</li>\
             <li class=\"sev-info\"><b id=\"count-info\">{}</b> infos</li>",
            plural(summary.files, "file"),
            plural(summary.exchanges, "exchange"),
            summary.errors,
            summary.warnings,
            summary.infos
        );
        for (n, what) in [
            (summary.suppressed, "suppressed"),
            (summary.baselined, "in the baseline"),
            (summary.stale_baseline, "stale baseline entries"),
            (summary.tls_connections, "TLS connections not read"),
        ] {
            if n > 0 {
                let _ = write!(out, "<li>{n} {what}</li>");
            }
        }
        out.push_str("</ul>\n");
        if self.by_rule.is_empty() {
            out.push_str("<p class=\"clean\">No findings.</p></section>\n");
            return;
        }
        out.push_str(
            "<table class=\"by-rule\"><thead><tr><th>rule</th><th>errors</th><th>warnings</th>\
             <th>infos</th></tr></thead><tbody>\n",
        );
        for (slug, (rule, counts)) in &self.by_rule {
            let _ = writeln!(
                out,
                "<tr data-rule=\"{slug}\"><td><a class=\"rule\" href=\"#{}\" title=\"{}\">\
                 {slug}</a></td><td>{}</td><td>{}</td><td>{}</td></tr>",
                rule_anchor(slug),
                attr(rule.summary()),
                counts[0],
                counts[1],
                counts[2],
            );
        }
        out.push_str("</tbody></table></section>\n");
    }

    /// Inspect's matrix of errors by binding.
    pub fn push_matrix(&self, out: &mut String) {
        out.push_str("<section id=\"matrix\"><h2>Errors by binding</h2>\n");
        if self.matrix.is_empty() {
            let _ = writeln!(
                out,
                "<p class=\"clean\">No errors in {} exchanges.</p></section>",
                self.exchanges
            );
            return;
        }
        let [rpc, rest, grpc] = inspect::MATRIX_BINDINGS;
        let _ = writeln!(
            out,
            "<table><thead><tr><th>error</th><th>{rpc}</th><th>{rest}</th><th>{grpc}</th>\
             <th>OTHER</th></tr></thead><tbody>"
        );
        for (error, by_binding) in &self.matrix {
            let count = |b: &str| by_binding.get(b).copied().unwrap_or(0);
            let other: usize = (by_binding.iter())
                .filter(|(b, _)| !inspect::MATRIX_BINDINGS.contains(b))
                .map(|(_, n)| n)
                .sum();
            let _ = writeln!(
                out,
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{other}</td></tr>",
                text(error),
                count(rpc),
                count(rest),
                count(grpc)
            );
        }
        out.push_str("</tbody></table></section>\n");
    }

    /// For each operation whose error was seen over more than one binding: the same
    /// error side by side, its ErrorInfo below when every binding sent the same one.
    pub fn push_compare(&self, out: &mut String) {
        out.push_str("<section id=\"compare\"><h2>The same error across bindings</h2>\n");
        let several: Vec<_> = (self.examples.iter())
            .filter(|(_, by)| by.len() > 1)
            .collect();
        if several.is_empty() {
            out.push_str(
                "<p class=\"clean\">No operation's error was seen over more than one binding.</p>\
                 </section>\n",
            );
            return;
        }
        // A few groups are shown open; many, collapsed.
        let open = match several.len() <= OPEN_COMPARISONS {
            true => " open",
            false => "",
        };
        for ((operation, error), by_binding) in several {
            let bindings: Vec<&str> = by_binding.keys().map(|(_, b)| *b).collect();
            let _ = write!(
                out,
                "<details class=\"compare\"{open}><summary>{} · {} \
                 <span class=\"same\">({})</span></summary>\n<table><thead><tr><th></th>",
                text(operation),
                text(error),
                text(&bindings.join(", "))
            );
            for (_, binding) in by_binding.keys() {
                let _ = write!(out, "<th>{}</th>", text(binding));
            }
            out.push_str("</tr></thead><tbody>\n");
            let cell = |f: &dyn Fn(&Example) -> String| -> String {
                by_binding
                    .values()
                    .map(|e| format!("<td>{}</td>", f(e)))
                    .collect()
            };
            let field = |e: &Example, f: &dyn Fn(&ErrorDetail) -> Option<String>| {
                text(
                    &e.detail
                        .as_ref()
                        .and_then(f)
                        .map_or("-".into(), |s| masked(&s)),
                )
            };
            let rows: [(&str, String); 5] = [
                (
                    "exchange",
                    cell(&|e| format!("<a href=\"#{}\">{}</a>", e.anchor, text(&e.place))),
                ),
                ("status", cell(&|e| text(&e.status))),
                (
                    "code",
                    cell(&|e| field(e, &|d| d.code.map(|c| c.to_string()))),
                ),
                ("error status", cell(&|e| field(e, &|d| d.status.clone()))),
                ("message", cell(&|e| field(e, &|d| d.message.clone()))),
            ];
            for (name, cells) in rows {
                let _ = writeln!(out, "<tr><th>{name}</th>{cells}</tr>");
            }
            let infos: Vec<Vec<String>> = (by_binding.values())
                .map(|e| {
                    e.detail
                        .as_ref()
                        .map(|d| d.infos.clone())
                        .unwrap_or_default()
                })
                .collect();
            let shared = infos.windows(2).all(|w| normal(&w[0]) == normal(&w[1]));
            let show = |infos: &[String]| match infos.is_empty() {
                true => "<i>none</i>".to_string(),
                false => (infos.iter())
                    .map(|i| format!("<code>{}</code>", text(&masked(i))))
                    .collect::<Vec<_>>()
                    .join("<br>"),
            };
            if shared {
                let _ = writeln!(
                    out,
                    "<tr class=\"shared\"><th>ErrorInfo</th><td colspan=\"{}\">{} \
                     <span class=\"same\">(the same in every binding)</span></td></tr>",
                    infos.len(),
                    show(&infos[0])
                );
            } else {
                let cells: String = infos
                    .iter()
                    .map(|i| format!("<td>{}</td>", show(i)))
                    .collect();
                let _ = writeln!(out, "<tr class=\"differs\"><th>ErrorInfo</th>{cells}</tr>");
            }
            out.push_str("</tbody></table></details>\n");
        }
        out.push_str("</section>\n");
    }

    /// The documentation of every rule that fired, for the findings' rule links.
    pub fn push_rule_docs(&self, out: &mut String) {
        out.push_str("<section id=\"rules\"><h2>Rules</h2>\n");
        for (slug, (rule, _)) in &self.by_rule {
            let _ = writeln!(
                out,
                "<details class=\"rule-doc\" id=\"{}\"><summary><code>{slug}</code> · {} · {}\
                 </summary><pre>{}</pre></details>",
                rule_anchor(slug),
                rule.default_severity().as_str(),
                prose(rule.summary()),
                text(rule.doc())
            );
        }
        out.push_str("</section>\n");
    }
}

/// ErrorInfo details as values, an empty `metadata` dropped: `{}` and no metadata say the
/// same, and bindings differ in which they send.
fn normal(infos: &[String]) -> Vec<serde_json::Value> {
    (infos.iter())
        .map(|info| {
            let mut value: serde_json::Value = serde_json::from_str(info).unwrap_or_default();
            if let Some(object) = value.as_object_mut() {
                if object
                    .get("metadata")
                    .is_some_and(|m| m == &serde_json::json!({}))
                {
                    object.remove("metadata");
                }
            }
            value
        })
        .collect()
}

fn plural(n: usize, word: &str) -> String {
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}

/// Where an example is: `path:line`, `path #entry` or `path f<frame>/s<stream>`.
fn example_place(row: &Row) -> String {
    let place = inspect::place_cell(row);
    match row.line {
        Some(_) => format!("{}:{place}", row.path),
        None => format!("{} {place}", row.path),
    }
}

fn severity_index(severity: Severity) -> usize {
    match severity {
        Severity::Error => 0,
        Severity::Warning => 1,
        Severity::Info => 2,
    }
}
