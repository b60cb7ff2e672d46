//! A provider whose answers come from elsewhere, later: [`Answered`] answers each question
//! (plan, refresh, data source read) from a cache, and for a question it has no answer to yet
//! records it and gives a provisional answer, so that a resource node's synchronous planning
//! runs to its end. The plan walk's host (the package's, for JS providers) then gets the
//! recorded questions answered, however asynchronously, adds the answers, and the node plans
//! again, until a run asks nothing new: that last run used real answers only.
//!
//! Provisional answers are what a simple provider would say: the configuration as planned,
//! computed attributes unknown (or the prior's, on update), a refresh that finds the object
//! unchanged. They are often right, so the next pass tends to ask few new questions.

use super::wire::remark;
use super::{Applied, PlannedChange, Provider, ProviderError, ResourceSchema};
use crate::eval::{Kind, Value};
use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};

/// A question a plan walk asks a provider.
#[derive(Clone, Debug)]
pub enum Question {
    Plan { type_name: String, prior: Option<Value>, config: Value },
    Read { type_name: String, prior: Value },
    ReadData { type_name: String, config: Value },
    Import { type_name: String, id: String },
}

impl Question {
    /// The cache key: the method, the type and the inputs as providers see them (unmarked).
    fn key(&self) -> String {
        let w = |v: &Value| super::wire::to_wire(v).to_string();
        match self {
            Question::Plan { type_name, prior, config } => {
                format!("plan\0{type_name}\0{}\0{}", prior.as_ref().map(w).unwrap_or_default(), w(config))
            }
            Question::Read { type_name, prior } => format!("read\0{type_name}\0{}", w(prior)),
            Question::ReadData { type_name, config } => format!("data\0{type_name}\0{}", w(config)),
            Question::Import { type_name, id } => format!("import\0{type_name}\0{id}"),
        }
    }
}

/// A provider's answer to a [`Question`].
#[derive(Clone, Debug)]
pub enum Answer {
    Plan(Result<PlannedChange, ProviderError>),
    Read(Result<Option<Value>, ProviderError>),
    ReadData(Result<Value, ProviderError>),
    Import(Result<Value, ProviderError>),
}

/// See the module documentation.
pub struct Answered {
    source: String,
    resources: BTreeMap<String, ResourceSchema>,
    data_sources: BTreeMap<String, ResourceSchema>,
    answers: RefCell<HashMap<String, Answer>>,
    /// Questions without an answer, in the order first asked (each once).
    asked: RefCell<Vec<(String, Question)>>,
    /// How many questions were answered provisionally so far (each time, not once).
    provisional: std::cell::Cell<usize>,
}

impl Answered {
    pub fn new(
        source: String,
        resources: BTreeMap<String, ResourceSchema>,
        data_sources: BTreeMap<String, ResourceSchema>,
    ) -> Answered {
        Answered {
            source,
            resources,
            data_sources,
            answers: RefCell::default(),
            asked: RefCell::default(),
            provisional: Default::default(),
        }
    }

    /// The questions asked since the last call that have no answer yet.
    pub fn take_questions(&self) -> Vec<(String, Question)> {
        std::mem::take(&mut *self.asked.borrow_mut())
    }

    /// How many answers so far were provisional: a caller compares two counts to tell whether
    /// what the provider said in between was all real.
    pub fn provisional_count(&self) -> usize {
        self.provisional.get()
    }

    /// Records the answer to the question with this key.
    pub fn answer(&self, key: String, answer: Answer) {
        self.answers.borrow_mut().insert(key, answer);
    }

    pub fn schemas(&self) -> (&BTreeMap<String, ResourceSchema>, &BTreeMap<String, ResourceSchema>) {
        (&self.resources, &self.data_sources)
    }

    /// The cached answer, or `None` after recording the question.
    fn lookup(&self, q: Question) -> Option<Answer> {
        let key = q.key();
        if let Some(a) = self.answers.borrow().get(&key) {
            return Some(a.clone());
        }
        self.provisional.set(self.provisional.get() + 1);
        let mut asked = self.asked.borrow_mut();
        if !asked.iter().any(|(k, _)| k == &key) {
            asked.push((key, q));
        }
        None
    }
}

fn with_attr(v: &mut Value, k: &str, x: Value) {
    if let Kind::Object(m) = &mut v.kind {
        m.insert(k.to_string(), x);
    }
}

/// The configuration as planned: computed attributes left null become unknown, or keep the
/// prior object's values.
fn proposed(schema: &ResourceSchema, prior: Option<&Value>, config: &Value) -> Value {
    let mut planned = config.clone();
    for (k, a) in &schema.attributes {
        let unset = match &config.kind {
            Kind::Object(m) => m.get(k).is_none_or(Value::is_null),
            _ => true,
        };
        if a.computed && unset {
            let from_prior = prior.and_then(|p| match &p.kind {
                Kind::Object(m) => m.get(k).cloned(),
                _ => None,
            });
            with_attr(&mut planned, k, from_prior.unwrap_or_else(|| Value::unknown(a.ty.clone())));
        }
    }
    planned
}

impl Provider for Answered {
    fn source(&self) -> &str {
        &self.source
    }
    fn resource_schema(&self, type_name: &str) -> Option<&ResourceSchema> {
        self.resources.get(type_name)
    }
    fn data_source_schema(&self, type_name: &str) -> Option<&ResourceSchema> {
        self.data_sources.get(type_name)
    }
    fn plan_resource_change(
        &self,
        type_name: &str,
        prior: Option<&Value>,
        config: &Value,
    ) -> Result<PlannedChange, ProviderError> {
        let q = Question::Plan {
            type_name: type_name.into(),
            prior: prior.map(|p| p.unmark_deep().0),
            config: config.unmark_deep().0,
        };
        match self.lookup(q) {
            Some(Answer::Plan(Ok(p))) => {
                Ok(PlannedChange { planned: remark(p.planned, config), requires_replace: p.requires_replace })
            }
            Some(Answer::Plan(Err(e))) => Err(e),
            _ => match self.resources.get(type_name) {
                Some(s) => Ok(PlannedChange { planned: proposed(s, prior, config), requires_replace: Vec::new() }),
                None => Err(ProviderError {
                    summary: "Invalid resource type".into(),
                    detail: format!("The provider does not support resource type {type_name:?}."),
                }),
            },
        }
    }
    /// Never asked during a plan: the apply walk asks the provider itself.
    fn apply_resource_change(&self, _type_name: &str, prior: Option<&Value>, _planned: Option<&Value>) -> Applied {
        Applied {
            new_state: prior.cloned(),
            error: Some(ProviderError {
                summary: "Provider not available to apply".into(),
                detail: "This provider answers plan-time questions only.".into(),
            }),
        }
    }
    fn read_resource(&self, type_name: &str, prior: &Value) -> Result<Option<Value>, ProviderError> {
        match self.lookup(Question::Read { type_name: type_name.into(), prior: prior.unmark_deep().0 }) {
            Some(Answer::Read(r)) => r.map(|v| v.map(|v| remark(v, prior))),
            _ => Ok(Some(prior.clone())),
        }
    }
    fn import_resource_state(&self, type_name: &str, id: &str) -> Result<Value, ProviderError> {
        match self.lookup(Question::Import { type_name: type_name.into(), id: id.into() }) {
            Some(Answer::Import(r)) => r,
            _ => match self.resources.get(type_name) {
                Some(s) => Ok(super::imported_object(s, id)),
                None => Err(super::cannot_import(type_name)),
            },
        }
    }
    fn read_data_source(&self, type_name: &str, config: &Value) -> Result<Value, ProviderError> {
        match self.lookup(Question::ReadData { type_name: type_name.into(), config: config.unmark_deep().0 }) {
            Some(Answer::ReadData(r)) => r.map(|v| remark(v, config)),
            _ => match self.data_sources.get(type_name) {
                Some(s) => Ok(proposed(s, None, config)),
                None => Err(ProviderError {
                    summary: "Invalid data source".into(),
                    detail: format!("The provider does not support data source {type_name:?}."),
                }),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Type;
    use crate::providers::AttributeSchema;

    fn provider() -> Answered {
        let attr = |computed: bool| AttributeSchema {
            ty: Type::String,
            optional: !computed,
            computed,
            required: false,
            sensitive: false,
            requires_replace: false,
        };
        let s = ResourceSchema {
            version: 0,
            blocks: Default::default(),
            attributes: [("name".to_string(), attr(false)), ("id".to_string(), attr(true))].into_iter().collect(),
        };
        Answered::new(
            "registry.terraform.io/acme/x".into(),
            [("x_thing".to_string(), s)].into_iter().collect(),
            BTreeMap::new(),
        )
    }

    fn cfg(name: &str) -> Value {
        Value::object(
            [("name".to_string(), Value::string(name)), ("id".to_string(), Value::null(Type::String))]
                .into_iter()
                .collect(),
        )
    }

    #[test]
    fn records_once_answers_provisionally_then_from_the_cache() {
        let p = provider();
        let first = p.plan_resource_change("x_thing", None, &cfg("a")).unwrap();
        assert!(!first.planned.is_wholly_known(), "provisional: the computed id is unknown");
        let _ = p.plan_resource_change("x_thing", None, &cfg("a"));
        assert_eq!(p.provisional_count(), 2, "each provisional answer counts");
        let qs = p.take_questions();
        assert_eq!(qs.len(), 1);
        let known = Value::object(
            [("name".to_string(), Value::string("a")), ("id".to_string(), Value::string("i-1"))].into_iter().collect(),
        );
        p.answer(qs[0].0.clone(), Answer::Plan(Ok(PlannedChange { planned: known.clone(), requires_replace: vec![] })));
        let second = p.plan_resource_change("x_thing", None, &cfg("a")).unwrap();
        assert!(second.planned.raw_equal(&known));
        assert!(p.take_questions().is_empty());
        assert_eq!(p.provisional_count(), 2, "a real answer does not count");
    }

    #[test]
    fn a_provider_error_is_the_answer() {
        let p = provider();
        let _ = p.read_resource("x_thing", &cfg("a"));
        let (key, _) = p.take_questions().pop().unwrap();
        p.answer(key, Answer::Read(Err(ProviderError { summary: "boom".into(), detail: String::new() })));
        assert_eq!(p.read_resource("x_thing", &cfg("a")).unwrap_err().summary, "boom");
    }
}
