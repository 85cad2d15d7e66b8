//! permc-runtime
