//! Generates the pcap fixtures of `grpc-status-details-mismatch`, `grpc-status-missing`
//! and `unsupported-version-accepted`, and checks the committed files are those bytes.
//!
//! Each fixture is one HTTP/2 connection written by the gRPC test writer (fixed
//! addresses, ports, sequence numbers and timestamps, so the bytes never change). A
//! committed file that differs, or is missing, fails the test; with
//! `A2ALINT_WRITE_FIXTURES=1` the files are written instead:
//!
//! ```text
//! A2ALINT_WRITE_FIXTURES=1 cargo test --test fixture_gen_new_rules
//! ```
//!
//! Whether each one fires its rule is `tests/fixtures.rs`'s business.

#[allow(dead_code)]
#[path = "common/grpc/mod.rs"]
mod grpc;
#[allow(dead_code)]
#[path = "common/h2.rs"]
mod h2;
#[allow(dead_code)]
#[path = "common/pcap/mod.rs"]
mod pcap;

use a2a_pb::protojson::TaskState;
use grpc::*;

const WRITE_VAR: &str = "A2ALINT_WRITE_FIXTURES";

/// One fixture: `tests/fixtures/<rule>/<name>` and its bytes.
struct Fixture {
    rule: &'static str,
    name: &'static str,
    pcap: Vec<u8>,
}

fn on(rule: &'static str, name: &'static str, calls: Vec<GrpcCall>) -> Fixture {
    let pcap = GrpcConnection::new(calls).pcap();
    Fixture { rule, name, pcap }
}

/// GetTask for `t-1` answered as `response` says.
fn get_task_call(response: Response) -> GrpcCall {
    GrpcCall::a2a("GetTask", &get_task("t-1"), response)
}

/// The task GetTask finds.
fn working() -> Response {
    Response::unary(&task("t-1", "c-1", TaskState::Working))
}

/// NOT_FOUND with `grpc-message: Task not found` and this Status beside it.
fn not_found_with(details: &tonic_types::pb::Status) -> Response {
    let fields = GrpcStatus::new(code::NOT_FOUND, Some("Task not found")).with_details(details);
    Response::trailers_only(&fields)
}

/// The ErrorInfo of TaskNotFound (A2A §10.6).
fn task_not_found_info() -> prost_types::Any {
    a2a_error_info("TASK_NOT_FOUND", &[("taskId", "t-1")])
}

fn details_mismatch() -> Vec<Fixture> {
    let rule = "grpc-status-details-mismatch";
    let info = task_not_found_info;
    vec![
        on(
            rule,
            "bad-grpc-status-code-differs.pcap",
            vec![get_task_call(not_found_with(&status(
                code::INTERNAL,
                "Task not found",
                vec![info()],
            )))],
        ),
        on(
            rule,
            "bad-grpc-status-message-differs.pcap",
            vec![get_task_call(not_found_with(&status(
                code::NOT_FOUND,
                "No task t-1 in this context",
                vec![info()],
            )))],
        ),
        // Proto3 leaves a zero code out of the Status: it says OK beside grpc-status 5.
        on(
            rule,
            "bad-grpc-status-code-left-out.pcap",
            vec![get_task_call(not_found_with(&status(
                code::OK,
                "Task not found",
                vec![info()],
            )))],
        ),
        on(
            rule,
            "bad-grpc-message-field-missing.pcap",
            vec![get_task_call(Response::trailers_only(
                &GrpcStatus::new(code::NOT_FOUND, None).with_details(&status(
                    code::NOT_FOUND,
                    "Task not found",
                    vec![info()],
                )),
            ))],
        ),
        on(
            rule,
            "ok-grpc-status-repeats-the-fields.pcap",
            vec![get_task_call(Response::trailers_only(&task_not_found(
                "t-1",
            )))],
        ),
        // grpc-message is percent-encoded; the Status holds the text itself.
        on(
            rule,
            "ok-grpc-percent-encoded-message.pcap",
            vec![get_task_call(Response::trailers_only(&GrpcStatus::rich(
                code::NOT_FOUND,
                "Tâche introuvable : t-1 (100 % sûr)",
                vec![info()],
            )))],
        ),
        on(
            rule,
            "ok-grpc-error-without-details.pcap",
            vec![get_task_call(Response::trailers_only(&GrpcStatus::new(
                code::UNAVAILABLE,
                Some("restarting"),
            )))],
        ),
    ]
}

fn status_missing() -> Vec<Fixture> {
    let rule = "grpc-status-missing";
    let no_status_trailers = Response {
        end: End::Trailers(vec![field("x-request-id", "r-1")]),
        ..working()
    };
    // A proxy's own answer when the agent is down: HTTP 503, no gRPC status fields.
    let proxy_503 = Response::none(End::Trailers(vec![
        field(":status", "503"),
        field("content-type", "text/plain"),
    ]));
    let deadline = get_task_call(working().end(End::ServerReset(h2_code::CANCEL)))
        .metadata("grpc-timeout", "100m");
    vec![
        on(
            rule,
            "bad-grpc-server-reset-after-headers.pcap",
            vec![get_task_call(
                working().end(End::ServerReset(h2_code::INTERNAL_ERROR)),
            )],
        ),
        on(
            rule,
            "bad-grpc-ended-on-data.pcap",
            vec![get_task_call(working().end(End::DataEndStream))],
        ),
        on(
            rule,
            "bad-grpc-trailers-without-status.pcap",
            vec![get_task_call(no_status_trailers)],
        ),
        on(
            rule,
            "bad-grpc-proxy-503-without-status.pcap",
            vec![get_task_call(proxy_503)],
        ),
        // The GOAWAY keeps stream 1 (so it owes it an end) and refuses stream 3, which
        // it had started to answer all the same.
        on(
            rule,
            "bad-grpc-goaway-leaves-calls-open.pcap",
            vec![
                get_task_call(working().end(End::GoAway(h2_code::NO_ERROR))),
                get_task_call(working().end(End::Open)),
            ],
        ),
        Fixture {
            rule,
            name: "bad-grpc-server-closes-connection.pcap",
            pcap: closed_first_by(false, get_task_call(working().end(End::Open))),
        },
        on(
            rule,
            "ok-grpc-trailers-with-status.pcap",
            vec![get_task_call(working())],
        ),
        on(
            rule,
            "ok-grpc-trailers-only-error.pcap",
            vec![get_task_call(Response::trailers_only(&task_not_found(
                "t-1",
            )))],
        ),
        on(
            rule,
            "ok-grpc-client-cancels.pcap",
            vec![get_task_call(working().end(End::ClientCancel))],
        ),
        on(rule, "ok-grpc-deadline-expired.pcap", vec![deadline]),
        Fixture {
            rule,
            name: "ok-grpc-client-closes-connection.pcap",
            pcap: closed_first_by(true, get_task_call(working().end(End::Open))),
        },
        Fixture {
            rule,
            name: "ok-grpc-capture-ends-mid-response.pcap",
            pcap: {
                let mut connection =
                    GrpcConnection::new(vec![get_task_call(working().end(End::Open))]);
                connection.tcp_close = false;
                connection.pcap()
            },
        },
        // No response at all: `unpaired-message` reports the reset, not this rule.
        on(
            rule,
            "ok-grpc-server-reset-before-any-response.pcap",
            vec![get_task_call(Response::none(End::ServerReset(
                h2_code::INTERNAL_ERROR,
            )))],
        ),
    ]
}

/// `call` left open, then the TCP connection closed by the client or the server first.
fn closed_first_by(client: bool, call: GrpcCall) -> Vec<u8> {
    let mut connection = GrpcConnection::new(vec![call]);
    connection.tcp_close = false;
    let mut conversation = connection.conversation();
    conversation.fin(client);
    conversation.ack(!client);
    conversation.fin(!client);
    conversation.ack(client);
    pcap::write_capture(&conversation.packets(), &pcap::Options::default()).bytes
}

fn version_accepted() -> Vec<Fixture> {
    let rule = "unsupported-version-accepted";
    let version = |v: &str, response: Response| get_task_call(response).a2a_version(Some(v));
    let refused = GrpcStatus::rich(
        code::FAILED_PRECONDITION,
        "Version not supported",
        vec![a2a_error_info(
            "VERSION_NOT_SUPPORTED",
            &[("requestedVersion", "99.0")],
        )],
    );
    vec![
        // What a2a-python 1.3.0's gRPC binding does (samples/real/a2a-python/grpc).
        on(
            rule,
            "bad-grpc-version-99-answered.pcap",
            vec![version("99.0", working())],
        ),
        on(
            rule,
            "ok-grpc-version-99-rejected.pcap",
            vec![version("99.0", Response::trailers_only(&refused))],
        ),
        on(
            rule,
            "ok-grpc-version-1-0-answered.pcap",
            vec![version("1.0", working())],
        ),
    ]
}

fn all() -> Vec<Fixture> {
    let mut all = details_mismatch();
    all.extend(status_missing());
    all.extend(version_accepted());
    all
}

#[test]
fn committed_fixtures_are_the_generated_bytes() {
    let write = std::env::var_os(WRITE_VAR).is_some_and(|v| v == "1");
    let mut stale = Vec::new();
    for fixture in all() {
        let path = fixtures_dir(fixture.rule).join(fixture.name);
        if std::fs::read(&path).ok().as_deref() == Some(&fixture.pcap[..]) {
            continue;
        }
        if write {
            std::fs::write(&path, &fixture.pcap)
                .unwrap_or_else(|e| panic!("writing {}: {e}", path.display()));
        } else {
            stale.push(path.display().to_string());
        }
    }
    assert!(
        stale.is_empty(),
        "fixtures differ from the generator (write them with {WRITE_VAR}=1 cargo test --test \
         fixture_gen_new_rules):\n{}",
        stale.join("\n")
    );
}

#[test]
fn generation_is_deterministic() {
    for (first, second) in all().into_iter().zip(all()) {
        assert!(first.pcap == second.pcap, "{}/{}", first.rule, first.name);
    }
}

#[test]
fn every_pcap_of_these_rules_is_generated() {
    let listed: Vec<(&str, &str)> = all().iter().map(|f| (f.rule, f.name)).collect();
    for rule in [
        "grpc-status-details-mismatch",
        "grpc-status-missing",
        "unsupported-version-accepted",
    ] {
        for entry in std::fs::read_dir(fixtures_dir(rule)).unwrap() {
            let name = entry.unwrap().file_name().to_string_lossy().into_owned();
            assert!(
                !name.ends_with(".pcap") || listed.contains(&(rule, name.as_str())),
                "{rule}/{name} is made by no generator entry"
            );
        }
    }
}
