//! Stripe's form encoding: `line_items[0][price]=x&metadata[user_id]=7&expand[]=customer`.
//!
//! Keys are percent-decoded first, so both `a[b]` and `a%5Bb%5D` (what serde_qs sends) work.
//! Objects whose keys are all numbers become arrays ordered by index; `[]` appends.

use serde_json::{Map, Value};

/// Parses a form-encoded body or query string into nested JSON (all leaves are strings).
pub fn parse(input: &[u8]) -> Value {
    let mut root = Value::Object(Map::new());
    for (key, value) in form_urlencoded::parse(input) {
        let path = split_key(&key);
        insert(&mut root, &path, value.into_owned());
    }
    arrayify(root)
}

pub(crate) fn split_key(key: &str) -> Vec<String> {
    let (head, rest) = match key.find('[') {
        Some(i) => (&key[..i], &key[i..]),
        None => return vec![key.to_owned()],
    };
    let mut parts = vec![head.to_owned()];
    let mut rest = rest;
    while let Some(stripped) = rest.strip_prefix('[') {
        match stripped.find(']') {
            Some(end) => {
                parts.push(stripped[..end].to_owned());
                rest = &stripped[end + 1..];
            }
            None => {
                // An unbalanced bracket: keep the remainder as a literal segment.
                parts.push(stripped.to_owned());
                rest = "";
            }
        }
    }
    parts
}

fn insert(node: &mut Value, path: &[String], value: String) {
    let Some((first, rest)) = path.split_first() else {
        return;
    };
    if first.is_empty() {
        // `name[]`: append to an array.
        if !node.is_array() {
            *node = Value::Array(Vec::new());
        }
        let array = node.as_array_mut().expect("just made an array");
        if rest.is_empty() {
            array.push(Value::String(value));
        } else {
            let mut child = Value::Object(Map::new());
            insert(&mut child, rest, value);
            array.push(child);
        }
        return;
    }
    if !node.is_object() {
        *node = Value::Object(Map::new());
    }
    let map = node.as_object_mut().expect("just made an object");
    if rest.is_empty() {
        map.insert(first.clone(), Value::String(value));
    } else {
        let child = map
            .entry(first.clone())
            .or_insert_with(|| Value::Object(Map::new()));
        insert(child, rest, value);
    }
}

fn arrayify(value: Value) -> Value {
    match value {
        Value::Object(map) => {
            let numeric = !map.is_empty() && map.keys().all(|k| k.parse::<usize>().is_ok());
            if numeric {
                let mut items: Vec<(usize, Value)> = map
                    .into_iter()
                    .map(|(k, v)| (k.parse().unwrap_or(0), arrayify(v)))
                    .collect();
                items.sort_by_key(|(i, _)| *i);
                Value::Array(items.into_iter().map(|(_, v)| v).collect())
            } else {
                Value::Object(map.into_iter().map(|(k, v)| (k, arrayify(v))).collect())
            }
        }
        Value::Array(items) => Value::Array(items.into_iter().map(arrayify).collect()),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn nested_keys_become_objects_and_arrays() {
        let v = parse(
            b"line_items[0][price]=price_1&line_items[0][quantity]=1&metadata[user_id]=u7&mode=subscription",
        );
        assert_eq!(
            v,
            json!({"line_items": [{"price": "price_1", "quantity": "1"}],
                   "metadata": {"user_id": "u7"}, "mode": "subscription"})
        );
    }

    #[test]
    fn percent_encoded_brackets_and_both_expand_styles_parse() {
        let v = parse(b"expand%5B0%5D=subscription&expand%5B1%5D=customer");
        assert_eq!(v, json!({"expand": ["subscription", "customer"]}));
        let v = parse(b"expand[]=a&expand[]=b.c");
        assert_eq!(v, json!({"expand": ["a", "b.c"]}));
    }

    #[test]
    fn indices_are_ordered_numerically_not_lexically() {
        let v = parse(b"x[10]=ten&x[2]=two");
        assert_eq!(v, json!({"x": ["two", "ten"]}));
    }

    #[test]
    fn values_are_decoded() {
        let v = parse(b"success_url=http%3A%2F%2Fa%2Fs%3Fid%3D%7BCHECKOUT_SESSION_ID%7D&e=a+b");
        assert_eq!(
            v,
            json!({"success_url": "http://a/s?id={CHECKOUT_SESSION_ID}", "e": "a b"})
        );
    }
}
