//! Terraform's test framework (`terraform test`): `*.tftest.hcl` files read into a model
//! (`file`), their runs executed in order against the in-memory engine (`runner`, through the
//! one adapter `engine`), and the results printed as Terraform prints them (`report`: the
//! human text, `-json` lines, JUnit XML; `verbose`: the plan or state `-verbose` adds).

pub mod api;
pub mod engine;
pub mod file;
pub mod json_file;
pub mod mocking;
pub mod report;
pub mod runner;
pub mod verbose;
