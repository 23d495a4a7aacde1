//! Reading a written capture back with pcap-parser, checking its file-level fields.

use pcap_parser::pcap::{parse_pcap_frame, parse_pcap_frame_be, parse_pcap_header};
use pcap_parser::pcapng::{Block, parse_block_be, parse_block_le};

use crate::pcap::{Container, Options};

/// A frame as pcap-parser reads it.
pub(crate) struct ReadFrame<'a> {
    pub(crate) linktype: u16,
    pub(crate) data: &'a [u8],
    pub(crate) data_offset: usize,
    pub(crate) origlen: usize,
    pub(crate) micros: u64,
}

/// A capture as pcap-parser reads it.
#[derive(Default)]
pub(crate) struct ReadBack<'a> {
    pub(crate) frames: Vec<ReadFrame<'a>>,
    /// pcapng interfaces: link type and snap length.
    pub(crate) interfaces: Vec<(u16, u32)>,
    /// The Simple Packet Block's data, and whether it was the last block.
    pub(crate) simple: Option<(&'a [u8], bool)>,
    pub(crate) unknown_blocks: Vec<u32>,
    pub(crate) comments: Vec<String>,
    /// Kinds of the blocks in order (pcapng).
    pub(crate) kinds: Vec<&'static str>,
}

/// Where `part` (a sub-slice of `file`) starts in it.
pub(crate) fn offset_in(file: &[u8], part: &[u8]) -> usize {
    let offset = part.as_ptr() as usize - file.as_ptr() as usize;
    assert!(offset + part.len() <= file.len());
    offset
}

pub(crate) fn read_back<'a>(file: &'a [u8], options: &Options) -> ReadBack<'a> {
    let mut back = ReadBack::default();
    match options.container {
        Container::Pcap { nanos, big_endian } => {
            let (mut rest, header) = parse_pcap_header(file).expect("pcap header");
            assert_eq!(header.is_bigendian(), big_endian);
            assert_eq!(header.is_nanosecond_precision(), nanos);
            assert_eq!((header.version_major, header.version_minor), (2, 4));
            let snaplen = if options.snaplen == 0 {
                262_144
            } else {
                options.snaplen
            };
            assert_eq!(header.snaplen, snaplen);
            let linktype = header.network.0 as u16;
            assert_eq!(linktype, options.link.linktype());
            while !rest.is_empty() {
                let (r, frame) = if big_endian {
                    parse_pcap_frame_be(rest)
                } else {
                    parse_pcap_frame(rest)
                }
                .expect("pcap record");
                rest = r;
                let fraction = if nanos {
                    assert_eq!(frame.ts_usec % 1000, 0);
                    frame.ts_usec / 1000
                } else {
                    frame.ts_usec
                };
                assert!(fraction < 1_000_000);
                assert_eq!(frame.caplen as usize, frame.data.len());
                back.frames.push(ReadFrame {
                    linktype,
                    data: frame.data,
                    data_offset: offset_in(file, frame.data),
                    origlen: frame.origlen as usize,
                    micros: u64::from(frame.ts_sec) * 1_000_000 + u64::from(fraction),
                });
            }
        }
        Container::PcapNg { big_endian, .. } => {
            let mut rest = file;
            while !rest.is_empty() {
                let (r, block) = if big_endian {
                    parse_block_be(rest)
                } else {
                    parse_block_le(rest)
                }
                .expect("pcapng block");
                rest = r;
                match block {
                    Block::SectionHeader(shb) => {
                        assert_eq!(shb.big_endian(), big_endian);
                        assert_eq!((shb.major_version, shb.minor_version), (1, 0));
                        assert_eq!(shb.section_len, -1);
                        assert_eq!(shb.shb_userappl().unwrap().unwrap(), "a2alint tests");
                        back.kinds.push("shb");
                    }
                    Block::InterfaceDescription(idb) => {
                        assert_eq!(idb.if_tsresol().unwrap().unwrap(), 6);
                        let name = format!("a2alint-test{}", back.interfaces.len());
                        assert_eq!(idb.if_name().unwrap().unwrap(), name);
                        back.interfaces.push((idb.linktype.0 as u16, idb.snaplen));
                        back.kinds.push("idb");
                    }
                    Block::EnhancedPacket(epb) => {
                        let (linktype, _) = back.interfaces[epb.if_id as usize];
                        let data = &epb.data[..epb.caplen as usize];
                        for option in &epb.options {
                            match option.code.0 {
                                1 => back.comments.push(option.as_str().unwrap().to_owned()),
                                0 => {}
                                other => panic!("unexpected EPB option {other}"),
                            }
                        }
                        back.frames.push(ReadFrame {
                            linktype,
                            data,
                            data_offset: offset_in(file, data),
                            origlen: epb.origlen as usize,
                            micros: (u64::from(epb.ts_high) << 32) | u64::from(epb.ts_low),
                        });
                        assert_eq!(
                            epb.if_id as usize,
                            back.interfaces.len() - 1,
                            "packets go to the last interface"
                        );
                        back.kinds.push("epb");
                    }
                    Block::SimplePacket(spb) => {
                        let len = (spb.origlen as usize).min(spb.data.len());
                        back.simple = Some((&spb.data[..len], rest.is_empty()));
                        back.kinds.push("spb");
                    }
                    Block::Unknown(unknown) => {
                        // pcap-parser keeps the type as read little-endian.
                        let block_type = if big_endian {
                            unknown.block_type.swap_bytes()
                        } else {
                            unknown.block_type
                        };
                        back.unknown_blocks.push(block_type);
                        back.kinds.push("unknown");
                    }
                    other => panic!("unexpected block {other:?}"),
                }
            }
        }
    }
    back
}
