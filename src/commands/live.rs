//! Standard input as a live capture: a pcap magic first, then chunks as they arrive, until the end of the pipe or Ctrl-C.

use std::io::{self, BufRead, Read};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use crate::input::walk::Input;

/// How much is read from the pipe at a time, and how many reads may wait to be linted.
const CHUNK: usize = 64 * 1024;
const WAITING: usize = 16;

/// The name standard input is shown under, when it is the only input and starts with a
/// pcap or pcapng magic number (read without taking it from the pipe).
pub(super) fn live_stdin(input: &Input) -> Option<&str> {
    let Input::Stdin { name } = input else {
        return None;
    };
    let mut stdin = io::stdin().lock();
    let mut peeked = stdin.fill_buf().ok()?;
    // The magic may come in two reads only if the writer splits its first 4 bytes:
    // then the whole input is read as a file, as before.
    if peeked.len() < 4 {
        peeked = &[];
    }
    crate::input::capture::wire::is_pcap(peeked).then_some(name.as_str())
}

/// The bytes of standard input as they arrive, read on their own thread; the iterator
/// ends at the end of the pipe, or at the first Ctrl-C (a second one exits at once).
pub(super) fn stdin_chunks() -> impl Iterator<Item = Vec<u8>> {
    let (send, receive) = mpsc::sync_channel::<Vec<u8>>(WAITING);
    std::thread::spawn(move || {
        let mut stdin = io::stdin().lock();
        let mut buf = vec![0; CHUNK];
        loop {
            match stdin.read(&mut buf) {
                Ok(0) => return,
                Ok(n) => {
                    if send.send(buf[..n].to_vec()).is_err() {
                        return;
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(_) => return,
            }
        }
    });
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    // Only the first handler set in a process counts: a second `check` keeps the first.
    let _ = ctrlc::set_handler(move || {
        if flag.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
    });
    std::iter::from_fn(move || {
        loop {
            // After Ctrl-C, what the writer still flushes (tcpdump's last packets, as it
            // stops on the same Ctrl-C) is read until the pipe closes or goes quiet.
            let stopping = stop.load(Ordering::SeqCst);
            match receive.recv_timeout(Duration::from_millis(if stopping { 200 } else { 100 })) {
                Ok(chunk) => return Some(chunk),
                Err(mpsc::RecvTimeoutError::Timeout) if stopping => return None,
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => return None,
            }
        }
    })
}
