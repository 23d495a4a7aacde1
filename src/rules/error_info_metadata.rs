//! `error-info-metadata`: ErrorInfo `metadata` that is not a map of strings to strings.

use serde_json::Value;

use crate::finding::Finding;
use crate::protocol::classify::{ErrorView, ExchangeView, kind_of};
use crate::rules::{Hooks, Rule, RuleId};

pub struct ErrorInfoMetadata;

const HELP: &str = "ErrorInfo.metadata is a proto map<string, string>: put structured data in its own \
                    typed detail (google.rpc.BadRequest for field errors) or encode it as a string";

impl Rule for ErrorInfoMetadata {
    fn id(&self) -> RuleId {
        RuleId::ErrorInfoMetadata
    }

    fn hooks(&self) -> Hooks {
        Hooks::ERROR
    }

    fn check_error(
        &self,
        _view: &ExchangeView<'_, '_>,
        error: &ErrorView<'_>,
        out: &mut Vec<Finding>,
    ) {
        for info in error.infos() {
            // ProtoJSON reads null as an empty map.
            let Some(metadata) = info.metadata.filter(|m| !m.is_null()) else {
                continue;
            };
            // Written only for a finding: most metadata holds strings only.
            let pointer = || format!("{}/metadata", info.pointer);
            let finding = match metadata {
                Value::Object(map) => {
                    let mut bad = map.iter().filter(|(_, v)| !v.is_string());
                    let Some((key, value)) = bad.next() else {
                        continue;
                    };
                    let more = bad.count();
                    let others = if more > 0 {
                        format!(" (and {more} more)")
                    } else {
                        String::new()
                    };
                    Finding::new(
                        self.id(),
                        error.label(
                            &format!(
                                "{}/{}",
                                pointer(),
                                key.replace('~', "~0").replace('/', "~1")
                            ),
                            "not a string",
                        ),
                        format!(
                            "ErrorInfo.metadata.{key} is {}, not a string{others}",
                            kind_of(value)
                        ),
                    )
                }
                other => Finding::new(
                    self.id(),
                    error.label(&pointer(), "not an object"),
                    format!(
                        "ErrorInfo.metadata is {}, not an object of strings",
                        kind_of(other)
                    ),
                ),
            };
            out.push(finding.help(HELP));
        }
    }
}
