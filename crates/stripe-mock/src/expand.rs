//! `expand[]` paths such as `subscription.default_payment_method`.

/// The expansion paths that apply at one level of an object.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Expand {
    paths: Vec<String>,
}

impl Expand {
    pub fn none() -> Self {
        Self::default()
    }

    pub fn new(paths: Vec<String>) -> Self {
        Self { paths }
    }

    /// `Some(children)` when `field` itself is expanded (`subscription` or
    /// `subscription.default_payment_method` both expand `subscription`).
    pub fn child(&self, field: &str) -> Option<Expand> {
        let mut found = false;
        let mut children = Vec::new();
        for path in &self.paths {
            if path == field {
                found = true;
            } else if let Some(rest) = path.strip_prefix(field).and_then(|r| r.strip_prefix('.')) {
                found = true;
                children.push(rest.to_owned());
            }
        }
        found.then(|| Expand::new(children))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_nested_path_expands_every_level() {
        let e = Expand::new(vec!["subscription.default_payment_method".into()]);
        let sub = e.child("subscription").expect("subscription expanded");
        assert!(sub.child("default_payment_method").is_some());
        assert!(sub.child("customer").is_none());
        assert!(e.child("customer").is_none());
    }

    #[test]
    fn dotted_field_names_match_whole_segments_only() {
        let e = Expand::new(vec!["invoice_settings.default_payment_method".into()]);
        assert!(e.child("invoice_settings.default_payment_method").is_some());
        assert!(e.child("invoice").is_none());
    }
}
