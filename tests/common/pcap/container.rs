//! Container bytes: integers in the file's byte order, pcapng blocks, options, interfaces.

use super::options::Link;

/// Appends integers in one byte order.
pub(super) struct Out {
    pub(super) bytes: Vec<u8>,
    pub(super) big_endian: bool,
}

impl Out {
    pub(super) fn u16(&mut self, v: u16) {
        let b = if self.big_endian {
            v.to_be_bytes()
        } else {
            v.to_le_bytes()
        };
        self.bytes.extend_from_slice(&b);
    }

    pub(super) fn u32(&mut self, v: u32) {
        let b = if self.big_endian {
            v.to_be_bytes()
        } else {
            v.to_le_bytes()
        };
        self.bytes.extend_from_slice(&b);
    }

    fn put_u32_at(&mut self, at: usize, v: u32) {
        let b = if self.big_endian {
            v.to_be_bytes()
        } else {
            v.to_le_bytes()
        };
        self.bytes[at..at + 4].copy_from_slice(&b);
    }

    pub(super) fn raw(&mut self, b: &[u8]) {
        self.bytes.extend_from_slice(b);
    }

    pub(super) fn pad4(&mut self) {
        while self.bytes.len() & 3 != 0 {
            self.bytes.push(0);
        }
    }

    pub(super) fn len(&self) -> usize {
        self.bytes.len()
    }
}

/// The link used by the extra pcapng interfaces.
pub(super) fn other_link(link: Link) -> Link {
    if link == Link::Ethernet {
        Link::RawIp
    } else {
        Link::Ethernet
    }
}

/// Bytes kept of a `len`-byte frame under `snaplen`.
pub(super) fn cut(len: usize, snaplen: u32) -> usize {
    if snaplen == 0 {
        len
    } else {
        len.min(snaplen as usize)
    }
}

/// Writes a pcapng block: type, length, the body `body` writes, padding, length again.
pub(super) fn block(out: &mut Out, block_type: u32, body: impl FnOnce(&mut Out)) {
    let start = out.len();
    out.u32(block_type);
    out.u32(0);
    body(out);
    out.pad4();
    let total = (out.len() - start + 4) as u32;
    out.u32(total);
    out.put_u32_at(start + 4, total);
}

/// Writes one pcapng option (code, length, value, padding).
pub(super) fn option(out: &mut Out, code: u16, value: &[u8]) {
    out.u16(code);
    out.u16(value.len() as u16);
    out.raw(value);
    out.pad4();
}

/// Writes an Interface Description Block.
pub(super) fn interface(out: &mut Out, link: Link, snaplen: u32, index: usize) {
    block(out, 1, |out| {
        out.u16(link.linktype());
        out.u16(0);
        out.u32(snaplen);
        option(out, 2, format!("a2alint-test{index}").as_bytes()); // if_name
        option(out, 9, &[6]); // if_tsresol: microseconds
        option(out, 0, &[]); // opt_endofopt
    });
}
