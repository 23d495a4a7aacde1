//! Server-sent events parser: never panics; each event's data is its data lines joined,
//! and every span maps back inside the body.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let events = a2alint::input::capture::parse_events(data);
    a2alint_fuzz::check_events(data, &events);
});
