//! [`write_capture`]: packets into one capture file, with a [`Written`] record of its frames.

use super::container::{Out, block, cut, interface, option, other_link};
use super::frame::{Frame, State, frames_for};
use super::options::{Container, FRAME_SPACING_MICROS, Options, START_SECONDS, UNKNOWN_BLOCK_TYPE};
use super::packet::Packet;

/// A written capture.
#[derive(Clone, Debug)]
pub struct Written {
    /// The whole file.
    pub bytes: Vec<u8>,
    /// Every frame, in file order (the pcapng Simple Packet Block of `odd_blocks` is not one).
    pub frames: Vec<WrittenFrame>,
}

/// Where one frame went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WrittenFrame {
    /// The frame number, from 1.
    pub number: u32,
    /// Index of the [`Packet`] in [`write_capture`]'s input that gave this frame.
    pub packet: usize,
    /// Where the frame's link-layer bytes start in the file.
    pub data_offset: usize,
    /// Bytes of the frame in the file (after `snaplen`).
    pub caplen: usize,
    /// Bytes of the frame on the wire.
    pub origlen: usize,
    /// Where the transport payload (TCP or UDP data) carried by this frame starts in the
    /// file. For frames with no such payload (ARP, raw), `data_offset + caplen`.
    pub payload_offset: usize,
    /// Payload bytes of this frame in the file (after `snaplen`; 0 if cut before them).
    pub payload_len: usize,
    /// Which byte of the packet's payload `payload_offset` holds: 0, except for the second
    /// fragment of a [`Packet::Fragmented`].
    pub payload_from: usize,
    /// The frame's timestamp, in microseconds since the Unix epoch.
    pub timestamp_micros: u64,
}

impl Written {
    /// The payload bytes of a frame, as in the file.
    pub fn payload(&self, frame: &WrittenFrame) -> &[u8] {
        &self.bytes[frame.payload_offset..frame.payload_offset + frame.payload_len]
    }

    /// The frame's link-layer bytes, as in the file.
    pub fn data(&self, frame: &WrittenFrame) -> &[u8] {
        &self.bytes[frame.data_offset..frame.data_offset + frame.caplen]
    }

    /// The frames of one input packet (two for a [`Packet::Fragmented`], else one).
    pub fn frames_of(&self, packet: usize) -> Vec<&WrittenFrame> {
        self.frames.iter().filter(|f| f.packet == packet).collect()
    }

    /// The (first) frame of one input packet.
    pub fn frame_of(&self, packet: usize) -> &WrittenFrame {
        self.frames
            .iter()
            .find(|f| f.packet == packet)
            .unwrap_or_else(|| panic!("packet {packet} gave no frame"))
    }
}

/// Writes `packets` into one capture, in order, as `options` say. See the module
/// documentation for the details of the output.
///
/// Panics on what cannot be written: mixed address families, ARP on a link that cannot
/// carry it, a fragment split outside the packet.
pub fn write_capture(packets: &[Packet], options: &Options) -> Written {
    let big_endian = options.container.big_endian();
    let mut state = State {
        ip_id: 0x1000,
        tcp_clock: 1000,
    };
    let frames: Vec<(usize, Frame)> = packets
        .iter()
        .enumerate()
        .flat_map(|(i, p)| {
            frames_for(p, options.link, options, big_endian, &mut state)
                .into_iter()
                .map(move |f| (i, f))
        })
        .collect();
    let mut out = Out {
        bytes: Vec::new(),
        big_endian,
    };
    let mut written = Vec::with_capacity(frames.len());
    let timestamp =
        |n: usize| u64::from(START_SECONDS) * 1_000_000 + n as u64 * FRAME_SPACING_MICROS;
    let mut record = |n: usize, packet: usize, frame: &Frame, data_offset: usize| {
        let caplen = cut(frame.data.len(), options.snaplen);
        let payload_len = frame
            .payload_len
            .min(caplen.saturating_sub(frame.payload_start));
        written.push(WrittenFrame {
            number: n as u32 + 1,
            packet,
            data_offset,
            caplen,
            origlen: frame.data.len(),
            payload_offset: data_offset + frame.payload_start.min(caplen),
            payload_len,
            payload_from: frame.payload_from,
            timestamp_micros: timestamp(n),
        });
        caplen
    };
    match options.container {
        Container::Pcap { nanos, .. } => {
            out.u32(if nanos { 0xA1B2_3C4D } else { 0xA1B2_C3D4 });
            out.u16(2);
            out.u16(4);
            out.u32(0); // thiszone
            out.u32(0); // sigfigs
            out.u32(if options.snaplen == 0 {
                262_144
            } else {
                options.snaplen
            });
            out.u32(u32::from(options.link.linktype()));
            for (n, (packet, frame)) in frames.iter().enumerate() {
                let micros = timestamp(n);
                let fraction = (micros % 1_000_000) as u32;
                out.u32((micros / 1_000_000) as u32);
                out.u32(if nanos { fraction * 1000 } else { fraction });
                let caplen = cut(frame.data.len(), options.snaplen);
                out.u32(caplen as u32);
                out.u32(frame.data.len() as u32);
                let at = out.len();
                record(n, *packet, frame, at);
                out.raw(&frame.data[..caplen]);
            }
        }
        Container::PcapNg {
            extra_interfaces,
            odd_blocks,
            ..
        } => {
            block(&mut out, 0x0A0D_0D0A, |out| {
                out.u32(0x1A2B_3C4D);
                out.u16(1);
                out.u16(0);
                out.u32(u32::MAX); // section length: unknown (-1)
                out.u32(u32::MAX);
                option(out, 4, b"a2alint tests"); // shb_userappl
                option(out, 0, &[]);
            });
            for index in 0..extra_interfaces {
                interface(&mut out, other_link(options.link), 0, index);
            }
            interface(&mut out, options.link, options.snaplen, extra_interfaces);
            let unknown = |out: &mut Out| {
                block(out, UNKNOWN_BLOCK_TYPE, |out| {
                    out.raw(b"not a block anyone knows");
                });
            };
            for (n, (packet, frame)) in frames.iter().enumerate() {
                let micros = timestamp(n);
                let caplen = cut(frame.data.len(), options.snaplen);
                block(&mut out, 6, |out| {
                    out.u32(extra_interfaces as u32);
                    out.u32((micros >> 32) as u32);
                    out.u32(micros as u32);
                    out.u32(caplen as u32);
                    out.u32(frame.data.len() as u32);
                    let at = out.len();
                    record(n, *packet, frame, at);
                    out.raw(&frame.data[..caplen]);
                    out.pad4();
                    if odd_blocks {
                        option(out, 1, format!("frame {}", n + 1).as_bytes()); // opt_comment
                        option(out, 0, &[]);
                    }
                });
                if odd_blocks && n == 0 {
                    unknown(&mut out);
                }
            }
            if odd_blocks {
                if frames.is_empty() {
                    unknown(&mut out);
                }
                // The Simple Packet Block belongs to interface 0.
                let (link, snaplen) = if extra_interfaces > 0 {
                    (other_link(options.link), 0)
                } else {
                    (options.link, options.snaplen)
                };
                let udp = Packet::udp(
                    "192.0.2.1:9".parse().unwrap(),
                    "192.0.2.2:9".parse().unwrap(),
                    b"simple packet block",
                );
                let frame = frames_for(&udp, link, options, big_endian, &mut state)
                    .pop()
                    .expect("one frame");
                block(&mut out, 3, |out| {
                    out.u32(frame.data.len() as u32);
                    out.raw(&frame.data[..cut(frame.data.len(), snaplen)]);
                });
            }
        }
    }
    Written {
        bytes: out.bytes,
        frames: written,
    }
}
