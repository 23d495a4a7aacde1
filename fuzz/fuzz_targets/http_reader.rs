//! `.http` capture reader: never panics, and every span it gives lies inside the input.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let capture = a2alint::input::capture::read_http(data);
    a2alint_fuzz::check_capture(data, &capture);
});
