use std::collections::HashMap;

/// Where a report's sources come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReportSource {
    Web,
    Local,
    Hybrid,
}

pub struct Planner {
    weights: HashMap<&'static str, f64>,
}

impl Planner {
    /// A planner with no weights.
    #[must_use]
    pub fn new() -> Self {
        Planner {
            weights: HashMap::new(),
        }
    }

    pub fn plan(&self, source: ReportSource) -> Vec<&'static str> {
        match source {
            ReportSource::Web => vec!["web"],
            ReportSource::Local => vec!["local"],
            ReportSource::Hybrid => {
                let mut both = vec!["web", "local"];
                both.sort_by(|a, b| self.weight(b).total_cmp(&self.weight(a)));
                both
            }
        }
    }

    fn weight(&self, name: &str) -> f64 {
        self.weights.get(name).copied().unwrap_or(1.0)
    }
}
