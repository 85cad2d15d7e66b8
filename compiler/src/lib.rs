//! permc-compiler
