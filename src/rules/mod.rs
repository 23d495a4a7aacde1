//! The third pipeline stage: rules read the capture and its views and report findings.
//! Each rule is a stateless unit in its own file; `id.rs` lists them all once.

mod auth_challenge_missing;
mod bad_request_detail_missing;
pub mod binding_divergence;
mod body_not_json;
mod capture_incomplete;
mod capture_syntax;
mod card_cache_headers;
pub mod card_contradicted;
mod card_not_modified_ignored;
mod card_shape;
mod content_length_mismatch;
mod content_type_error_misuse;
mod detail_missing_type;
mod duplicate_error_info;
mod empty_parts_accepted;
mod error_body_not_json;
mod error_content_type;
mod error_info_domain;
mod error_info_metadata;
mod error_info_missing;
mod error_info_reason;
mod field_violation_path;
mod grpc_status_details_mismatch;
mod grpc_status_mismatch;
mod grpc_status_missing;
mod http_status_mismatch;
mod invalid_request_code;
mod jsonrpc_envelope;
mod jsonrpc_error_http_status;
mod jsonrpc_id_mismatch;
mod jsonrpc_standard_message;
mod jsonrpc_unknown_code;
mod legacy_jsonrpc_method;
mod legacy_protocol;
mod message_text_mismatch;
mod missing_message_id_accepted;
mod problem_json_error;
mod reason_code_mismatch;
mod request_content_type;
mod rest_code_mismatch;
mod rest_error_shape;
mod retry_new_message_id;
mod secret_in_capture;
mod stream_closed_early;
mod stream_event_not_json;
mod stream_event_order;
mod stream_event_shape;
mod success_content_type;
mod task_existence_leak;
mod undecodable_body;
mod unpaired_message;
mod unsupported_operation_ambiguous;
pub mod unsupported_version_accepted;
mod version_header_missing;

pub use crate::finding::rule_id::{Group, RuleId};

use crate::finding::Finding;
use crate::input::capture::ReadProblem;
use crate::protocol::classify::{ErrorView, ExchangeView, Generation};

/// A check. Rules are stateless and shared across threads; a rule reports findings of
/// its own id only. Override whichever hook fits: the problems the reader met in the
/// bytes, one exchange at a time, an exchange with all its errors, or each error.
pub trait Rule: Sync {
    fn id(&self) -> RuleId;

    /// The hooks this rule overrides: the engine calls only those (calling every rule's
    /// empty hooks for every exchange cost more than a hundredth of a run). In debug
    /// builds the engine calls the others too and asserts they find nothing, so a hook
    /// left out here fails the rule's fixtures.
    fn hooks(&self) -> Hooks;

    fn check_problems(&self, _problems: &[ReadProblem], _out: &mut Vec<Finding>) {}

    fn check_exchange(&self, _view: &ExchangeView<'_, '_>, _out: &mut Vec<Finding>) {}

    /// Called once per exchange with every error its response carries (none, often), for
    /// rules that weigh the exchange and its errors together.
    fn check_errors(
        &self,
        _view: &ExchangeView<'_, '_>,
        _errors: &[ErrorView<'_>],
        _out: &mut Vec<Finding>,
    ) {
    }

    /// Called for every error the exchange's response carries, in the body or in stream
    /// events (the engine reads them once per exchange).
    fn check_error(
        &self,
        _view: &ExchangeView<'_, '_>,
        _error: &ErrorView<'_>,
        _out: &mut Vec<Finding>,
    ) {
    }
}

/// A set of [`Rule`] hooks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hooks(u8);

impl Hooks {
    pub const PROBLEMS: Hooks = Hooks(1);
    pub const EXCHANGE: Hooks = Hooks(2);
    pub const ERRORS: Hooks = Hooks(4);
    pub const ERROR: Hooks = Hooks(8);

    /// Both sets.
    pub const fn and(self, other: Hooks) -> Hooks {
        Hooks(self.0 | other.0)
    }

    /// Does this set hold every hook of `other`?
    pub const fn has(self, other: Hooks) -> bool {
        self.0 & other.0 == other.0
    }
}

/// Runs the per-exchange hooks of the `enabled` rules (with the hooks each overrides) on
/// `view` and its `errors`, rule after rule in catalogue order. Rules that hold only for
/// 1.0 are skipped for an exchange shaped as 0.3.
pub fn check_exchange(
    enabled: &[(&'static dyn Rule, Hooks)],
    view: &ExchangeView<'_, '_>,
    errors: &[ErrorView<'_>],
    out: &mut Vec<Finding>,
) {
    let legacy = view.generation == Generation::V0_3;
    for &(rule, hooks) in enabled
        .iter()
        .filter(|(r, _)| !(legacy && r.id().only_for_1_0()))
    {
        call(rule, hooks, Hooks::EXCHANGE, out, |out| {
            rule.check_exchange(view, out);
        });
        call(rule, hooks, Hooks::ERRORS, out, |out| {
            rule.check_errors(view, errors, out);
        });
        for error in errors {
            call(rule, hooks, Hooks::ERROR, out, |out| {
                rule.check_error(view, error, out);
            });
        }
    }
}

/// Calls `rule`'s `hook` when the rule overrides it (`hooks`). A debug build calls the
/// others too, and asserts they find nothing: a rule that left out a hook it overrides
/// fails its fixtures.
pub fn call(
    rule: &dyn Rule,
    hooks: Hooks,
    hook: Hooks,
    out: &mut Vec<Finding>,
    check: impl FnOnce(&mut Vec<Finding>),
) {
    if hooks.has(hook) {
        check(out);
    } else if cfg!(debug_assertions) {
        let before = out.len();
        check(out);
        assert_eq!(
            out.len(),
            before,
            "{}: a hook its `hooks` leaves out found something",
            rule.id()
        );
    }
}

/// Every rule's implementation, in catalogue order. `unused-suppression` is not here: the
/// engine reports it (`suppress.rs`), since only the engine knows what was silenced; nor
/// are the run-level `binding-divergence` (`binding_divergence::check_run`) and
/// `card-contradicted` (`card_contradicted::check_run`), which the engine runs over the
/// whole run (`lint::Run`, through [`crate::finding::run_level`]).
pub fn all() -> &'static [&'static dyn Rule] {
    &[
        &capture_syntax::CaptureSyntax,
        &content_length_mismatch::ContentLengthMismatch,
        &unpaired_message::UnpairedMessage,
        &body_not_json::BodyNotJson,
        &undecodable_body::UndecodableBody,
        &capture_incomplete::CaptureIncomplete,
        &jsonrpc_envelope::JsonrpcEnvelope,
        &jsonrpc_id_mismatch::JsonrpcIdMismatch,
        &jsonrpc_error_http_status::JsonrpcErrorHttpStatus,
        &jsonrpc_unknown_code::JsonrpcUnknownCode,
        &invalid_request_code::InvalidRequestCode,
        &legacy_jsonrpc_method::LegacyJsonrpcMethod,
        &error_info_missing::ErrorInfoMissing,
        &error_info_domain::ErrorInfoDomain,
        &error_info_reason::ErrorInfoReason,
        &reason_code_mismatch::ReasonCodeMismatch,
        &http_status_mismatch::HttpStatusMismatch,
        &grpc_status_mismatch::GrpcStatusMismatch,
        &detail_missing_type::DetailMissingType,
        &error_info_metadata::ErrorInfoMetadata,
        &duplicate_error_info::DuplicateErrorInfo,
        &bad_request_detail_missing::BadRequestDetailMissing,
        &field_violation_path::FieldViolationPath,
        &rest_error_shape::RestErrorShape,
        &rest_code_mismatch::RestCodeMismatch,
        &problem_json_error::ProblemJsonError,
        &error_body_not_json::ErrorBodyNotJson,
        &error_content_type::ErrorContentType,
        &request_content_type::RequestContentType,
        &success_content_type::SuccessContentType,
        &message_text_mismatch::MessageTextMismatch,
        &jsonrpc_standard_message::JsonrpcStandardMessage,
        &unsupported_operation_ambiguous::UnsupportedOperationAmbiguous,
        &content_type_error_misuse::ContentTypeErrorMisuse,
        &grpc_status_details_mismatch::GrpcStatusDetailsMismatch,
        &grpc_status_missing::GrpcStatusMissing,
        &stream_event_not_json::StreamEventNotJson,
        &stream_event_shape::StreamEventShape,
        &stream_event_order::StreamEventOrder,
        &stream_closed_early::StreamClosedEarly,
        &secret_in_capture::SecretInCapture,
        &task_existence_leak::TaskExistenceLeak,
        &auth_challenge_missing::AuthChallengeMissing,
        &version_header_missing::VersionHeaderMissing,
        &unsupported_version_accepted::UnsupportedVersionAccepted,
        &missing_message_id_accepted::MissingMessageIdAccepted,
        &empty_parts_accepted::EmptyPartsAccepted,
        &retry_new_message_id::RetryNewMessageId,
        &legacy_protocol::LegacyProtocol,
        &card_cache_headers::CardCacheHeaders,
        &card_not_modified_ignored::CardNotModifiedIgnored,
        &card_shape::CardShape,
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_id_has_exactly_one_implementation() {
        let implemented: Vec<RuleId> = all().iter().map(|rule| rule.id()).collect();
        // `unused-suppression` is reported by the engine, which alone knows what was
        // silenced; `binding-divergence` and `card-contradicted` run once over the run.
        let run_level = [
            RuleId::UnusedSuppression,
            RuleId::BindingDivergence,
            RuleId::CardContradicted,
        ];
        let expected: Vec<RuleId> = RuleId::ALL
            .iter()
            .copied()
            .filter(|r| !run_level.contains(r))
            .collect();
        assert_eq!(implemented, expected);
    }
}
