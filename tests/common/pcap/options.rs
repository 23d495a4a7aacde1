//! How a capture is written: [`Container`], [`Link`], [`Options`], and the fixed values.

/// Unix time, in seconds, of the first frame of every capture.
pub const START_SECONDS: u32 = 1_700_000_000;
/// Time between consecutive frames, in microseconds.
pub const FRAME_SPACING_MICROS: u64 = 1_000;
/// The VLAN identifier of [`Link::EthernetVlan`] frames (priority 0).
pub const VLAN_ID: u16 = 100;
/// The address family [`Link::Null`] writes for IPv4.
pub const NULL_AF_INET: u32 = 2;
/// The address family [`Link::Null`] writes for IPv6 (macOS's `AF_INET6`; BSDs use 24 or 28).
pub const NULL_AF_INET6: u32 = 30;
/// The interface index written in [`Link::LinuxSll2`] headers.
pub const SLL2_IF_INDEX: u32 = 2;
/// The type of the unknown pcapng block written with `odd_blocks` (no registered meaning).
pub const UNKNOWN_BLOCK_TYPE: u32 = 0x0000_0A2A;
/// The MSS option value carried by SYN segments.
pub const SYN_MSS_OPTION: u16 = 1460;

/// The file format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Container {
    /// Classic libpcap (version 2.4): a 24-byte file header, then a 16-byte record header per
    /// frame.
    Pcap {
        /// Nanosecond timestamps (magic `a1b23c4d`) instead of microseconds (`a1b2c3d4`).
        nanos: bool,
        /// Every field big-endian (as written on a big-endian host).
        big_endian: bool,
    },
    /// pcapng: a Section Header Block, Interface Description Blocks, then one Enhanced Packet
    /// Block per frame.
    PcapNg {
        /// The section is big-endian.
        big_endian: bool,
        /// Extra interfaces declared before the capture's (packets go to the last one). They
        /// have a different link type than the capture's ([`Link::RawIp`] if the capture is
        /// [`Link::Ethernet`], else [`Link::Ethernet`]), so a reader that takes interface 0's
        /// link type for every packet misreads them.
        extra_interfaces: usize,
        /// Also write blocks a reader must skip: an unknown block type
        /// ([`UNKNOWN_BLOCK_TYPE`], after the first frame), and a Simple Packet Block at the
        /// very end (after every [`WrittenFrame`], so frame numbers stay the same whether a
        /// reader counts it or not) holding a UDP datagram on interface 0. Every Enhanced
        /// Packet Block also gets an `opt_comment` option ("frame N").
        odd_blocks: bool,
    },
}

impl Container {
    /// Classic pcap, microseconds, little-endian.
    pub const PCAP: Container = Container::Pcap {
        nanos: false,
        big_endian: false,
    };
    /// pcapng, little-endian, one interface, no odd blocks.
    pub const PCAPNG: Container = Container::PcapNg {
        big_endian: false,
        extra_interfaces: 0,
        odd_blocks: false,
    };

    /// A list of containers that together cover every variation this writer has.
    pub fn variants() -> Vec<Container> {
        let mut all = Vec::new();
        for big_endian in [false, true] {
            for nanos in [false, true] {
                all.push(Container::Pcap { nanos, big_endian });
            }
            all.push(Container::PcapNg {
                big_endian,
                extra_interfaces: 0,
                odd_blocks: false,
            });
            all.push(Container::PcapNg {
                big_endian,
                extra_interfaces: 2,
                odd_blocks: true,
            });
        }
        all
    }

    /// Whether the file is written big-endian.
    pub fn big_endian(self) -> bool {
        match self {
            Container::Pcap { big_endian, .. } | Container::PcapNg { big_endian, .. } => big_endian,
        }
    }
}

/// The link layer of every frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Link {
    /// Ethernet II (DLT 1): destination MAC, source MAC, EtherType.
    Ethernet,
    /// Ethernet II (DLT 1) with an 802.1Q tag ([`VLAN_ID`]) before the EtherType.
    EthernetVlan,
    /// Linux cooked capture v1 (DLT 113), 16 bytes: packet type (0 to us, 4 sent by us),
    /// ARPHRD_ETHER, address length 6, source MAC padded to 8, protocol.
    LinuxSll,
    /// Linux cooked capture v2 (DLT 276), 20 bytes: protocol, reserved, interface index
    /// ([`SLL2_IF_INDEX`]), ARPHRD_ETHER, packet type, address length 6, source MAC padded
    /// to 8.
    LinuxSll2,
    /// BSD loopback (DLT 0): a 4-byte address family in the file's byte order
    /// ([`NULL_AF_INET`], [`NULL_AF_INET6`]). Cannot carry ARP.
    Null,
    /// Raw IP (DLT 101): the IP packet, no link header. Cannot carry ARP.
    RawIp,
}

impl Link {
    /// Every link type.
    pub const ALL: [Link; 6] = [
        Link::Ethernet,
        Link::EthernetVlan,
        Link::LinuxSll,
        Link::LinuxSll2,
        Link::Null,
        Link::RawIp,
    ];

    /// The pcap / pcapng link-type number.
    pub fn linktype(self) -> u16 {
        match self {
            Link::Ethernet | Link::EthernetVlan => 1,
            Link::LinuxSll => 113,
            Link::LinuxSll2 => 276,
            Link::Null => 0,
            Link::RawIp => 101,
        }
    }

    /// Bytes of link header before the network-layer packet.
    pub fn header_len(self) -> usize {
        match self {
            Link::Ethernet => 14,
            Link::EthernetVlan => 18,
            Link::LinuxSll => 16,
            Link::LinuxSll2 => 20,
            Link::Null => 4,
            Link::RawIp => 0,
        }
    }

    /// Whether [`Packet::Arp`] can be written on this link.
    pub fn carries_arp(self) -> bool {
        !matches!(self, Link::Null | Link::RawIp)
    }
}

/// How [`write_capture`] writes a capture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// The file format.
    pub container: Container,
    /// The link layer.
    pub link: Link,
    /// Bytes of each frame kept (0 = all): frames longer than this are cut as `tcpdump -s`
    /// does (captured length < original length). Also written as the file's / interface's
    /// snap length (pcap writes 262144 for 0).
    pub snaplen: u32,
    /// Every TCP segment carries a timestamp option (NOP, NOP, TS: 12 bytes), so TCP headers
    /// are 32 bytes (36 on SYNs) instead of 20 (24).
    pub tcp_timestamps: bool,
    /// IPv4 headers carry 4 bytes of options (NOP NOP NOP EOL; IHL 6); IPv6 packets carry a
    /// hop-by-hop extension header (8 bytes, PadN) before the transport header.
    pub ip_options: bool,
    /// Ethernet frames shorter than 60 bytes are zero-padded to 60, as network cards do: the
    /// padding follows the IP packet, so a reader must go by the IP length, not the frame's.
    pub ethernet_padding: bool,
}

impl Default for Options {
    /// Classic pcap (µs, little-endian) on Ethernet, nothing cut, plain headers.
    fn default() -> Self {
        Options::new(Container::PCAP, Link::Ethernet)
    }
}

impl Options {
    /// These container and link, nothing cut, plain headers.
    pub fn new(container: Container, link: Link) -> Self {
        Options {
            container,
            link,
            snaplen: 0,
            tcp_timestamps: false,
            ip_options: false,
            ethernet_padding: false,
        }
    }

    /// Every [`Container::variants`] × [`Link::ALL`] combination, plain headers.
    pub fn matrix() -> Vec<Options> {
        Container::variants()
            .into_iter()
            .flat_map(|container| {
                Link::ALL
                    .into_iter()
                    .map(move |link| Options::new(container, link))
            })
            .collect()
    }

    /// The same options with this snap length.
    pub fn snaplen(mut self, snaplen: u32) -> Self {
        self.snaplen = snaplen;
        self
    }
}
