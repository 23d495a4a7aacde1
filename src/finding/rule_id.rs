//! The one list of rules: each rule's id, slug, group, default severity and embedded doc.

use crate::finding::Severity;

/// The family a rule belongs to, as in the rule catalogue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Group {
    Capture,
    Jsonrpc,
    Error,
    Rest,
    Message,
    Grpc,
    Stream,
    Security,
    Protocol,
    Card,
    Suppression,
}

impl Group {
    pub fn as_str(self) -> &'static str {
        match self {
            Group::Capture => "capture",
            Group::Jsonrpc => "jsonrpc",
            Group::Error => "error",
            Group::Rest => "rest",
            Group::Message => "message",
            Group::Grpc => "grpc",
            Group::Stream => "stream",
            Group::Security => "security",
            Group::Protocol => "protocol",
            Group::Card => "card",
            Group::Suppression => "suppression",
        }
    }
}

/// Declares every rule once. Each row gives the variant, its kebab-case slug (stable:
/// users write it in config and suppressions), its group and its default severity. The
/// doc `rules/<slug>.md` is embedded, so a rule without a doc does not compile.
macro_rules! declare_rules {
    ($($variant:ident => $slug:literal, $group:ident, $severity:ident;)+) => {
        /// A rule's stable identity.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum RuleId {
            $($variant,)+
        }

        impl RuleId {
            /// Every rule, in catalogue order.
            pub const ALL: &'static [RuleId] = &[$(RuleId::$variant,)+];

            pub fn slug(self) -> &'static str {
                match self {
                    $(RuleId::$variant => $slug,)+
                }
            }

            pub fn group(self) -> Group {
                match self {
                    $(RuleId::$variant => Group::$group,)+
                }
            }

            pub fn default_severity(self) -> Severity {
                match self {
                    $(RuleId::$variant => Severity::$severity,)+
                }
            }

            /// The rule's documentation, `rules/<slug>.md`.
            pub fn doc(self) -> &'static str {
                match self {
                    $(RuleId::$variant => include_str!(concat!(
                        env!("CARGO_MANIFEST_DIR"), "/rules/", $slug, ".md"
                    )),)+
                }
            }

            /// Position in [`RuleId::ALL`].
            pub fn index(self) -> usize {
                self as usize
            }

            pub fn from_slug(slug: &str) -> Option<RuleId> {
                RuleId::ALL.iter().copied().find(|id| id.slug() == slug)
            }
        }
    };
}

declare_rules! {
    CaptureSyntax => "capture-syntax", Capture, Error;
    ContentLengthMismatch => "content-length-mismatch", Capture, Warning;
    UnpairedMessage => "unpaired-message", Capture, Warning;
    BodyNotJson => "body-not-json", Capture, Error;
    UndecodableBody => "undecodable-body", Capture, Warning;
    CaptureIncomplete => "capture-incomplete", Capture, Warning;
    JsonrpcEnvelope => "jsonrpc-envelope", Jsonrpc, Error;
    JsonrpcIdMismatch => "jsonrpc-id-mismatch", Jsonrpc, Error;
    JsonrpcErrorHttpStatus => "jsonrpc-error-http-status", Jsonrpc, Warning;
    JsonrpcUnknownCode => "jsonrpc-unknown-code", Jsonrpc, Warning;
    InvalidRequestCode => "invalid-request-code", Jsonrpc, Warning;
    LegacyJsonrpcMethod => "legacy-jsonrpc-method", Jsonrpc, Warning;
    ErrorInfoMissing => "error-info-missing", Error, Error;
    ErrorInfoDomain => "error-info-domain", Error, Error;
    ErrorInfoReason => "error-info-reason", Error, Error;
    ReasonCodeMismatch => "reason-code-mismatch", Error, Error;
    HttpStatusMismatch => "http-status-mismatch", Error, Error;
    GrpcStatusMismatch => "grpc-status-mismatch", Error, Error;
    DetailMissingType => "detail-missing-type", Error, Error;
    ErrorInfoMetadata => "error-info-metadata", Error, Warning;
    DuplicateErrorInfo => "duplicate-error-info", Error, Warning;
    BadRequestDetailMissing => "bad-request-detail-missing", Error, Info;
    FieldViolationPath => "field-violation-path", Error, Info;
    RestErrorShape => "rest-error-shape", Rest, Error;
    RestCodeMismatch => "rest-code-mismatch", Rest, Error;
    ProblemJsonError => "problem-json-error", Rest, Error;
    ErrorBodyNotJson => "error-body-not-json", Rest, Warning;
    ErrorContentType => "error-content-type", Rest, Info;
    RequestContentType => "request-content-type", Rest, Warning;
    SuccessContentType => "success-content-type", Rest, Warning;
    MessageTextMismatch => "message-text-mismatch", Message, Warning;
    JsonrpcStandardMessage => "jsonrpc-standard-message", Message, Info;
    UnsupportedOperationAmbiguous => "unsupported-operation-ambiguous", Message, Info;
    ContentTypeErrorMisuse => "content-type-error-misuse", Message, Warning;
    GrpcStatusDetailsMismatch => "grpc-status-details-mismatch", Grpc, Error;
    GrpcStatusMissing => "grpc-status-missing", Grpc, Error;
    StreamEventNotJson => "stream-event-not-json", Stream, Error;
    StreamEventShape => "stream-event-shape", Stream, Warning;
    StreamEventOrder => "stream-event-order", Stream, Warning;
    StreamClosedEarly => "stream-closed-early", Stream, Warning;
    SecretInCapture => "secret-in-capture", Security, Error;
    TaskExistenceLeak => "task-existence-leak", Security, Warning;
    AuthChallengeMissing => "auth-challenge-missing", Security, Warning;
    VersionHeaderMissing => "version-header-missing", Protocol, Warning;
    UnsupportedVersionAccepted => "unsupported-version-accepted", Protocol, Warning;
    MissingMessageIdAccepted => "missing-message-id-accepted", Protocol, Error;
    EmptyPartsAccepted => "empty-parts-accepted", Protocol, Error;
    RetryNewMessageId => "retry-new-message-id", Protocol, Warning;
    BindingDivergence => "binding-divergence", Protocol, Warning;
    LegacyProtocol => "legacy-protocol", Protocol, Info;
    CardCacheHeaders => "card-cache-headers", Card, Info;
    CardNotModifiedIgnored => "card-not-modified-ignored", Card, Warning;
    CardShape => "card-shape", Card, Error;
    CardContradicted => "card-contradicted", Card, Error;
    UnusedSuppression => "unused-suppression", Suppression, Info;
}

impl RuleId {
    /// Rules that hold only for A2A 1.0 traffic: they are skipped for exchanges shaped as
    /// 0.3, which had no ErrorInfo, no google.rpc.Status bodies and other message texts.
    pub fn only_for_1_0(self) -> bool {
        use RuleId::*;
        matches!(
            self,
            ErrorInfoMissing
                | ErrorInfoDomain
                | ErrorInfoReason
                | ReasonCodeMismatch
                | HttpStatusMismatch
                | GrpcStatusMismatch
                | DetailMissingType
                | ErrorInfoMetadata
                | DuplicateErrorInfo
                | BadRequestDetailMissing
                | FieldViolationPath
                | RestErrorShape
                | RestCodeMismatch
                | ErrorContentType
                | JsonrpcStandardMessage
                | UnsupportedOperationAmbiguous
                | ContentTypeErrorMisuse
                | StreamEventShape
        )
    }

    /// The first line under the doc's "What it checks" heading: the one-line summary
    /// shown by `a2alint rules`.
    pub fn summary(self) -> &'static str {
        let doc = self.doc();
        let body = doc
            .split_once("## What it checks")
            .map_or(doc, |(_, rest)| rest)
            .trim_start();
        let paragraph = body.split("\n\n").next().unwrap_or("");
        paragraph.lines().next().unwrap_or("").trim()
    }
}

impl std::fmt::Display for RuleId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.slug())
    }
}
