//! Protocol: what an exchange means in A2A. `classify` builds the view rules read
//! (binding, operation, errors), `table` holds the error table of each spec version,
//! `profile` says which one a run checks against, and `inspect` tells what a client
//! should do next with each answer.

pub mod classify;
pub mod inspect;
pub mod profile;
pub mod table;
