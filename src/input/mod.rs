//! Input: finding capture files (`walk`), their bytes and spans (`source`), and the
//! readers that turn each format into exchanges (`capture`: `.http`, HAR, pcap with
//! TCP, HTTP/1.x, HTTP/2 and gRPC; `proto` decodes the protobuf that gRPC carries).

mod byte_masks;
pub mod capture;
pub(crate) mod json_end;
pub(crate) mod json_span;
pub mod proto;
mod read;
pub mod repo_root;
pub mod secrets;
pub mod source;
pub mod walk;
