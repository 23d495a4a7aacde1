//! The whole pipeline on arbitrary bytes, as a `.http` file and as a `.har` file, rendered
//! in every report format (SARIF, the slow one, for one input in eight).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let color = data.first().is_some_and(|b| b & 1 == 1);
    let sarif = data.len().is_multiple_of(8);
    a2alint_fuzz::lint_and_render(&["fuzz.http", "fuzz.har"], data, color, sarif);
});
