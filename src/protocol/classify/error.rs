//! The error view: one shape for a JSON-RPC error object (A2A §9.5), an HTTP+JSON
//! `google.rpc.Status` (A2A §11.6) and a gRPC status (A2A §10.6), with the details that
//! name the error.

use std::cell::OnceCell;
use std::sync::LazyLock;

use serde_json::{Map, Value};

use crate::input::source::Label;
use crate::protocol::classify::{DetailPointer, Doc, GrpcStatusView};
use crate::protocol::table::{A2aError, table};

/// Which wire form the error takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorForm {
    /// `{"jsonrpc":"2.0","id":..,"error":{"code","message","data"}}`
    JsonRpc,
    /// `{"error":{"code","status","message","details"}}`
    Status,
    /// `grpc-status`, `grpc-message` and the `google.rpc.Status` of
    /// `grpc-status-details-bin`, whose JSON is the document labels point into.
    Grpc,
}

/// The members of a gRPC error whose details did not come.
static NO_MEMBERS: LazyLock<Map<String, Value>> = LazyLock::new(Map::new);

/// An error object and what it says.
#[derive(Debug)]
pub struct ErrorView<'v> {
    pub form: ErrorForm,
    pub error: &'v Map<String, Value>,
    /// The HTTP status of the response that carried it.
    pub http_status: u16,
    /// `details` (Status) or `data` (JSON-RPC).
    pub details_member: &'static str,
    pub details: Vec<Detail<'v>>,
    /// The body or stream event the error is in, for labels.
    pub doc: Doc<'v>,
    /// For a gRPC error: the status fields it was read from.
    pub grpc: Option<&'v GrpcStatusView<'v>>,
    /// The ErrorInfo details, found on first asking: a dozen rules ask each error for
    /// them, and finding one looks up four members.
    infos: OnceCell<Vec<ErrorInfo<'v>>>,
}

/// One element of `details` / `data`.
#[derive(Debug)]
pub struct Detail<'v> {
    /// JSON pointer of the element in the body.
    pub pointer: DetailPointer,
    pub value: &'v Value,
    /// `@type`, when the element is an object that has one.
    pub type_url: Option<&'v str>,
}

/// A `google.rpc.ErrorInfo` detail.
#[derive(Clone, Copy, Debug)]
pub struct ErrorInfo<'v> {
    pub pointer: DetailPointer,
    pub reason: Option<&'v str>,
    pub domain: Option<&'v str>,
    pub metadata: Option<&'v Value>,
}

const ERROR_INFO: &str = "google.rpc.ErrorInfo";
const BAD_REQUEST: &str = "google.rpc.BadRequest";

impl<'v> Detail<'v> {
    fn is(&self, type_name: &str) -> bool {
        self.type_url
            .is_some_and(|t| t.rsplit('/').next() == Some(type_name))
    }

    /// An ErrorInfo: typed as one, or untyped but carrying a `reason` (clients that skip
    /// the `@type` check would still read it; `detail-missing-type` reports the type).
    fn error_info(&self) -> Option<ErrorInfo<'v>> {
        let object = self.value.as_object()?;
        let untyped_info =
            self.type_url.is_none() && object.get("reason").is_some_and(Value::is_string);
        if !(self.is(ERROR_INFO) || untyped_info) {
            return None;
        }
        Some(ErrorInfo {
            pointer: self.pointer,
            reason: object.get("reason").and_then(Value::as_str),
            domain: object.get("domain").and_then(Value::as_str),
            metadata: object.get("metadata"),
        })
    }
}

impl<'v> ErrorView<'v> {
    /// The `error` object of a document, when it has one: what makes it an error.
    pub(super) fn object_in(body: &Value) -> Option<&Map<String, Value>> {
        body.get("error")?.as_object()
    }

    /// Reads the error of a response body, when it has an `error` object.
    pub fn read(
        body: &'v Value,
        form: ErrorForm,
        http_status: u16,
        doc: Doc<'v>,
    ) -> Option<ErrorView<'v>> {
        let error = Self::object_in(body)?;
        let (details_member, parent) = match form {
            ErrorForm::JsonRpc => ("data", "/error/data"),
            ErrorForm::Status | ErrorForm::Grpc => ("details", "/error/details"),
        };
        let details = match error.get(details_member) {
            Some(Value::Array(items)) => items
                .iter()
                .enumerate()
                .map(|(i, value)| Detail {
                    pointer: DetailPointer::element(parent, i),
                    value,
                    type_url: value.get("@type").and_then(Value::as_str),
                })
                .collect(),
            // A single object where an array belongs (spec v1.0.0's own §9.5 example, and
            // 0.3 servers): still read it, so its ErrorInfo is not reported missing.
            Some(value @ Value::Object(object)) if object.contains_key("@type") => vec![Detail {
                pointer: DetailPointer::whole(parent),
                value,
                type_url: value.get("@type").and_then(Value::as_str),
            }],
            _ => Vec::new(),
        };
        Some(ErrorView {
            form,
            error,
            http_status,
            details_member,
            details,
            doc,
            grpc: None,
            infos: OnceCell::new(),
        })
    }

    /// The error of a gRPC response whose `grpc-status` is not 0 (OK). `doc` is the
    /// decoded Status of `grpc-status-details-bin`, whose `details` are read as the
    /// HTTP+JSON binding's are.
    pub fn read_grpc(
        status: &'v GrpcStatusView<'v>,
        http_status: u16,
        doc: Doc<'v>,
    ) -> Option<ErrorView<'v>> {
        if status.code == Some(0) {
            return None;
        }
        let error = (status.details_json.value())
            .and_then(Value::as_object)
            .unwrap_or(&NO_MEMBERS);
        let details = match error.get("details") {
            Some(Value::Array(items)) => (items.iter().enumerate())
                .map(|(i, value)| Detail {
                    pointer: DetailPointer::element("/details", i),
                    value,
                    type_url: value.get("@type").and_then(Value::as_str),
                })
                .collect(),
            _ => Vec::new(),
        };
        Some(ErrorView {
            form: ErrorForm::Grpc,
            error,
            http_status,
            details_member: "details",
            details,
            doc,
            grpc: Some(status),
            infos: OnceCell::new(),
        })
    }

    /// A label on the member at `pointer` of the error's document. Over gRPC the code
    /// and message are status fields and the rest is the decoded Status, so pointers
    /// written for the HTTP+JSON body (`/error/code`) land on the same thing there.
    pub fn label(&self, pointer: &str, text: impl Into<String>) -> Label {
        match self.grpc_target(pointer) {
            Ok(label) => label.retext(text),
            Err(pointer) => self.doc.label(pointer, text),
        }
    }

    pub fn key_label(&self, pointer: &str, text: impl Into<String>) -> Label {
        match self.grpc_target(pointer) {
            Ok(label) => label.retext(text),
            Err(pointer) => self.doc.key_label(pointer, text),
        }
    }

    pub fn opening_label(&self, pointer: &str, text: impl Into<String>) -> Label {
        match self.grpc_target(pointer) {
            Ok(label) => label.retext(text),
            Err(pointer) => self.doc.opening_label(pointer, text),
        }
    }

    /// Over gRPC: a label on the status field `pointer` stands for, or the pointer into
    /// the decoded Status. Otherwise the pointer as it is.
    fn grpc_target<'p>(&self, pointer: &'p str) -> Result<Label, &'p str> {
        let Some(grpc) = self.grpc else {
            return Err(pointer);
        };
        let field = |header: &crate::input::capture::Header<'_>| {
            Label::at(header.value_span, "").member(format!(
                "response/trailer/{}",
                header.name.to_ascii_lowercase()
            ))
        };
        match pointer {
            "/error/code" | "/error/status" => Ok(field(grpc.status)),
            "/error/message" => Ok(field(grpc.message.unwrap_or(grpc.status))),
            // Without a decoded Status there is nothing else to point at.
            _ if grpc.details_json.value().is_none() => {
                Ok(field(grpc.details.unwrap_or(grpc.status)))
            }
            _ => Err(pointer.strip_prefix("/error").unwrap_or(pointer)),
        }
    }

    /// Over gRPC: `grpc-status-details-bin` came but could not be read. What it holds is
    /// unknown (`undecodable-body` says why), so no rule may call a detail missing.
    pub fn details_unreadable(&self) -> bool {
        self.grpc
            .is_some_and(|g| g.details.is_some() && g.details_json.value().is_none())
    }

    /// Where the details are, in words for a message: `error.data`, `error.details`, or
    /// the Status of `grpc-status-details-bin`.
    pub fn details_place(&self) -> &'static str {
        match self.form {
            ErrorForm::JsonRpc => "`error.data`",
            ErrorForm::Status => "`error.details`",
            ErrorForm::Grpc => "`grpc-status-details-bin`",
        }
    }

    /// Is the error an event of a stream (answered 200 before it)?
    pub fn in_stream(&self) -> bool {
        self.doc.in_stream()
    }

    /// `error.code` as an integer; over gRPC, `grpc-status`.
    pub fn code(&self) -> Option<i64> {
        match self.grpc {
            Some(grpc) => grpc.code,
            None => self.error.get("code").and_then(Value::as_i64),
        }
    }

    /// `error.message`; over gRPC, `grpc-message` unescaped.
    pub fn message(&self) -> Option<&'v str> {
        match self.grpc {
            Some(grpc) => grpc.message_text.as_deref(),
            None => self.error.get("message").and_then(Value::as_str),
        }
    }

    /// `error.status`, the google.rpc.Code name of a Status; over gRPC, the name of
    /// `grpc-status`.
    pub fn status(&self) -> Option<&'v str> {
        match self.grpc {
            Some(grpc) => grpc.code_name(),
            None => self.error.get("status").and_then(Value::as_str),
        }
    }

    /// The ErrorInfo details, in order.
    pub fn infos(&self) -> impl Iterator<Item = ErrorInfo<'v>> + '_ {
        let infos = (self.infos)
            .get_or_init(|| self.details.iter().filter_map(Detail::error_info).collect());
        infos.iter().copied()
    }

    /// The first ErrorInfo's reason.
    pub fn reason(&self) -> Option<&'v str> {
        self.infos().find_map(|info| info.reason)
    }

    /// The first ErrorInfo whose reason names an A2A error, with that error.
    pub fn a2a_reason(&self) -> Option<(ErrorInfo<'v>, &'static A2aError)> {
        self.infos().find_map(|info| {
            info.reason
                .and_then(|r| table().a2a_by_reason(r))
                .map(|e| (info, e))
        })
    }

    pub fn bad_requests(&self) -> impl Iterator<Item = &Detail<'v>> {
        self.details.iter().filter(|d| d.is(BAD_REQUEST))
    }

    /// The A2A error this error names: by JSON-RPC code, else by ErrorInfo reason.
    pub fn a2a_error(&self) -> Option<&'static A2aError> {
        let by_code = (self.form == ErrorForm::JsonRpc)
            .then(|| self.code())
            .flatten()
            .and_then(|code| table().a2a.iter().find(|e| e.jsonrpc == code));
        by_code.or_else(|| self.reason().and_then(|r| table().a2a_by_reason(r)))
    }

    /// Is this an A2A-specific error (as the catalogue defines it)? A JSON-RPC code in
    /// -32001..=-32009; a Status whose `status` is NOT_FOUND or FAILED_PRECONDITION or whose
    /// HTTP status is 409, 415 or 502; or any error whose ErrorInfo names an A2A reason.
    pub fn is_a2a_error(&self) -> bool {
        let by_shape = match self.form {
            ErrorForm::JsonRpc => self.code().is_some_and(|c| (-32009..=-32001).contains(&c)),
            ErrorForm::Status => {
                matches!(self.status(), Some("NOT_FOUND" | "FAILED_PRECONDITION"))
                    || matches!(self.http_status, 409 | 415 | 502)
            }
            ErrorForm::Grpc => matches!(self.status(), Some("NOT_FOUND" | "FAILED_PRECONDITION")),
        };
        by_shape || self.a2a_error().is_some()
    }
}

/// The RFC 9457 problem-details members (`type`, `title`, `status`, `detail`) a body has at
/// its top level; a body with two or more and no `error` object is a problem document, the
/// v1.0.0-rc error format.
pub fn problem_members(body: &Value) -> Vec<&'static str> {
    let Some(object) = body.as_object().filter(|o| !o.contains_key("error")) else {
        return Vec::new();
    };
    let members: Vec<&'static str> = ["type", "title", "status", "detail"]
        .into_iter()
        .filter(|m| object.contains_key(*m))
        .collect();
    if members.len() >= 2 {
        members
    } else {
        Vec::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn doc() -> Doc<'static> {
        Doc::detached()
    }

    #[test]
    fn reads_a_status_with_error_info_and_bad_request() {
        let body = json!({"error": {"code": 400, "status": "INVALID_ARGUMENT", "message": "bad",
        "details": [
            {"@type": "type.googleapis.com/google.rpc.BadRequest", "fieldViolations": []},
            {"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "CONTENT_TYPE_NOT_SUPPORTED", "domain": "a2a-protocol.org"}
        ]}});
        let view = ErrorView::read(&body, ErrorForm::Status, 400, doc()).unwrap();
        assert_eq!(
            (view.code(), view.status(), view.message()),
            (Some(400), Some("INVALID_ARGUMENT"), Some("bad"))
        );
        let infos: Vec<ErrorInfo<'_>> = view.infos().collect();
        assert_eq!(infos.len(), 1);
        assert_eq!(infos[0].pointer.to_string(), "/error/details/1");
        assert_eq!(view.bad_requests().count(), 1);
        assert_eq!(view.a2a_error().unwrap().jsonrpc, -32005);
        assert!(view.is_a2a_error());
    }

    #[test]
    fn json_rpc_codes_decide_a2a_errors() {
        let a2a = json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32002, "message": "x"}});
        let view = ErrorView::read(&a2a, ErrorForm::JsonRpc, 200, doc()).unwrap();
        assert!(view.is_a2a_error());
        assert_eq!(view.a2a_error().unwrap().reason, "TASK_NOT_CANCELABLE");
        let standard =
            json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32602, "message": "x"}});
        assert!(
            !ErrorView::read(&standard, ErrorForm::JsonRpc, 200, doc())
                .unwrap()
                .is_a2a_error()
        );
        assert!(ErrorView::read(&json!({"result": {}}), ErrorForm::JsonRpc, 200, doc()).is_none());
    }
}
