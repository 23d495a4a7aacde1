//! The first step of the wire reader: pcap and pcapng files become packets, each with
//! its frame number (1-based, as Wireshark counts), link type and place in the file.

use pcap_parser::pcapng::Block;
use pcap_parser::{
    Linktype, parse_pcap_frame, parse_pcap_frame_be, parse_pcap_frame_modified, parse_pcap_header,
};

/// Packets longer than this are not real captures of a network packet (the largest link
/// MTU plus headers, and tcpdump's 262,144-byte default snapshot length, are below it):
/// a block claiming more is damaged, and the rest of the file is not read.
const MAX_PACKET: usize = 16 * 1024 * 1024;

/// One captured packet.
#[derive(Debug)]
pub struct Packet<'a> {
    pub frame: u32,
    pub link: Linktype,
    /// The bytes captured, possibly fewer than were sent (`original_len`).
    pub data: &'a [u8],
    /// Where `data` starts in the file.
    pub offset: usize,
    pub original_len: u32,
}

/// Why reading the container stopped before the end of the file.
#[derive(Debug, PartialEq, Eq)]
pub struct ContainerError {
    /// Where the damaged block starts in the file, and how many bytes it covers.
    pub offset: usize,
    pub len: usize,
    pub message: String,
    /// The file simply ends inside a block (a capture still being written, or cut).
    pub truncated: bool,
}

/// Classic pcap (either byte order, micro- or nanosecond, and the "modified" variant)
/// or pcapng, by the magic number at the start, whatever the file is called.
pub fn is_pcap(bytes: &[u8]) -> bool {
    matches!(
        bytes.get(..4),
        Some(
            [0xd4, 0xc3, 0xb2, 0xa1]
                | [0xa1, 0xb2, 0xc3, 0xd4]
                | [0x4d, 0x3c, 0xb2, 0xa1]
                | [0xa1, 0xb2, 0x3c, 0x4d]
                | [0x34, 0xcd, 0xb2, 0xa1]
                | [0xa1, 0xb2, 0xcd, 0x34]
                | [0x0a, 0x0d, 0x0d, 0x0a]
        )
    )
}

/// Calls `each` with every packet of the file in order; stops at the first block that
/// cannot be read and says why.
pub fn for_each_packet(
    file: &[u8],
    each: &mut dyn FnMut(Packet<'_>),
) -> Result<(), ContainerError> {
    for_each_packet_after(file, 0, each)
}

/// [`for_each_packet`], numbering the frames after `frames` earlier ones (a live read).
pub fn for_each_packet_after(
    file: &[u8],
    frames: u32,
    each: &mut dyn FnMut(Packet<'_>),
) -> Result<(), ContainerError> {
    if file.get(..4) == Some(&[0x0a, 0x0d, 0x0d, 0x0a]) {
        read_pcapng(file, frames, each)
    } else {
        read_legacy(file, frames, each)
    }
}

fn offset_in(file: &[u8], part: &[u8]) -> usize {
    part.as_ptr() as usize - file.as_ptr() as usize
}

fn damaged(file: &[u8], at: &[u8], message: String) -> ContainerError {
    let offset = offset_in(file, at);
    ContainerError {
        offset,
        len: at.len().min(16),
        message,
        truncated: false,
    }
}

fn truncated(file: &[u8], at: &[u8], what: &str) -> ContainerError {
    ContainerError {
        offset: offset_in(file, at),
        len: at.len(),
        message: format!("the file ends inside {what}"),
        truncated: true,
    }
}

fn read_legacy(
    file: &[u8],
    mut frame: u32,
    each: &mut dyn FnMut(Packet<'_>),
) -> Result<(), ContainerError> {
    let (mut rest, header) = parse_pcap_header(file).map_err(|_| ContainerError {
        offset: 0,
        len: file.len().min(24),
        message: "the pcap file header is cut short or damaged".into(),
        truncated: file.len() < 24,
    })?;
    let big_endian = header.is_bigendian();
    while !rest.is_empty() {
        let declared = rest.get(8..12).map(|b| {
            let b = [b[0], b[1], b[2], b[3]];
            if big_endian {
                u32::from_be_bytes(b)
            } else {
                u32::from_le_bytes(b)
            }
        });
        if declared.is_some_and(|n| n as usize > MAX_PACKET) {
            return Err(damaged(
                file,
                rest,
                format!(
                    "a packet record claims {} captured bytes, more than any packet holds",
                    declared.unwrap_or(0)
                ),
            ));
        }
        // The "modified" format (magic a1b2cd34, from old Linux patches) adds 8 bytes
        // to each record header: interface, protocol and packet type.
        let parsed = if header.is_modified_format() {
            parse_pcap_frame_modified(rest)
        } else if big_endian {
            parse_pcap_frame_be(rest)
        } else {
            parse_pcap_frame(rest)
        };
        let (next, block) = parsed.map_err(|_| {
            let record = format!("the record of frame {}", frame.saturating_add(1));
            truncated(file, rest, &record)
        })?;
        frame = frame.saturating_add(1);
        each(Packet {
            frame,
            link: header.network,
            data: block.data,
            offset: offset_in(file, block.data),
            original_len: block.origlen,
        });
        rest = next;
    }
    Ok(())
}

fn read_pcapng(
    file: &[u8],
    mut frame: u32,
    each: &mut dyn FnMut(Packet<'_>),
) -> Result<(), ContainerError> {
    let mut rest = file;
    let mut big_endian = false;
    // Link types of the current section's interfaces, by interface id (pcapng §4.2).
    let mut interfaces: Vec<Linktype> = Vec::new();
    while !rest.is_empty() {
        if rest.len() < 12 {
            return Err(truncated(file, rest, "a pcapng block"));
        }
        let length = block_length(rest, big_endian);
        if length < 12 || length as usize > MAX_PACKET + 64 {
            return Err(damaged(
                file,
                rest,
                format!("a pcapng block claims a length of {length} bytes"),
            ));
        }
        if (length as usize) > rest.len() {
            return Err(truncated(file, rest, "a pcapng block"));
        }
        // A section header sets the byte order of every block after it.
        if rest[..4] == [0x0a, 0x0d, 0x0d, 0x0a] {
            big_endian = rest.get(8..12) == Some(&[0x1a, 0x2b, 0x3c, 0x4d]);
            interfaces.clear();
        }
        let parsed = if big_endian {
            pcap_parser::pcapng::parse_block_be(rest)
        } else {
            pcap_parser::pcapng::parse_block_le(rest)
        };
        let (next, block) = parsed.map_err(|_| {
            damaged(
                file,
                rest,
                "a pcapng block cannot be read (bad length or damaged fields)".into(),
            )
        })?;
        match block {
            Block::InterfaceDescription(idb) => interfaces.push(idb.linktype),
            Block::EnhancedPacket(epb) => {
                frame = frame.saturating_add(1);
                let Some(&link) = interfaces.get(epb.if_id as usize) else {
                    return Err(damaged(
                        file,
                        rest,
                        format!(
                            "a packet names interface {}, which no block declared",
                            epb.if_id
                        ),
                    ));
                };
                let data = &epb.data[..epb.data.len().min(epb.caplen as usize)];
                each(Packet {
                    frame,
                    link,
                    data,
                    offset: offset_in(file, data),
                    original_len: epb.origlen,
                });
            }
            Block::SimplePacket(spb) => {
                frame = frame.saturating_add(1);
                // A simple packet belongs to the section's first interface (pcapng §4.4);
                // its data is padded to 32 bits, so only `origlen` bytes are the packet.
                let Some(&link) = interfaces.first() else {
                    return Err(damaged(
                        file,
                        rest,
                        "a simple packet block comes before any interface".into(),
                    ));
                };
                let data = &spb.data[..spb.data.len().min(spb.origlen as usize)];
                each(Packet {
                    frame,
                    link,
                    data,
                    offset: offset_in(file, data),
                    original_len: spb.origlen,
                });
            }
            // Statistics, name resolution, secrets, custom and unknown blocks hold no
            // packets: skipped, as pcapng §3.1 allows.
            _ => {}
        }
        rest = next;
    }
    Ok(())
}

fn block_length(block: &[u8], big_endian: bool) -> u32 {
    let b = [block[4], block[5], block[6], block[7]];
    if block[..4] == [0x0a, 0x0d, 0x0d, 0x0a] {
        // The section header's own length is in the byte order its magic says.
        let be = block.get(8..12) == Some(&[0x1a, 0x2b, 0x3c, 0x4d]);
        return if be {
            u32::from_be_bytes(b)
        } else {
            u32::from_le_bytes(b)
        };
    }
    if big_endian {
        u32::from_be_bytes(b)
    } else {
        u32::from_le_bytes(b)
    }
}
