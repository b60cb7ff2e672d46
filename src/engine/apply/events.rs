//! What an apply reports: each provider operation's events on the walk's clock, and the
//! result (state, waves, counts).

use crate::diag::Diagnostics;
use crate::engine::shared::plan::Plan;
use crate::providers::Op;
use serde_json::Value as Json;

/// What happened to one operation, on the virtual clock (milliseconds).
#[derive(Clone, Debug, PartialEq)]
pub enum OpEventKind {
    Start,
    Complete {
        id: Option<String>,
    },
    Fail,
    Skip,
    /// Never started: the walk was halted.
    Cancel,
}

#[derive(Clone, Debug, PartialEq)]
pub struct OpEvent {
    pub at_ms: u64,
    pub address: String,
    pub deposed: Option<String>,
    pub op: Op,
    /// The object's id before the operation (updates and deletes show it).
    pub prior_id: Option<String>,
    pub kind: OpEventKind,
}

/// The result of an apply walk ([`crate::engine::session::apply`]).
#[derive(Clone, Debug)]
pub struct ApplyResult {
    /// State v4 JSON.
    pub state: Json,
    pub diagnostics: Diagnostics,
    /// Provider operations grouped by start (`create ADDR`, ` FAILED` appended on failure).
    pub waves: Vec<Vec<String>>,
    pub max_concurrency: usize,
    pub events: Vec<OpEvent>,
    /// Counts for `Apply complete! Resources: N added, M changed, K destroyed.`
    pub added: usize,
    pub changed: usize,
    pub destroyed: usize,
    /// Objects imported by `import` blocks.
    pub imported: usize,
}

/// The apply's import events: each imported object, at the start.
pub fn import_events(plan: &Plan) -> Vec<OpEvent> {
    let mut out = Vec::new();
    for c in plan.changes.iter().filter(|c| c.deposed.is_none()) {
        let Some(id) = &c.importing else { continue };
        let e = |kind| OpEvent {
            at_ms: 0,
            address: c.address(),
            deposed: None,
            op: Op::Import,
            prior_id: Some(id.clone()),
            kind,
        };
        out.push(e(OpEventKind::Start));
        out.push(e(OpEventKind::Complete { id: Some(id.clone()) }));
    }
    out
}
