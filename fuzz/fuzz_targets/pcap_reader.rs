//! pcap and pcapng reader, and the pcap path of `lint_source`: never panic; frames,
//! problems and the origins of every exchange's text lie inside the file, exact origins
//! are the file's bytes, and each text view reads back (HTTP/1.x with the `.http` reader,
//! HTTP/2 as its exchange) with spans inside it.
#![no_main]

use a2alint::input::capture::is_har;
use a2alint::input::capture::wire::{frame_offsets, is_pcap, read_pcap};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let frames = frame_offsets(data).len();
    let mut count = 0;
    let wire = read_pcap(data, &mut |exchange| {
        assert_eq!(exchange.index, count, "exchange indices run 0, 1, 2, ...");
        count += 1;
        a2alint_fuzz::check_wire_exchange(data, frames, &exchange);
    });
    a2alint_fuzz::check_wire(data, &wire);
    let color = data.last().is_some_and(|b| b & 1 == 1);
    let sarif = data.len().is_multiple_of(8);
    let reports = a2alint_fuzz::lint_and_render(&["fuzz.pcap"], data, color, sarif);
    // A file that starts with the pcapng magic ("\n\r\r\n", all whitespace) and then
    // `{` is taken for a HAR log, as the engine checks for HAR first.
    if is_pcap(data) && !is_har("fuzz.pcap", data) {
        assert_eq!(
            reports[0].wire,
            Some(wire.counts),
            "the engine read the same capture"
        );
    }
});
