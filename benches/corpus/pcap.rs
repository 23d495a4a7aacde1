//! The generator's exchanges as a classic pcap file of HTTP/1.1 over TCP, as `tcpdump -i lo`
//! records a busy agent: Ethernet (zero MAC addresses, as Linux writes loopback frames),
//! IPv4 with the Don't Fragment flag, TCP with a three-way handshake (MSS 1460), payload
//! in segments of at most 1460 bytes, an ACK for every second segment and one at the end
//! of each message, and a FIN from each side. Each connection is kept alive for about ten
//! exchanges (5 to 15); several are open at once and take turns message by message, so a
//! request and its response are usually a few other connections' messages apart. IPv4 and
//! TCP checksums are right. Written as it goes: the file is never held in memory.
//!
//! Everything depends only on the seed: the same seed and options give the same bytes.

use std::io::{self, Write};

use super::{Generator, Mix, Rng, wire_message};

/// How the capture is laid out.
#[derive(Clone, Copy, Debug)]
pub struct PcapOptions {
    /// Connections open at once, taking turns.
    pub parallel: usize,
    /// Exchanges per connection: uniform in this range.
    pub exchanges: (usize, usize),
}

impl Default for PcapOptions {
    fn default() -> Self {
        PcapOptions {
            parallel: 8,
            exchanges: (5, 15),
        }
    }
}

/// What was written.
#[derive(Clone, Copy, Debug, Default)]
pub struct PcapStats {
    pub bytes: u64,
    pub frames: u64,
    pub connections: u64,
    pub exchanges: u64,
}

/// The largest TCP payload of one segment (Ethernet MTU 1500 less IPv4 and TCP headers).
pub const MSS: usize = 1460;
const SERVER: ([u8; 4], u16) = ([127, 0, 0, 1], 8080);
const CLIENT_IP: [u8; 4] = [127, 0, 0, 1];
/// Linux's default ephemeral port range.
const EPHEMERAL: (u16, u16) = (32768, 60999);
const START_SECONDS: u64 = 1_790_000_000;

const FIN: u8 = 0x01;
const SYN: u8 = 0x02;
const PSH: u8 = 0x08;
const ACK: u8 = 0x10;

/// Writes exchanges of `mix` (seeded by `seed`) as a pcap of at least `target` bytes.
pub fn write_pcap(
    out: &mut impl Write,
    seed: u64,
    target: u64,
    mix: Mix,
    options: PcapOptions,
) -> io::Result<PcapStats> {
    let mut writer = Writer {
        out,
        stats: PcapStats::default(),
        micros: 0,
        ip_id: 0,
        frame: Vec::with_capacity(2048),
    };
    writer.header()?;
    let mut generator = Generator::new(Rng::derive(seed, 0), mix);
    let mut rng = Rng::derive(seed, 1);
    let mut open: Vec<Connection> = Vec::new();
    let mut opened: u64 = 0;
    loop {
        while open.len() < options.parallel.max(1) && writer.stats.bytes < target {
            let (lo, hi) = options.exchanges;
            let port = EPHEMERAL.0 + (opened % u64::from(EPHEMERAL.1 - EPHEMERAL.0 + 1)) as u16;
            let exchanges = rng.range(lo, hi.max(lo));
            open.push(Connection::new(&mut rng, port, exchanges));
            opened += 1;
        }
        if open.is_empty() {
            break;
        }
        // The generator's budget cuts long artifacts near the end of the file.
        generator.budget = target.saturating_sub(writer.stats.bytes) as usize;
        let turn = rng.below(open.len());
        let done = open[turn].step(&mut writer, &mut generator, &mut rng)?;
        // Other connections' packets come a little later, a few tens of microseconds.
        writer.micros += rng.range(5, 120) as u64;
        if done {
            open.swap_remove(turn);
            writer.stats.connections += 1;
        }
    }
    writer.out.flush()?;
    Ok(writer.stats)
}

/// Where a connection is: what its next turn writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Handshake,
    Request,
    Response,
    Close,
}

struct Connection {
    client: ([u8; 4], u16),
    /// The next sequence number each side sends: client, server.
    seq: [u32; 2],
    phase: Phase,
    left: usize,
    response: Vec<u8>,
}

impl Connection {
    fn new(rng: &mut Rng, port: u16, exchanges: usize) -> Connection {
        Connection {
            client: (CLIENT_IP, port),
            seq: [rng.next_u64() as u32, rng.next_u64() as u32],
            phase: Phase::Handshake,
            left: exchanges,
            response: Vec::new(),
        }
    }

    fn ends(&self, from_client: bool) -> (([u8; 4], u16), ([u8; 4], u16)) {
        if from_client {
            (self.client, SERVER)
        } else {
            (SERVER, self.client)
        }
    }

    /// One segment from one side, acknowledging everything the other side sent.
    fn segment(
        &mut self,
        writer: &mut Writer<'_, impl Write>,
        from_client: bool,
        flags: u8,
        payload: &[u8],
    ) -> io::Result<()> {
        let (side, other) = if from_client { (0, 1) } else { (1, 0) };
        let (src, dst) = self.ends(from_client);
        let ack = if flags & ACK != 0 { self.seq[other] } else { 0 };
        writer.tcp(src, dst, self.seq[side], ack, flags, payload)?;
        let consumed = payload.len() as u32 + u32::from(flags & (SYN | FIN) != 0);
        self.seq[side] = self.seq[side].wrapping_add(consumed);
        Ok(())
    }

    /// One message in MSS-sized segments, the receiver acknowledging every second one and
    /// the last.
    fn message(
        &mut self,
        writer: &mut Writer<'_, impl Write>,
        rng: &mut Rng,
        from_client: bool,
        bytes: &[u8],
    ) -> io::Result<()> {
        let count = bytes.len().div_ceil(MSS);
        for (i, piece) in bytes.chunks(MSS).enumerate() {
            let last = i + 1 == count;
            self.segment(
                writer,
                from_client,
                if last { ACK | PSH } else { ACK },
                piece,
            )?;
            writer.micros += rng.range(1, 8) as u64;
            if last || i % 2 == 1 {
                self.segment(writer, !from_client, ACK, &[])?;
                writer.micros += rng.range(1, 8) as u64;
            }
        }
        Ok(())
    }

    /// Writes the connection's next turn; true when it has closed.
    fn step(
        &mut self,
        writer: &mut Writer<'_, impl Write>,
        generator: &mut Generator,
        rng: &mut Rng,
    ) -> io::Result<bool> {
        match self.phase {
            Phase::Handshake => {
                self.segment(writer, true, SYN, &[])?;
                writer.micros += rng.range(5, 30) as u64;
                self.segment(writer, false, SYN | ACK, &[])?;
                writer.micros += rng.range(5, 30) as u64;
                self.segment(writer, true, ACK, &[])?;
                self.phase = Phase::Request;
            }
            Phase::Request => {
                let exchange = generator.exchange();
                let mut request = Vec::new();
                wire_message(&mut request, &exchange.request);
                self.response.clear();
                if let Some(response) = &exchange.response {
                    wire_message(&mut self.response, response);
                }
                self.message(writer, rng, true, &request)?;
                writer.stats.exchanges += 1;
                self.left = self.left.saturating_sub(1);
                self.phase = Phase::Response;
            }
            Phase::Response => {
                // The agent thinks: a few milliseconds.
                writer.micros += rng.range(200, 4000) as u64;
                let response = std::mem::take(&mut self.response);
                // An exchange without an answer ends its connection.
                let last = self.left == 0 || response.is_empty();
                self.message(writer, rng, false, &response)?;
                self.response = response;
                self.phase = if last { Phase::Close } else { Phase::Request };
            }
            Phase::Close => {
                self.segment(writer, true, FIN | ACK, &[])?;
                writer.micros += rng.range(5, 30) as u64;
                self.segment(writer, false, FIN | ACK, &[])?;
                writer.micros += rng.range(5, 30) as u64;
                self.segment(writer, true, ACK, &[])?;
                return Ok(true);
            }
        }
        Ok(false)
    }
}

struct Writer<'a, W: Write> {
    out: &'a mut W,
    stats: PcapStats,
    /// Microseconds since the first frame.
    micros: u64,
    ip_id: u16,
    frame: Vec<u8>,
}

impl<W: Write> Writer<'_, W> {
    /// The classic pcap file header: version 2.4, microseconds, Ethernet.
    fn header(&mut self) -> io::Result<()> {
        let mut header = Vec::with_capacity(24);
        header.extend_from_slice(&0xa1b2_c3d4u32.to_le_bytes());
        header.extend_from_slice(&2u16.to_le_bytes());
        header.extend_from_slice(&4u16.to_le_bytes());
        header.extend_from_slice(&0i32.to_le_bytes()); // thiszone
        header.extend_from_slice(&0u32.to_le_bytes()); // sigfigs
        header.extend_from_slice(&262_144u32.to_le_bytes()); // snaplen
        header.extend_from_slice(&1u32.to_le_bytes()); // LINKTYPE_ETHERNET
        self.out.write_all(&header)?;
        self.stats.bytes += header.len() as u64;
        Ok(())
    }

    fn tcp(
        &mut self,
        src: ([u8; 4], u16),
        dst: ([u8; 4], u16),
        seq: u32,
        ack: u32,
        flags: u8,
        payload: &[u8],
    ) -> io::Result<()> {
        // SYNs carry the MSS option (kind 2, length 4).
        let options: &[u8] = if flags & SYN != 0 {
            &[2, 4, (MSS >> 8) as u8, MSS as u8]
        } else {
            &[]
        };
        let tcp_len = 20 + options.len() + payload.len();
        let ip_len = 20 + tcp_len;
        let frame_len = 14 + ip_len;
        let f = &mut self.frame;
        f.clear();
        // pcap record header.
        let seconds = START_SECONDS + self.micros / 1_000_000;
        f.extend_from_slice(&(seconds as u32).to_le_bytes());
        f.extend_from_slice(&((self.micros % 1_000_000) as u32).to_le_bytes());
        f.extend_from_slice(&(frame_len as u32).to_le_bytes());
        f.extend_from_slice(&(frame_len as u32).to_le_bytes());
        // Ethernet: loopback frames have zero addresses; type IPv4.
        f.extend_from_slice(&[0; 12]);
        f.extend_from_slice(&0x0800u16.to_be_bytes());
        // IPv4.
        let ip = f.len();
        f.extend_from_slice(&[0x45, 0]);
        f.extend_from_slice(&(ip_len as u16).to_be_bytes());
        f.extend_from_slice(&self.ip_id.to_be_bytes());
        f.extend_from_slice(&0x4000u16.to_be_bytes()); // Don't Fragment
        f.extend_from_slice(&[64, 6, 0, 0]); // TTL, TCP, checksum (below)
        f.extend_from_slice(&src.0);
        f.extend_from_slice(&dst.0);
        let checksum = fold(u64::from(sum(&f[ip..ip + 20])));
        f[ip + 10..ip + 12].copy_from_slice(&checksum.to_be_bytes());
        self.ip_id = self.ip_id.wrapping_add(1);
        // TCP.
        let tcp = f.len();
        f.extend_from_slice(&src.1.to_be_bytes());
        f.extend_from_slice(&dst.1.to_be_bytes());
        f.extend_from_slice(&seq.to_be_bytes());
        f.extend_from_slice(&ack.to_be_bytes());
        f.push((((20 + options.len()) / 4) << 4) as u8);
        f.push(flags);
        f.extend_from_slice(&65535u16.to_be_bytes()); // window
        f.extend_from_slice(&[0, 0, 0, 0]); // checksum (below), urgent pointer
        f.extend_from_slice(options);
        f.extend_from_slice(payload);
        // The pseudo-header (RFC 9293 §3.1): addresses, protocol, TCP length.
        let pseudo = sum(&src.0) + sum(&dst.0) + 6 + tcp_len as u32;
        let checksum = fold(u64::from(pseudo) + u64::from(sum(&f[tcp..])));
        f[tcp + 16..tcp + 18].copy_from_slice(&checksum.to_be_bytes());
        self.out.write_all(f)?;
        self.stats.bytes += f.len() as u64;
        self.stats.frames += 1;
        Ok(())
    }
}

/// The sum of `bytes` as big-endian 16-bit words (an odd last byte padded with zero).
fn sum(bytes: &[u8]) -> u32 {
    let mut total: u64 = 0;
    let mut words = bytes.chunks_exact(2);
    for word in &mut words {
        total += u64::from(u16::from_be_bytes([word[0], word[1]]));
    }
    if let [last] = words.remainder() {
        total += u64::from(*last) << 8;
    }
    // Fold so the result fits: at most 16 MiB of payload per frame.
    ((total & 0xffff) + (total >> 16)) as u32
}

/// The ones' complement of the ones' complement sum.
fn fold(mut total: u64) -> u16 {
    while total > 0xffff {
        total = (total & 0xffff) + (total >> 16);
    }
    !(total as u16)
}
