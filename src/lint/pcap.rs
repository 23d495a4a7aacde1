//! pcap and pcapng files in the engine: each exchange the wire reader yields is linted
//! from its text view as soon as it is read, and findings are placed on its frames.

use crate::input::capture::HttpReader;
use crate::input::capture::wire::{WireExchange, read_pcap};
use crate::lint::Defer;
use crate::lint::Options;
use crate::lint::file::{FileLint, Unit};
use crate::output::FileReport;
use crate::output::resolve::Resolver;

pub(super) fn lint_pcap(path: &str, file: &[u8], options: &Options, defer: Defer) -> FileReport {
    // Answers are left to a second pass as a `.http` file's are: resolving every one at
    // once kept a diagnostic per gRPC call to the end of the run, so memory grew with
    // the files. The few files a run-level finding needs are read again.
    let resolver = Resolver::for_wire(path, file).identified_as(options.identity(path));
    let mut lint = FileLint::new(path, options, resolver, defer);
    let wire = read_pcap(file, &mut |exchange| lint_exchange(&mut lint, &exchange));
    // Findings about frames come last, once the reader has said where every frame is.
    lint.resolver().set_frames(wire.frame_starts());
    for (connection, problem) in &wire.connection_problems {
        lint.problems(std::slice::from_ref(problem), Unit::Connection(connection));
    }
    lint.problems(&wire.problems, Unit::File);
    FileReport {
        wire: Some(wire.counts),
        ..lint.finish(Vec::new())
    }
}

/// Lints one exchange of a capture from its text view: an HTTP/2 stream as it was read,
/// HTTP/1.x text as a `.http` file is framed.
pub(super) fn lint_exchange(lint: &mut FileLint<'_>, exchange: &WireExchange) {
    match exchange.http2_exchange() {
        Some(http2) => {
            lint.exchange(&exchange.text, &http2, Unit::Wire(exchange), Vec::new());
            lint.problems(&exchange.problems, Unit::Wire(exchange));
        }
        None => {
            let mut reader = HttpReader::new(&exchange.text);
            for mut http1 in reader.by_ref() {
                http1.index = exchange.index;
                lint.exchange(&exchange.text, &http1, Unit::Wire(exchange), Vec::new());
            }
            lint.problems(reader.problems(), Unit::Wire(exchange));
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::finding::run_level::Spot;
    use crate::lint::{Options, lint_source, lint_source_deferring};
    use crate::output::FileReport;
    use crate::output::resolve::spots::Placed;

    /// The Go SDK's gRPC calls of every kind: ten answers and claims the run-level rules
    /// keep.
    const CAPTURE: &[u8] = include_bytes!("../../samples/real/a2a-go/grpc/grpc.pcap");

    /// How many of the report's spots hold a resolved diagnostic.
    fn resolved(report: &FileReport) -> usize {
        (0..64)
            .filter(|&n| matches!(report.spots.get(Spot(n)), Some(Placed::Diagnostic(_))))
            .count()
    }

    #[test]
    fn a_checked_capture_leaves_its_spots_to_a_second_pass() {
        let options = Options::default();
        let at_once = lint_source("grpc.pcap", CAPTURE, &options);
        assert_eq!(resolved(&at_once), 10);
        let checked = lint_source_deferring("grpc.pcap", CAPTURE, &options, true);
        assert_eq!(resolved(&checked), 0);
        assert_eq!(checked.diagnostics, at_once.diagnostics);
    }
}
