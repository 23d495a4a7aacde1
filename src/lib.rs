pub mod capture;
pub mod source;
