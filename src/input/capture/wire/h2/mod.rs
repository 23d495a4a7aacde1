//! HTTP/2 over cleartext TCP (h2c, RFC 9113) read off the wire: frames of both
//! directions in capture order, header blocks decoded with HPACK (RFC 7541), and each
//! stream written as a text view whose runs map back to the frames they came from.
//!
//! The steps, one file each: `frames` cuts bytes into frames; `huffman` and `hpack`
//! decode header blocks; `connection`, `blocks` and `apply` follow the connection's
//! state into `streams`; `view` writes the views; `upgrade` reads what came before an
//! `Upgrade: h2c`. For `redact`, `blocks` can note where each literal field's value is
//! coded in the file, and `mask` makes same-size placeholders for such values.

mod apply;
mod blocks;
mod connection;
mod frames;
mod grpc_view;
mod hpack;
mod huffman;
mod mask;
mod streams;
mod upgrade;
mod view;

#[cfg(test)]
mod tests;

use std::ops::Range;

use crate::input::capture::model::ReadProblem;
use crate::input::capture::wire::{Connection, Stream, WireExchange};
pub use blocks::LiteralField;
use connection::{CLIENT, Peer, Reader};
pub use mask::placeholder;
use streams::{H2Stream, Head};
use view::ViewWriter;

/// Where the HTTP/2 frames of a connection start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum H2Start {
    /// The client's bytes begin with the connection preface ("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n")
    /// at `client_at`; the server's frames begin at `server_at` (both usually 0).
    PriorKnowledge { client_at: usize, server_at: usize },
    /// An HTTP/1.1 request with `Upgrade: h2c` (client stream bytes `request`) was
    /// answered by `101 Switching Protocols` (server stream bytes `switching`); HTTP/2
    /// frames follow: the client preface at `client_at`, the server's frames at
    /// `server_at`. The upgrade request is stream 1's request (RFC 7540 §3.2); its
    /// response comes on stream 1 in HTTP/2.
    Upgrade {
        request: Range<usize>,
        switching: Range<usize>,
        client_at: usize,
        server_at: usize,
    },
}

/// What an HTTP/2 connection held.
#[derive(Debug, Default)]
pub struct H2Read {
    /// One per stream, in the order the streams were opened.
    pub exchanges: Vec<WireExchange>,
    /// Problems about frames; their spans are [`file_span`](crate::input::capture::wire::file_span)s.
    pub problems: Vec<ReadProblem>,
    /// Problems in the text of one exchange, with that exchange's `index`: a content
    /// coding that could not be undone, a field written escaped. Their spans are spans of
    /// that exchange's text.
    pub exchange_problems: Vec<(usize, ReadProblem)>,
    /// Every literal field of both directions' header blocks, in the order they were
    /// decoded; filled by [`read_h2_literals`] only.
    pub literals: Vec<LiteralField>,
    /// The lowest GOAWAY the client (0) and the server (1) sent: `(last stream id,
    /// frame)`, for telling who began closing the connection.
    pub goaway: [Option<(u32, u32)>; 2],
}

/// Reads the HTTP/2 connection between `client` and `server`; the first exchange gets
/// index `first_index`. Never fails: what cannot be read is a problem, and what was
/// read before it is kept.
pub fn read_h2(
    connection: &Connection,
    client: &Stream,
    server: &Stream,
    start: H2Start,
    first_index: usize,
) -> H2Read {
    read(connection, client, server, start, first_index, false)
}

/// Reads the connection as [`read_h2`] does, and notes in [`H2Read::literals`] where
/// every literal field's value is coded in the file.
pub fn read_h2_literals(
    connection: &Connection,
    client: &Stream,
    server: &Stream,
    start: H2Start,
    first_index: usize,
) -> H2Read {
    read(connection, client, server, start, first_index, true)
}

fn read(
    connection: &Connection,
    client: &Stream,
    server: &Stream,
    start: H2Start,
    first_index: usize,
    literals: bool,
) -> H2Read {
    let (client_at, server_at) = match &start {
        H2Start::PriorKnowledge {
            client_at,
            server_at,
        }
        | H2Start::Upgrade {
            client_at,
            server_at,
            ..
        } => (*client_at, *server_at),
    };
    let mut reader = Reader::new(Peer::new(client, client_at), Peer::new(server, server_at));
    reader.literals = literals.then(Vec::new);
    if let H2Start::Upgrade {
        request, switching, ..
    } = start
    {
        let (request, switching) = (within(request, client), within(switching, server));
        let settings = client
            .bytes
            .get(request.clone())
            .map(upgrade::http2_settings);
        reader.upgrade_settings(&settings.unwrap_or_default());
        let mut stream = H2Stream::new(1);
        stream.request.head = Some(Head::Http1(request));
        stream.request.ended = true;
        stream.interim.push(Head::Http1(switching));
        reader.streams.open(stream);
        reader.peers[CLIENT].last_opened = 1;
    }
    // A problem that stops the reading is already recorded; the streams read are kept.
    let _ = reader.preface().and_then(|()| reader.run());

    let mut read = H2Read {
        problems: std::mem::take(&mut reader.problems),
        literals: reader.literals.take().unwrap_or_default(),
        goaway: reader.goaway,
        ..H2Read::default()
    };
    let true_binary = reader.peers.iter().all(|peer| peer.true_binary);
    let mut writer = ViewWriter::new(client, server, true_binary);
    for (index, stream) in (first_index..).zip(&reader.streams.list) {
        let view = writer.write(stream);
        (read.exchange_problems).extend(view.problems.into_iter().map(|p| (index, p)));
        read.exchanges.push(WireExchange {
            index,
            connection: connection.clone(),
            stream: Some(stream.id),
            text: view.text,
            origins: view.origins,
            parts: view.parts,
            end: stream.end(reader.goaway),
            problems: Vec::new(),
        });
    }
    read
}

/// `range` cut to the bytes `stream` holds.
fn within(range: Range<usize>, stream: &Stream) -> Range<usize> {
    let end = range.end.min(stream.bytes.len());
    range.start.min(end)..end
}
