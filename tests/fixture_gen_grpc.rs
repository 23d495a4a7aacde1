//! Generates the gRPC pcap fixtures of the existing rules and checks the committed files match.
//!
//! Each [`Fixture`] names a rule directory under `tests/fixtures/`, a file name and the
//! calls of one HTTP/2 connection; the lists live in `tests/fixture_gen_grpc/`, one module
//! per group of rules. The test builds every pcap in memory (fixed addresses, ports and
//! timestamps, so the bytes never change) and fails when a committed file differs or is
//! missing. With `A2ALINT_WRITE_FIXTURES=1` it writes the files instead:
//!
//! ```text
//! A2ALINT_WRITE_FIXTURES=1 cargo test --test fixture_gen_grpc
//! ```
//!
//! Whether each fixture fires its rule is `tests/fixtures.rs`'s business.

#[allow(dead_code)]
#[path = "common/grpc/mod.rs"]
mod grpc;
#[allow(dead_code)]
#[path = "common/h2.rs"]
mod h2;
#[allow(dead_code)]
#[path = "common/pcap/mod.rs"]
mod pcap;

#[path = "fixture_gen_grpc/calls.rs"]
mod calls;
#[path = "fixture_gen_grpc/errors.rs"]
mod errors;
#[path = "fixture_gen_grpc/status.rs"]
mod status;
#[path = "fixture_gen_grpc/validation.rs"]
mod validation;

use std::collections::BTreeSet;
use std::path::PathBuf;

use grpc::{GrpcCall, GrpcConnection, fixtures_dir};

/// The environment variable that makes the test write the fixtures.
const WRITE_VAR: &str = "A2ALINT_WRITE_FIXTURES";

/// Profiles a fixture may name after `-under-` (see `profile_in_name` in tests/common).
const PROFILES: [&str; 3] = ["spec", "spec-1.0.0", "tck"];

/// One fixture file: `tests/fixtures/<rule>/<name>`, holding `connection` as a pcap.
pub struct Fixture {
    pub rule: &'static str,
    pub name: &'static str,
    pub connection: GrpcConnection,
}

/// A fixture of these calls on one plain connection.
pub fn fixture(rule: &'static str, name: &'static str, calls: Vec<GrpcCall>) -> Fixture {
    Fixture {
        rule,
        name,
        connection: GrpcConnection::new(calls),
    }
}

impl Fixture {
    /// Both SETTINGS frames allow true binary metadata (0xfe03 = 1).
    pub fn true_binary(mut self) -> Self {
        self.connection = self.connection.true_binary();
        self
    }

    fn path(&self) -> PathBuf {
        fixtures_dir(self.rule).join(self.name)
    }
}

/// `GetTask` for task `t-1`, answered with `response`: the call most fixtures make.
pub fn get_task_call(response: grpc::Response) -> GrpcCall {
    GrpcCall::a2a("GetTask", &grpc::get_task("t-1"), response)
}

/// Every gRPC fixture of the existing rules.
fn all() -> Vec<Fixture> {
    let mut all = errors::fixtures();
    all.extend(status::fixtures());
    all.extend(calls::fixtures());
    all.extend(validation::fixtures());
    all
}

#[test]
fn committed_grpc_fixtures_match_the_generator() {
    let write = std::env::var_os(WRITE_VAR).is_some_and(|v| v == "1");
    let mut differ = Vec::new();
    for fixture in all() {
        let bytes = fixture.connection.pcap();
        let path = fixture.path();
        let committed = std::fs::read(&path).ok();
        if committed.as_deref() == Some(&bytes[..]) {
            continue;
        }
        if write {
            std::fs::write(&path, &bytes)
                .unwrap_or_else(|e| panic!("writing {}: {e}", path.display()));
        } else {
            let what = if committed.is_some() {
                "differs"
            } else {
                "missing"
            };
            differ.push(format!("{}: {what}", path.display()));
        }
    }
    assert!(
        differ.is_empty(),
        "gRPC fixtures out of date (regenerate with {WRITE_VAR}=1 cargo test --test fixture_gen_grpc):\n{}",
        differ.join("\n")
    );
}

#[test]
fn fixture_names_are_unique_and_well_formed() {
    let mut seen = BTreeSet::new();
    for fixture in all() {
        let name = fixture.name;
        assert!(
            name.starts_with("bad-grpc-") || name.starts_with("ok-grpc-"),
            "{name}: a gRPC fixture is named bad-grpc-* or ok-grpc-*"
        );
        let stem = name
            .strip_suffix(".pcap")
            .unwrap_or_else(|| panic!("{name}: not a .pcap"));
        if let Some((_, profile)) = stem.rsplit_once("-under-") {
            assert!(PROFILES.contains(&profile), "{name}: unknown profile");
        }
        assert!(
            fixtures_dir(fixture.rule).is_dir(),
            "{}: no such rule directory",
            fixture.rule
        );
        assert!(
            seen.insert((fixture.rule, name)),
            "{}/{name} is listed twice",
            fixture.rule
        );
    }
}

#[test]
fn every_grpc_fixture_file_is_generated() {
    let listed: BTreeSet<PathBuf> = all().iter().map(Fixture::path).collect();
    let dirs: BTreeSet<&str> = all().iter().map(|f| f.rule).collect();
    let mut unlisted = Vec::new();
    for rule in dirs {
        for entry in std::fs::read_dir(fixtures_dir(rule)).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let ours = name.starts_with("bad-grpc-") || name.starts_with("ok-grpc-");
            if ours && name.ends_with(".pcap") && !listed.contains(&path) {
                unlisted.push(path.display().to_string());
            }
        }
    }
    assert!(
        unlisted.is_empty(),
        "gRPC fixtures no generator entry makes (remove them or list them):\n{}",
        unlisted.join("\n")
    );
}

#[test]
fn generation_is_deterministic() {
    for (first, second) in all().iter().zip(all().iter()) {
        assert!(
            first.connection.pcap() == second.connection.pcap(),
            "{}/{} differs between two runs",
            first.rule,
            first.name
        );
    }
}
