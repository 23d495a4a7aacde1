//! placeholder for the HTTP/2 reader's interface (being written): replace this file wholly.

use crate::capture::model::ReadProblem;
use crate::capture::wire::{Connection, Stream, WireExchange};

pub enum H2Start {
    PriorKnowledge {
        client_at: usize,
        server_at: usize,
    },
    Upgrade {
        request: std::ops::Range<usize>,
        switching: std::ops::Range<usize>,
        client_at: usize,
        server_at: usize,
    },
}

pub struct H2Read {
    pub exchanges: Vec<WireExchange>,
    pub problems: Vec<ReadProblem>,
}

pub fn read_h2(
    _connection: &Connection,
    _client: &Stream,
    _server: &Stream,
    _start: H2Start,
    _first_index: usize,
) -> H2Read {
    H2Read {
        exchanges: Vec::new(),
        problems: Vec::new(),
    }
}
