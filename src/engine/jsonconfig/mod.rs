//! The configuration as a plan records it (Terraform's `internal/command/jsonconfig`), and what
//! that reads of it.
//!
//! | module | what |
//! | --- | --- |
//! | `config_json` | the plan JSON's `configuration` section |
//! | `config_providers`, `version_constraints` | its `provider_config` part, version constraints in canonical form |
//! | `refs` | an expression's references as jsonconfig and globalref read them |
//! | `sources` | the configuration's files parsed once, resource blocks by address |

pub mod config_json;
pub mod config_providers;
pub mod refs;
pub mod sources;
pub mod version_constraints;
