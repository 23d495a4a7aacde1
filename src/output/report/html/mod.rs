//! `--format html`: one self-contained page for a person triaging a capture set, written
//! as files complete (head, a section per file, a section per file with findings of
//! the run-level rules, then the summary, matrix and side-by-side view the files fed,
//! which the page's style shows first).

mod counts;
mod csp;
mod escape;
mod explorer;
mod findings;
mod page;
mod tally;
mod text;

use std::fmt;
use std::io::{self, Write};
use std::sync::Arc;

use crate::input::walk::Input;
use crate::output::FileReport;
use crate::output::report::{Context, Reporter, Summary};
use crate::protocol::profile::Profile;
use counts::FindingCounts;
use explorer::{FileCapture, push_explorer};
use tally::Tally;

/// Reads a report's capture again for the explorer: `check` keeps no capture in memory.
type Reader = dyn Fn(&Input) -> Option<Vec<u8>> + Send + Sync;

/// How the HTML report gets at the captures its reports came from, and the profile
/// their exchanges are read against.
#[derive(Clone, Default)]
pub struct Captures {
    read: Option<Arc<Reader>>,
    pub profile: Profile,
}

impl Captures {
    /// `read(input)` gives the bytes of the capture of `input` again, or none (standard
    /// input cannot be read twice).
    pub fn new(
        profile: Profile,
        read: impl Fn(&Input) -> Option<Vec<u8>> + Send + Sync + 'static,
    ) -> Self {
        Captures {
            read: Some(Arc::new(read)),
            profile,
        }
    }

    fn read(&self, source: Option<&Input>) -> Option<Vec<u8>> {
        self.read.as_ref().and_then(|read| read(source?))
    }
}

impl fmt::Debug for Captures {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Captures")
            .field("read", &self.read.is_some())
            .field("profile", &self.profile)
            .finish()
    }
}

/// The page as a [`Reporter`]: each file's section reads its capture again through
/// the context's [`Captures`].
pub struct HtmlReporter<'w> {
    page: HtmlReport<'w>,
    captures: &'w Captures,
}

impl<'w> HtmlReporter<'w> {
    pub fn new(context: &'w Context, out: &'w mut dyn Write) -> io::Result<Self> {
        Ok(HtmlReporter {
            page: HtmlReport::begin(out, context.captures.profile)?,
            captures: &context.captures,
        })
    }
}

impl Reporter for HtmlReporter<'_> {
    fn file(&mut self, report: &FileReport, source: Option<&Input>) -> io::Result<()> {
        let capture = self.captures.read(source);
        self.page.file(report, capture.as_deref())
    }

    fn run_level(&mut self, reports: &[(usize, FileReport)]) -> io::Result<()> {
        self.page.run_level(reports)
    }

    fn finish(self: Box<Self>, summary: &Summary) -> io::Result<()> {
        self.page.finish(summary)
    }
}

/// The page being written: the head at once, each file's section as the file is done,
/// what needs every file (summary, matrix, side by side) at the end.
pub struct HtmlReport<'w> {
    out: &'w mut dyn Write,
    profile: Profile,
    tally: Tally,
    files: usize,
    /// Each file's number of findings, so that its run-level findings number on.
    counts: FindingCounts,
}

impl<'w> HtmlReport<'w> {
    pub fn begin(out: &'w mut dyn Write, profile: Profile) -> io::Result<Self> {
        out.write_all(page::head().as_bytes())?;
        Ok(HtmlReport {
            out,
            profile,
            tally: Tally::default(),
            files: 0,
            counts: FindingCounts::default(),
        })
    }

    /// One file's section: its findings, then the explorer of `capture`, its bytes.
    pub fn file(&mut self, report: &FileReport, capture: Option<&[u8]>) -> io::Result<()> {
        let file = self.files;
        self.files += 1;
        self.counts.push(report.diagnostics.len());
        self.tally.diagnostics(&report.diagnostics);
        let mut html = String::new();
        page::file_start(&mut html, file, report);
        match capture {
            Some(bytes) => {
                let capture = FileCapture {
                    file,
                    path: &report.path,
                    bytes,
                    profile: self.profile,
                    diagnostics: &report.diagnostics,
                };
                push_explorer(&mut html, &capture, &mut self.tally);
            }
            None => html.push_str(
                "<p class=\"clean\">The capture could not be read again, so its exchanges \
                 are not shown.</p>\n",
            ),
        }
        page::file_end(&mut html);
        self.out.write_all(html.as_bytes())
    }

    /// After every file's section, one for each file with findings of the run-level
    /// rules (`reports` in the order their files were given), numbered on from its
    /// own findings; their exchanges are in the file's explorer above.
    pub fn run_level(&mut self, reports: &[(usize, FileReport)]) -> io::Result<()> {
        for &(file, ref report) in reports {
            if report.diagnostics.is_empty() {
                continue;
            }
            self.tally.diagnostics(&report.diagnostics);
            let first = self.counts.get(file).unwrap_or_default() + 1;
            let mut html = String::new();
            page::run_level(&mut html, file, first, report);
            self.out.write_all(html.as_bytes())?;
        }
        Ok(())
    }

    /// The sections every file fed, and the end of the page.
    pub fn finish(self, summary: &Summary) -> io::Result<()> {
        let mut html = String::from(page::foot_start());
        self.tally.push_summary(&mut html, summary);
        self.tally.push_matrix(&mut html);
        self.tally.push_compare(&mut html);
        self.tally.push_rule_docs(&mut html);
        html.push_str(&page::foot_end());
        self.out.write_all(html.as_bytes())?;
        self.out.flush()
    }
}
