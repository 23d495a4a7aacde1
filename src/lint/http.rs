//! `.http` captures in the engine: the HTTP text is read exchange by exchange and each
//! one linted as it comes; findings are placed in the file's own lines.

use crate::input::capture::HttpReader;
use crate::lint::Defer;
use crate::lint::Options;
use crate::lint::file::{FileLint, Unit};
use crate::output::FileReport;
use crate::output::resolve::Resolver;

pub(super) fn lint_http(path: &str, bytes: &[u8], options: &Options, defer: Defer) -> FileReport {
    let resolver = Resolver::new(path, bytes).identified_as(options.identity(path));
    let mut lint = FileLint::new(path, options, resolver, defer);
    let mut reader = HttpReader::new(bytes);
    for exchange in reader.by_ref() {
        lint.exchange(bytes, &exchange, Unit::File, Vec::new());
    }
    lint.problems(reader.problems(), Unit::File);
    lint.finish(Vec::new())
}
