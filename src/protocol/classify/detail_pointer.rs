//! The JSON pointer of one error detail, written out only when a label needs it.

use std::fmt;

/// Where a detail sits in its document: `/error/details/2`, `/error/data/0`, `/details/1`,
/// or `/error/data` for a single detail object. Errors are read by several rules on
/// every error answer, and most details never get a label: keeping the parent and the
/// index, rather than a formatted string, spares a string per detail per read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DetailPointer {
    parent: &'static str,
    index: Option<usize>,
}

impl DetailPointer {
    /// The element `index` of the array at `parent`.
    pub(super) fn element(parent: &'static str, index: usize) -> DetailPointer {
        DetailPointer {
            parent,
            index: Some(index),
        }
    }

    /// The single detail object at `parent` itself.
    pub(super) fn whole(parent: &'static str) -> DetailPointer {
        DetailPointer {
            parent,
            index: None,
        }
    }
}

impl fmt::Display for DetailPointer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.parent)?;
        match self.index {
            Some(index) => write!(f, "/{index}"),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_the_pointer_it_stands_for() {
        assert_eq!(
            DetailPointer::element("/error/details", 3).to_string(),
            "/error/details/3"
        );
        assert_eq!(
            DetailPointer::whole("/error/data").to_string(),
            "/error/data"
        );
    }
}
