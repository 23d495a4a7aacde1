//! `legacy-jsonrpc-method`: an A2A 0.3 method name in traffic that declares A2A 1.x.

use crate::finding::Finding;
use crate::input::source::Label;
use crate::protocol::classify::{Binding, ExchangeView, MethodName, method_name};
use crate::rules::{Hooks, Rule, RuleId};

pub struct LegacyJsonrpcMethod;

impl Rule for LegacyJsonrpcMethod {
    fn id(&self) -> RuleId {
        RuleId::LegacyJsonrpcMethod
    }

    fn hooks(&self) -> Hooks {
        Hooks::EXCHANGE
    }

    fn check_exchange(&self, view: &ExchangeView<'_, '_>, out: &mut Vec<Finding>) {
        let (Binding::JsonRpc, Some(rpc), Some(request)) =
            (view.binding, view.rpc(), &view.request)
        else {
            return;
        };
        let Some(method) = rpc.method else {
            return;
        };
        let MethodName::Legacy(operation) = method_name(method) else {
            return;
        };
        let Some((version, version_span)) =
            view.declared_version().filter(|(v, _)| v.starts_with("1."))
        else {
            return;
        };
        out.push(
            Finding::new(
                self.id(),
                request.label("/method", format!("1.0 name: {}", operation.method_name())),
                format!(
                    "method `{method}` is the A2A 0.3 name, but the request declares A2A-Version {version}; in 1.0 it is `{}`",
                    operation.method_name()
                ),
            )
            .related(Label::at(version_span, "declares 1.x"))
            .help("A2A 1.0 JSON-RPC methods are PascalCase and match the gRPC names (A2A §9.1); a 1.0 server answers 0.3 names with -32601"),
        );
    }
}
