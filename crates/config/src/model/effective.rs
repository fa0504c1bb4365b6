//! A site's effective configuration over its profile. The platform's merge is not public,
//! so this rule is ours (the guide's repository page says it): the site over the profile,
//! objects merged key by key at every depth, any other value (arrays included) replaced.

use serde_json::Value;

/// `site` laid over `profile`.
pub fn over(profile: &Value, site: &Value) -> Value {
    match (profile, site) {
        (Value::Object(below), Value::Object(above)) => {
            let mut merged = below.clone();
            for (key, value) in above {
                let next = match below.get(key) {
                    Some(under) => over(under, value),
                    None => value.clone(),
                };
                merged.insert(key.clone(), next);
            }
            Value::Object(merged)
        }
        (_, above) => above.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn objects_merge_key_by_key_and_other_values_are_replaced() {
        let profile = json!({
            "headers": {"/**": [{"key": "a", "value": "1"}]},
            "sidekick": {"project": "P", "host": "p.example"},
            "robots": {"txt": "profile"}
        });
        let site = json!({
            "headers": {"/**": [{"key": "b", "value": "2"}], "/x": []},
            "sidekick": {"project": "S"},
            "name": "web"
        });
        assert_eq!(
            over(&profile, &site),
            json!({
                "headers": {"/**": [{"key": "b", "value": "2"}], "/x": []},
                "sidekick": {"project": "S", "host": "p.example"},
                "robots": {"txt": "profile"},
                "name": "web"
            })
        );
    }
}
