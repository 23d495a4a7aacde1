//! HAR reader and the HAR path of `lint_source`: never panic; the text written for the
//! entries reads back as HTTP with spans inside it.
#![no_main]

use a2alint::input::capture::{HarProblem, read_har, read_http};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let har = read_har(data);
    assert!(har.entry_starts.windows(2).all(|w| w[0] <= w[1]));
    assert!(har.entry_starts.iter().all(|&s| s <= har.wire.len()));
    for problem in &har.problems {
        match problem {
            HarProblem::NotHar { offset, .. } => assert!(*offset <= data.len()),
            HarProblem::BadBase64 { entry, .. } => assert!(*entry < har.entry_starts.len()),
        }
    }
    let capture = read_http(&har.wire);
    a2alint_fuzz::check_capture(&har.wire, &capture);
    a2alint_fuzz::lint_and_render(&["fuzz.har"], data, false, data.len().is_multiple_of(8));
});
