//! Tests of the test-support capture writer (`tests/common/pcap/`): whatever it writes is
//! read back with pcap-parser, its link headers decoded by hand, and its IP / TCP / UDP
//! headers (and checksums) checked with etherparse.

#[allow(dead_code)]
#[path = "common/pcap/mod.rs"]
mod pcap;

// A crate root's `mod x;` would look in `tests/`, hence the paths.

// What the tests share.
#[path = "pcap_writer_selftest/check.rs"]
mod check;
#[path = "pcap_writer_selftest/decode.rs"]
mod decode;
#[path = "pcap_writer_selftest/fixtures.rs"]
mod fixtures;
#[path = "pcap_writer_selftest/read_back.rs"]
mod read_back;

// The tests, by what they cover.
#[path = "pcap_writer_selftest/containers.rs"]
mod containers;
#[path = "pcap_writer_selftest/fragments.rs"]
mod fragments;
#[path = "pcap_writer_selftest/links.rs"]
mod links;
#[path = "pcap_writer_selftest/tcp.rs"]
mod tcp;
