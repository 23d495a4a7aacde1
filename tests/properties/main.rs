//! Property tests of the capture readers. Generated exchanges written out with random
//! framing (CRLF or LF, Content-Length, chunked or delimited bodies, gzip, `###`
//! separators, comments, exact back-to-back wire bytes) read back to the same exchanges,
//! with spans that slice the file to the text written; and no bytes at all make the
//! readers or the linter panic.
//!
//! 64 cases per property by default; `PROPTEST_CASES=10000 cargo test --test properties`
//! runs more.

use std::io::Write;

use a2alint::input::capture::read_http;
use a2alint::{Options, lint_source};
use proptest::prelude::*;
use proptest::test_runner::Config;

mod damage;
mod generate;
mod read_back;
mod write;

use damage::*;
use generate::*;
use read_back::*;
use write::*;

fn config() -> Config {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(64);
    Config {
        cases,
        ..Config::default()
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn written_exchanges_read_back_the_same(spec in capture_spec()) {
        let (src, expected) = write_capture(&spec);
        let capture = read_http(&src);
        check_capture(&src, &capture, &expected)?;
        // The capture lints, and is read the same way while linting.
        let report = lint_source("generated.http", &src, &Options::default());
        prop_assert_eq!(report.exchanges, expected.len());
        prop_assert!(
            report.diagnostics.iter().all(|d| d.rule.slug() != "capture-syntax"),
            "{:?}", report.diagnostics
        );
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..2048)) {
        no_panic_anywhere(&bytes)?;
    }

    #[test]
    fn damaged_captures_never_panic(
        spec in capture_spec(),
        edits in prop::collection::vec(edit(), 1..8),
    ) {
        let (mut src, _) = write_capture(&spec);
        let mut har = har_of(&src, &read_http(&src));
        for edit in &edits {
            apply(&mut src, edit);
            apply(&mut har, edit);
        }
        no_panic_anywhere(&src)?;
        no_panic_anywhere(&har)?;
    }
}
