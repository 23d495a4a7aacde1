//! `grpc-status-mismatch`: an HTTP+JSON `error.status` or a gRPC call's `grpc-status`
//! that is not the profile's gRPC status for the reason, or (HTTP+JSON) that disagrees
//! with the HTTP status.

use crate::finding::Finding;
use crate::protocol::classify::{ErrorForm, ErrorView, ExchangeView};
use crate::protocol::table::table;
use crate::rules::{Hooks, Rule, RuleId};

pub struct GrpcStatusMismatch;

impl Rule for GrpcStatusMismatch {
    fn id(&self) -> RuleId {
        RuleId::GrpcStatusMismatch
    }

    fn hooks(&self) -> Hooks {
        Hooks::ERROR
    }

    fn check_error(
        &self,
        view: &ExchangeView<'_, '_>,
        error: &ErrorView<'_>,
        out: &mut Vec<Finding>,
    ) {
        let Some(response) = &view.response else {
            return;
        };
        let grpc = error.form == ErrorForm::Grpc;
        if error.form == ErrorForm::JsonRpc {
            return;
        }
        let Some(status) = error.status() else {
            if let (true, Some(grpc_status)) = (grpc, error.grpc) {
                let value = String::from_utf8_lossy(grpc_status.status.value);
                out.push(
                    Finding::new(
                        self.id(),
                        error.label("/error/code", "not a status code"),
                        format!("grpc-status \"{value}\" is not a gRPC status code (0 to 16)"),
                    )
                    .help("`grpc-status` is the decimal number of a google.rpc.Code (gRPC over HTTP/2; A2A §10.6)"),
                );
            }
            return;
        };
        // What the message calls the value: the member over HTTP+JSON, the field over gRPC.
        // Written only for a finding.
        let named = || match grpc {
            true => format!(
                "grpc-status is {} ({status})",
                error.code().unwrap_or_default()
            ),
            false => format!("error.status is {status}"),
        };
        let profile = view.profile;
        let label = |text: String| error.label("/error/status", text);
        let a2a = error.a2a_reason().map(|(_, a2a)| a2a);
        let finding = if let Some(a2a) = a2a {
            // An A2A reason decides the status through the profile's table (A2A §5.4).
            let expected = a2a.grpc(profile);
            if status == expected {
                return;
            }
            let other =
                profile.other_table_note(status, a2a.other_grpc(profile), expected, "value");
            Finding::new(
                self.id(),
                label(format!("expected {expected}")),
                format!(
                    "{} but {} maps to {expected} under {}{other}",
                    named(),
                    a2a.reason,
                    profile.table_name()
                ),
            )
        } else if grpc {
            // Over gRPC there is no status line to agree with.
            return;
        } else {
            // Otherwise the status must at least agree with the HTTP status line under the
            // google.rpc.Code canonical mapping that v1.0.1 §5.4 follows.
            // The profile's own table pairs are consistent by definition, even where spec
            // v1.0.0 departs from the canonical mapping (415 INVALID_ARGUMENT, say).
            let table_pair = table()
                .a2a
                .iter()
                .any(|e| e.grpc(profile) == status && e.http(profile) == error.http_status);
            match table().grpc_http(status) {
                None => Finding::new(
                    self.id(),
                    label("not a google.rpc.Code".into()),
                    format!("error.status \"{status}\" is not a google.rpc.Code name"),
                ),
                Some(http) if http == error.http_status || table_pair => return,
                Some(http) => Finding::new(
                    self.id(),
                    label(format!("maps to HTTP {http}")),
                    format!(
                        "error.status {status} maps to HTTP {http} but the response is HTTP {}",
                        error.http_status
                    ),
                )
                .related(if error.in_stream() {
                    error.label("/error/code", "error code")
                } else {
                    response.start_line_label("status line")
                }),
            }
        };
        out.push(finding.help(match grpc {
            true => "`grpc-status` is the code the profile's table gives the error's reason (A2A §5.4, §10.6)",
            false => "`error.status` is the google.rpc.Code name matching the error (AIP-193, A2A §11.6)",
        }));
    }
}
