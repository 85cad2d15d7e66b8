//! permc-analyzer
