//! What the plan walk and the apply walk both use.
//!
//! | module | what |
//! | --- | --- |
//! | `plan` | the plan as data: its changes, provider operations and diagnostics; the plan walk's options |
//! | `order` | the resources of the configuration and of every module instance, and their addresses (what a node waits for is the graph's answer) |
//! | `state_read` | the prior state's objects by resource, and an object's value |
//! | `scope`, `body`, `body_json` | an instance's scope, a module instance's scope reached from the root, a resource block's arguments and nested blocks (native or JSON) evaluated |
//! | `instance` | one resource instance's configuration evaluated on its own |
//! | `module_outputs` | the outputs of module instances below the root |
//! | `routing` | the provider configuration serving each resource (the graph's answer) |
//! | `provider_block` | a provider block evaluated for `configure()`, and the resources it makes its served resources wait for |
//! | `schemas` | the generic mock's schemas, derived from the configuration; the provider set of a configuration |
//! | `checks` | custom conditions and check blocks |
//! | `targets` | `-target` and `-replace` addresses, and what a target contains |
//! | `apply_graph` | graph/'s apply graph of a plan, as the apply walks it (built once, kept in the plan) |
//! | `apply_check` | the apply graph built at plan time: its cycles refuse the plan (`checkApplyGraph`) |
//! | `relevant` | the plan's `relevant_attributes` (globalref's contributing resource attributes) |
//! | `clock` | the walks' virtual clock |
//! | `snippets` | diagnostics given their source snippet and the values of the failing expression |

pub mod apply_check;
pub mod apply_graph;
pub mod body;
pub mod body_json;
pub mod checks;
pub mod clock;
pub mod instance;
pub mod module_outputs;
pub mod order;
pub mod plan;
pub mod provider_block;
pub mod relevant;
pub mod routing;
pub mod schemas;
pub mod scope;
pub mod snippets;
pub mod state_read;
pub mod targets;
