//! Scenario states: the one piece of state a mock set has. A [`MockSet`](crate::MockSet)
//! stays immutable and shared; whoever answers requests from it keeps a [`Scenarios`] and
//! starts a new one whenever the set changes, as WireMock resets scenarios when its
//! mappings are reloaded.

use std::collections::HashMap;

use crate::{ScenarioStep, Stub};

/// The state every scenario starts in (WireMock's name for it).
pub(crate) const STARTED: &str = "Started";

/// The current state of each scenario (those never moved are in [`STARTED`]).
#[derive(Debug, Clone, Default)]
pub struct Scenarios {
    states: HashMap<String, String>,
}

impl Scenarios {
    pub fn state(&self, scenario: &str) -> &str {
        self.states.get(scenario).map_or(STARTED, String::as_str)
    }

    /// Whether `step`'s stub may answer now.
    pub(crate) fn allows(&self, step: &ScenarioStep) -> bool {
        step.required
            .as_deref()
            .is_none_or(|required| required == self.state(&step.scenario))
    }

    /// Moves `stub`'s scenario on after it answered.
    pub fn advance(&mut self, stub: &Stub) {
        if let Some(ScenarioStep {
            scenario,
            next: Some(next),
            ..
        }) = &stub.scenario
        {
            self.states.insert(scenario.clone(), next.clone());
        }
    }
}
