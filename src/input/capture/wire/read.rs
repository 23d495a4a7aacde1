//! The wire reader from end to end: packets are gathered into connections, then each
//! connection is put in order and read as HTTP/1.x or HTTP/2, one after the other, so
//! only one connection's bytes are held at a time.

use crate::input::capture::model::ReadProblem;
use crate::input::capture::wire::container::{ContainerError, for_each_packet};
use crate::input::capture::wire::h2::{H2Start, LiteralField, read_h2, read_h2_literals};
use crate::input::capture::wire::http1::{read_http1, starts_message};
use crate::input::capture::wire::link::{Decoded, decode};
use crate::input::capture::wire::tcp::{Flow, Flows, MAX_CONNECTIONS};
use crate::input::capture::wire::{
    Connection, ExchangeEnd, Stream, StreamEnd, Wire, WireExchange, file_span,
};
use crate::input::source::Span;

/// The HTTP/2 client connection preface (RFC 9113 §3.4).
pub const PREFACE: &[u8] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";

/// Hands on the literal fields of HTTP/2 header blocks, when a caller asked for them.
pub(super) type Literals<'a> = Option<&'a mut dyn FnMut(LiteralField)>;

/// Reads the pcap or pcapng `file`, handing each exchange to `each` as it is read.
pub fn read_pcap(file: &[u8], each: &mut dyn FnMut(WireExchange)) -> Wire {
    read(file, each, None)
}

/// Reads `file` as [`read_pcap`] does, and hands `literal` every literal field of every
/// HTTP/2 header block with where its value is coded in the file (for `redact`).
pub fn read_pcap_literals(
    file: &[u8],
    each: &mut dyn FnMut(WireExchange),
    literal: &mut dyn FnMut(LiteralField),
) -> Wire {
    read(file, each, Some(literal))
}

fn read(file: &[u8], each: &mut dyn FnMut(WireExchange), mut literals: Literals<'_>) -> Wire {
    let mut wire = Wire::default();
    let mut flows = Flows::default();
    let mut fragment: Option<u32> = None;
    let result = for_each_packet(file, &mut |packet| {
        wire.frames
            .push(Span::new(packet.offset, packet.offset + packet.data.len()));
        match decode(&packet) {
            Decoded::Tcp(segment) => {
                flows.add(&segment);
            }
            Decoded::Fragment => {
                fragment.get_or_insert(packet.frame);
                wire.counts.skipped_frames += 1;
            }
            Decoded::Other => wire.counts.skipped_frames += 1,
        }
    });
    wire.counts.frames = wire.frames.len();
    if let Err(error) = result {
        wire.problems.push(container_problem(&error));
    }
    if let Some(frame) = fragment {
        fragment_problem(&mut wire, frame);
    }
    if let Some((frame, count)) = flows.dropped {
        dropped_problem(&mut wire, frame, count);
    }
    wire.counts.connections = flows.seen;
    let mut next_index = 0;
    for (&number, flow) in &flows.flows {
        read_flow(
            file,
            flow,
            number + 1,
            &mut wire,
            &mut next_index,
            each,
            &mut literals,
        );
    }
    wire
}

/// Frame `frame` is the first of the IP fragments, which are not put back together.
pub(super) fn fragment_problem(wire: &mut Wire, frame: u32) {
    let span = wire.frame_span(frame);
    wire.problems.push(ReadProblem::Incomplete {
        span,
        message: format!(
            "frame {frame} is a fragment of an IP packet, which a2alint does not put back together"
        ),
        help: "fragmented TCP traffic is rare on loopback and in test networks; capture \
               where the MTU fits the segments (the loopback interface, say)"
            .into(),
        note: false,
    });
}

/// `count` packets from frame `frame` on were of connections past [`MAX_CONNECTIONS`].
pub(super) fn dropped_problem(wire: &mut Wire, frame: u32, count: usize) {
    wire.problems.push(ReadProblem::Incomplete {
        span: wire.frame_span(frame),
        message: format!(
            "{count} packets from frame {frame} on belong to connections beyond the \
             {MAX_CONNECTIONS} a2alint follows in one file; they were not read"
        ),
        help: "split the capture (`editcap -c`) or filter it to the agent's ports".into(),
        note: false,
    });
}

pub(super) fn read_flow(
    file: &[u8],
    flow: &Flow,
    number: usize,
    wire: &mut Wire,
    next_index: &mut usize,
    each: &mut dyn FnMut(WireExchange),
    literals: &mut Literals<'_>,
) {
    let reset = flow.reset();
    let streams = [
        flow.dirs[0].assemble(file, reset),
        flow.dirs[1].assemble(file, reset),
    ];
    // Who is who before any HTTP is seen: the opener is the client.
    let opener = flow.opener.unwrap_or(0);
    let seen = Connection {
        number,
        client: flow.peers[opener],
        server: flow.peers[1 - opener],
    };
    let Some(client) = client_side(flow, &streams) else {
        let encrypted = streams.iter().any(|s| is_tls(&s.bytes));
        if encrypted {
            wire.counts.tls_connections += 1;
            tls_problem(flow, &seen, wire);
            return;
        }
        // The opener's first bytes are missing: what the connection carried cannot be
        // told, so the hole is said rather than the connection skipped in silence.
        if let Some(opener) = flow.opener.filter(|&i| starts_with_hole(&streams[i])) {
            let (from, to) = (flow.peers[opener], flow.peers[1 - opener]);
            let hole = gap_problem(wire, &streams[opener], from, to);
            wire.connection_problems.extend(hole.map(|p| (seen, p)));
            return;
        }
        wire.counts.skipped_connections += 1;
        return;
    };
    let connection = Connection {
        number,
        client: flow.peers[client],
        server: flow.peers[1 - client],
    };
    let (up, down) = (&streams[client], &streams[1 - client]);
    if is_tls(&up.bytes) {
        wire.counts.tls_connections += 1;
        tls_problem(flow, &connection, wire);
        return;
    }
    wire.counts.http_connections += 1;
    for (stream, from, to) in [
        (up, connection.client, connection.server),
        (down, connection.server, connection.client),
    ] {
        if let Some(problem) = gap_problem(wire, stream, from, to) {
            wire.connection_problems.push((connection.clone(), problem));
        }
    }
    for (dir, side) in [
        (&flow.dirs[client], "client"),
        (&flow.dirs[1 - client], "server"),
    ] {
        if let Some(frame) = dir.overflow {
            let problem = ReadProblem::Incomplete {
                span: wire.frame_span(frame),
                message: format!(
                    "the {side} of connection {connection} sent more than a2alint reads of \
                     one connection; the rest, from frame {frame}, was not read"
                ),
                help: "a connection is read up to 256 MiB each way".into(),
                note: false,
            };
            wire.connection_problems.push((connection.clone(), problem));
        }
    }
    let start = if up.bytes.starts_with(PREFACE) {
        Some(H2Start::PriorKnowledge {
            client_at: 0,
            server_at: 0,
        })
    } else {
        let read = read_http1(&connection, up, down, *next_index);
        *next_index += read.exchanges.len();
        if let Some(frame) = read.open_at_end {
            let problem = ReadProblem::Incomplete {
                span: wire.frame_span(frame),
                message: format!(
                    "the capture ends while the message starting in frame {frame} was still \
                     arriving on connection {connection}, which neither peer had closed"
                ),
                help: "the rest of it may have been sent and not captured (the capture was \
                       stopped too early, or dropped its last packets: give tcpdump a bigger \
                       buffer with `-B`); the exchange is not judged"
                    .into(),
                note: false,
            };
            wire.connection_problems.push((connection.clone(), problem));
        }
        for exchange in read.exchanges {
            each(exchange);
        }
        read.upgrade.map(|u| H2Start::Upgrade {
            request: u.request,
            switching: u.switching,
            client_at: u.client_at,
            server_at: u.server_at,
        })
    };
    if let Some(start) = start {
        let mut read = match literals {
            Some(literal) => {
                let mut read = read_h2_literals(&connection, up, down, start, *next_index);
                read.literals.drain(..).for_each(&mut **literal);
                read
            }
            None => read_h2(&connection, up, down, start, *next_index),
        };
        for (index, problem) in read.exchange_problems {
            if let Some(exchange) = read.exchanges.get_mut(index - *next_index) {
                exchange.problems.push(problem);
            }
        }
        // After a hole, a stream that never finished may have finished in the bytes the
        // capture lost: it is not judged (the hole is reported once, above).
        if [up, down]
            .iter()
            .any(|s| matches!(s.end, StreamEnd::Gap { .. }))
        {
            read.exchanges.retain(|e| e.end != ExchangeEnd::Unfinished);
            for (i, exchange) in read.exchanges.iter_mut().enumerate() {
                exchange.index = *next_index + i;
            }
        }
        // A stream still open when the connection closed was ended by whoever closed
        // it; one still open when the capture stopped is only unfinished.
        let tcp = [flow.closed_at(client), flow.closed_at(1 - client)];
        let goaway = read.goaway.map(|g| g.map(|(_, frame)| frame));
        for exchange in &mut read.exchanges {
            exchange.end = exchange.end.after_close(tcp, goaway);
        }
        *next_index += read.exchanges.len();
        (wire.connection_problems)
            .extend(read.problems.into_iter().map(|p| (connection.clone(), p)));
        for exchange in read.exchanges {
            each(exchange);
        }
    }
}

/// Which peer is the client: the one that opened the connection, else the one whose
/// bytes start with a request line or the HTTP/2 preface. `None` when the connection
/// carries no HTTP the capture shows from its start.
fn client_side(flow: &Flow, streams: &[Stream; 2]) -> Option<usize> {
    let speaks_first = |s: &Stream| {
        s.bytes.starts_with(PREFACE)
            || (starts_message(&s.bytes, 0) && !s.bytes.starts_with(b"HTTP/"))
    };
    let by_content = (0..2).find(|&i| speaks_first(&streams[i]));
    match flow.opener {
        Some(i) if speaks_first(&streams[i]) || is_tls(&streams[i].bytes) => Some(i),
        Some(i) if streams[i].bytes.is_empty() && streams[1 - i].bytes.is_empty() => None,
        _ => by_content,
    }
}

fn starts_with_hole(stream: &Stream) -> bool {
    stream.bytes.is_empty() && matches!(stream.end, StreamEnd::Gap { .. })
}

/// A TLS record header: handshake (22) or application data (23), version 3.x (RFC 8446
/// §5.1). Plain HTTP never starts with these bytes.
fn is_tls(bytes: &[u8]) -> bool {
    matches!(bytes, [22 | 23, 3, 0..=4, ..])
}

fn tls_problem(flow: &Flow, connection: &Connection, wire: &mut Wire) {
    let (a, b) = (flow.peers[0], flow.peers[1]);
    let problem = ReadProblem::Incomplete {
        span: wire.frame_span(flow.first_frame),
        message: format!(
            "connection {} between {a} and {b} (ports {} and {}) is encrypted with TLS; \
             a2alint does not decrypt it",
            connection.number,
            a.port(),
            b.port()
        ),
        help: "capture the plaintext side: between the TLS terminator and the agent, or \
               run the agent without TLS in the test environment"
            .into(),
        note: false,
    };
    wire.connection_problems.push((connection.clone(), problem));
}

fn gap_problem(
    wire: &Wire,
    stream: &Stream,
    from: std::net::SocketAddr,
    to: std::net::SocketAddr,
) -> Option<ReadProblem> {
    let StreamEnd::Gap {
        before,
        after,
        missing,
        snapshot,
    } = stream.end
    else {
        return None;
    };
    let how_many = missing.map_or("some".to_string(), |n| n.to_string());
    let message = match before {
        _ if snapshot => format!(
            "frame {after} ({from} → {to}) was cut short by the capture's snapshot length: \
             {how_many} bytes of its TCP payload are not in the capture"
        ),
        Some(before) => format!(
            "{how_many} bytes of the TCP stream {from} → {to} are not in the capture, \
             between frames {before} and {after}"
        ),
        None => format!(
            "the first {how_many} bytes of the TCP stream {from} → {to} are not in the \
             capture, before frame {after}"
        ),
    };
    Some(ReadProblem::Incomplete {
        span: wire.frame_span(after),
        message,
        help: "a2alint reads nothing after a hole in a connection, so no finding guesses at \
               the missing bytes; capture again with the whole packet kept (`tcpdump -s 0`) \
               and a bigger buffer (`-B 8192`), or on the loopback interface"
            .into(),
        note: false,
    })
}

pub(super) fn container_problem(error: &ContainerError) -> ReadProblem {
    let span = file_span(Span::new(error.offset, error.offset + error.len));
    if error.truncated {
        ReadProblem::Incomplete {
            span,
            message: format!("the capture file is cut short: {}", error.message),
            help: "the capture was still being written, or copied before it was complete; \
                   every packet before this point was read"
                .into(),
            note: false,
        }
    } else {
        ReadProblem::Syntax {
            span,
            message: format!("the capture file is damaged: {}", error.message),
            help: "every packet before this point was read; nothing after it could be",
            skipped: true,
        }
    }
}

/// Where each frame's packet bytes start in `file` (frame `n` is at index `n - 1`).
pub fn frame_offsets(file: &[u8]) -> Vec<usize> {
    let mut frames = Vec::new();
    // A damaged block ends the list; `read_pcap` reports it.
    let _ = for_each_packet(file, &mut |packet| frames.push(packet.offset));
    frames
}
