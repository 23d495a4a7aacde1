//! Run settings: what a run checks and what counts. `config` reads `a2alint.toml`,
//! `rule_set` says which rules run at which severity, `suppress` honours inline
//! directives, `gate` applies configuration ignores and baselines, `shard` picks a
//! shard's files.

pub mod config;
pub(crate) mod gate;
pub mod rule_set;
pub mod shard;
pub mod suppress;
