//! Frame layouts: padding, priority fields, fixed lengths, settings.

use super::writer::{ACK, END_HEADERS, END_STREAM, PADDED, frame};
use crate::input::capture::wire::h2::frames::*;

const PRIORITY_FLAG: u8 = 0x20;

fn read(bytes: &[u8]) -> Result<Frame, LayoutError> {
    parse(bytes, &header(bytes, 0).unwrap())
}

#[test]
fn reads_headers_of_nine_bytes() {
    let bytes = frame(DATA, 0, 0x8000_0001, b"abc");
    let raw = header(&bytes, 0).unwrap();
    assert_eq!((raw.payload(), raw.stream), (9..12, 1));
    assert!(header(&bytes[..8], 0).is_none());
    assert!(header(&bytes, usize::MAX - 3).is_none());
}

#[test]
fn strips_padding_and_priority() {
    let bytes = frame(DATA, PADDED | END_STREAM, 1, &[2, b'h', b'i', 0, 0]);
    assert_eq!(
        read(&bytes).unwrap(),
        Frame::Data {
            data: 10..12,
            end_stream: true
        }
    );
    let bytes = frame(
        HEADERS,
        PADDED | PRIORITY_FLAG,
        3,
        &[1, 0, 0, 0, 1, 9, 0x82, 0],
    );
    assert_eq!(
        read(&bytes).unwrap(),
        Frame::Headers {
            fragment: 15..16,
            end_stream: false,
            end_headers: false
        }
    );
    let bytes = frame(
        PUSH_PROMISE,
        PADDED | END_HEADERS,
        1,
        &[0, 0, 0, 0, 2, 0x82],
    );
    assert_eq!(
        read(&bytes).unwrap(),
        Frame::PushPromise {
            promised: 2,
            fragment: 14..15,
            end_headers: true
        }
    );
}

#[test]
fn rejects_bad_layouts() {
    let too_much_padding = frame(DATA, PADDED, 1, &[5, b'x']);
    assert!(!read(&too_much_padding).unwrap_err().fatal);
    let headers_padding = frame(HEADERS, PADDED, 1, &[9]);
    assert!(read(&headers_padding).unwrap_err().fatal);
    assert!(read(&frame(DATA, PADDED, 1, &[])).is_err());
    assert!(read(&frame(SETTINGS, 0, 0, &[0; 5])).unwrap_err().fatal);
    assert!(read(&frame(SETTINGS, ACK, 0, &[0; 6])).is_err());
    assert!(read(&frame(SETTINGS, 0, 1, &[])).is_err());
    assert!(read(&frame(PING, 0, 0, &[0; 7])).is_err());
    assert!(read(&frame(RST_STREAM, 0, 0, &[0; 4])).is_err());
    assert!(!read(&frame(PRIORITY, 0, 1, &[0; 4])).unwrap_err().fatal);
    assert!(read(&frame(GOAWAY, 0, 0, &[0; 7])).is_err());
    assert!(
        !read(&frame(WINDOW_UPDATE, 0, 0, &[0; 4]))
            .unwrap_err()
            .fatal
    );
    assert_eq!(read(&frame(0xfa, 0xff, 7, b"??")).unwrap(), Frame::Unknown);
}

#[test]
fn reads_settings_and_goaway() {
    let bytes = frame(SETTINGS, 0, 0, &[0, 1, 0, 0, 0x10, 0, 0, 5, 0, 0, 0x40, 0]);
    assert_eq!(
        read(&bytes).unwrap(),
        Frame::Settings {
            ack: false,
            params: vec![(1, 4096), (5, 16384)]
        }
    );
    let bytes = frame(GOAWAY, 0, 0, &[0x80, 0, 0, 3, 0, 0, 0, 2, b'x']);
    assert_eq!(
        read(&bytes).unwrap(),
        Frame::GoAway {
            last_stream: 3,
            code: 2
        }
    );
}
