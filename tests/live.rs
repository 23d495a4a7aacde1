//! `check -` on a pcap written into the pipe as it is captured (`tcpdump -U -w - | a2alint
//! check -`): each connection's findings come out as it closes, before the capture ends;
//! the whole output is the file's; a pipe cut mid-connection or Ctrl-C still ends the run.

#[allow(dead_code)]
#[path = "common/pcap/mod.rs"]
mod pcap;

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use pcap::{Container, Conversation, Link, Options, Written, interleave, write_capture};

const REQUEST: &[u8] = b"POST /a2a HTTP/1.1\r\nHost: agent.example.com\r\nAuthorization: Bearer sk-live-0123456789abcdef\r\nContent-Type: application/json\r\nA2A-Version: 1.0\r\nContent-Length: 73\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"GetTask\",\"params\":{\"id\":\"task-000404\"}}";
const RESPONSE: &[u8] = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 76\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":7,\"error\":{\"code\":-32001,\"message\":\"no task with id\"}}";
const WAIT: Duration = Duration::from_secs(30);

/// Two connections one after the other, each with findings; the second one's packets
/// start at the returned frame index.
fn two_connections() -> (Written, usize) {
    let (first, second) = conversations();
    let mut packets = first.packets();
    let split = packets.len();
    packets.extend(second.packets());
    (write_capture(&packets, &Options::default()), split)
}

fn conversations() -> (Conversation, Conversation) {
    let server = "192.0.2.20:8080".parse().unwrap();
    let mut first = Conversation::new("192.0.2.10:40222".parse().unwrap(), server).mss(96);
    first.handshake();
    first.exchange(REQUEST, RESPONSE);
    first.close();
    let mut second = Conversation::new("192.0.2.10:40224".parse().unwrap(), server).mss(96);
    second.handshake();
    second.exchange(REQUEST, RESPONSE);
    second.close();
    (first, second)
}

/// Where each record (its 16-byte header, then the frame) starts in a classic pcap.
fn record_starts(written: &Written) -> Vec<usize> {
    written.frames.iter().map(|f| f.data_offset - 16).collect()
}

fn a2alint(args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_a2alint"));
    cmd.args(args)
        .env("NO_COLOR", "1")
        .env_remove("GITHUB_STEP_SUMMARY");
    cmd
}

/// `check --format concise` of `bytes` as a file, with the file's name replaced by
/// `<stdin>`: stdout and stderr.
fn as_file(bytes: &[u8]) -> (String, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run.pcap");
    std::fs::write(&path, bytes).unwrap();
    let out = a2alint(&["check", "--format", "concise", path.to_str().unwrap()])
        .output()
        .unwrap();
    let name = |s: &[u8]| String::from_utf8_lossy(s).replace(path.to_str().unwrap(), "<stdin>");
    (name(&out.stdout), without_time(&name(&out.stderr)))
}

/// The summary line without its duration.
fn without_time(text: &str) -> String {
    text.lines()
        .map(|l| match (l.find(") in "), l.find("s: ")) {
            (Some(a), Some(b)) if a < b => format!("{}{}", &l[..a + 1], &l[b + 1..]),
            _ => l.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn spawn_live(args: &[&str]) -> (Child, ChildStdin, mpsc::Receiver<String>) {
    let mut child = a2alint(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (send, lines) = mpsc::channel();
    thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { return };
            if send.send(line).is_err() {
                return;
            }
        }
    });
    (child, stdin, lines)
}

fn finish(
    mut child: Child,
    lines: mpsc::Receiver<String>,
    mut seen: Vec<String>,
) -> (String, String) {
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    child.wait().unwrap();
    seen.extend(lines.iter());
    let mut stdout = seen.join("\n");
    if !stdout.is_empty() {
        stdout.push('\n');
    }
    (stdout, without_time(&stderr))
}

#[test]
fn each_connection_is_reported_as_it_closes_and_the_whole_matches_the_file() {
    let (written, split) = two_connections();
    let starts = record_starts(&written);
    let (expected, expected_summary) = as_file(&written.bytes);
    assert!(expected.contains("secret-in-capture"), "{expected}");
    let (child, mut stdin, lines) = spawn_live(&["check", "--format", "concise", "-"]);
    let (go, wait) = mpsc::channel::<()>();
    let (sent_tx, sent) = mpsc::channel::<usize>();
    let bytes = written.bytes.clone();
    let writer = thread::spawn(move || {
        // The header, then the first connection packet by packet; then the second one
        // only once the test has seen the first one's findings.
        let mut at = 0;
        for (i, &start) in starts.iter().enumerate() {
            if i == split + 1 {
                wait.recv().unwrap();
            }
            stdin.write_all(&bytes[at..start]).unwrap();
            stdin.flush().unwrap();
            at = start;
            sent_tx.send(i).unwrap();
            thread::sleep(Duration::from_millis(5));
        }
        stdin.write_all(&bytes[at..]).unwrap();
    });
    let first = lines
        .recv_timeout(WAIT)
        .expect("a finding before the capture ended");
    assert!(first.starts_with("<stdin>:"), "{first}");
    // The writer is still held: everything sent so far is of the first connection.
    let sent_so_far: Vec<usize> = sent.try_iter().collect();
    assert!(sent_so_far.iter().all(|&i| i <= split), "{sent_so_far:?}");
    assert!(sent.try_recv().is_err(), "the writer is held");
    go.send(()).unwrap();
    writer.join().unwrap();
    let (stdout, summary) = finish(child, lines, vec![first]);
    assert_eq!(stdout, expected);
    assert_eq!(summary, expected_summary);
}

#[test]
fn a_pipe_cut_mid_connection_reports_the_incomplete_capture_as_a_file_does() {
    let (written, split) = two_connections();
    let starts = record_starts(&written);
    // Into the second connection's request, and half of the next record.
    let cut = starts[split + 6] + 20;
    let bytes = &written.bytes[..cut];
    let (expected, expected_summary) = as_file(bytes);
    assert!(expected.contains("capture-incomplete"), "{expected}");
    let (child, mut stdin, lines) = spawn_live(&["check", "--format", "concise", "-"]);
    stdin.write_all(bytes).unwrap();
    drop(stdin);
    let (stdout, summary) = finish(child, lines, Vec::new());
    assert_eq!(stdout, expected);
    assert_eq!(summary, expected_summary);
    assert!(summary.contains("Checked 1 file"), "{summary}");
}

#[cfg(unix)]
#[test]
fn ctrl_c_lints_what_is_left_and_prints_the_summary() {
    let (written, split) = two_connections();
    let starts = record_starts(&written);
    let (child, mut stdin, lines) = spawn_live(&["check", "--format", "concise", "-"]);
    // The first connection and the start of the second; the pipe stays open.
    stdin
        .write_all(&written.bytes[..starts[split + 5]])
        .unwrap();
    stdin.flush().unwrap();
    let first = lines
        .recv_timeout(WAIT)
        .expect("the first connection's findings");
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let (stdout, summary) = finish(child, lines, vec![first]);
    drop(stdin);
    assert!(stdout.contains("capture-incomplete"), "{stdout}\n{summary}");
    assert!(summary.contains("Checked 1 file"), "{summary}");
}

/// `check -` on `bytes` written a few bytes at a time: stdout and the summary.
fn piped_in_pieces(bytes: &[u8], piece: usize) -> (String, String) {
    let (child, mut stdin, lines) = spawn_live(&["check", "--format", "concise", "-"]);
    let bytes = bytes.to_vec();
    let writer = thread::spawn(move || {
        for chunk in bytes.chunks(piece) {
            stdin.write_all(chunk).unwrap();
            stdin.flush().unwrap();
        }
    });
    writer.join().unwrap();
    finish(child, lines, Vec::new())
}

#[test]
fn every_container_read_in_small_pieces_reads_as_the_file() {
    let (first, second) = conversations();
    // Interleaved: the connections are open at once, the second closes last.
    let packets = interleave(vec![first.packets(), second.packets()]);
    for container in Container::variants() {
        let written = write_capture(&packets, &Options::new(container, Link::Ethernet));
        let (expected, expected_summary) = as_file(&written.bytes);
        assert!(
            expected.contains("secret-in-capture"),
            "{container:?}: {expected}"
        );
        let (stdout, summary) = piped_in_pieces(&written.bytes, 7);
        // The same findings, connection by connection rather than in frame order.
        let sorted = |text: &str| {
            let mut lines: Vec<String> = text.lines().map(String::from).collect();
            lines.sort();
            lines
        };
        assert_eq!(sorted(&stdout), sorted(&expected), "{container:?}");
        assert!(
            stdout.starts_with("<stdin>:7:1: error[secret-in-capture]"),
            "{stdout}"
        );
        assert!(
            stdout.contains("holds a credential\n<stdin>:13:1"),
            "{stdout}"
        );
        assert_eq!(summary, expected_summary, "{container:?}");
    }
}

#[test]
fn every_format_writes_what_it_writes_for_the_file() {
    let (written, _) = two_connections();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run.pcap");
    std::fs::write(&path, &written.bytes).unwrap();
    for format in [
        "human", "concise", "json", "sarif", "github", "gitlab", "junit",
    ] {
        let args = ["check", "--format", format, "--stdin-filename", "run.pcap"];
        let file = a2alint(&args[..3])
            .arg("run.pcap")
            .current_dir(dir.path())
            .output()
            .unwrap();
        let mut child = a2alint(&[&args[..], &["-"]].concat())
            .current_dir(dir.path())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(&written.bytes)
            .unwrap();
        let live = child.wait_with_output().unwrap();
        // Timings differ from run to run.
        let clean = |s: &[u8]| {
            let text = String::from_utf8_lossy(s).to_string();
            text.lines()
                .filter(|l| !l.contains("time=\"") && !l.contains("\"duration"))
                .map(|l| l.to_string() + "\n")
                .collect::<String>()
        };
        assert_eq!(clean(&live.stdout), clean(&file.stdout), "{format}");
    }
}
