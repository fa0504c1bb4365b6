//! The filter's parts; whole answers are checked against the reference in the json
//! pipe's tests.

use super::*;

fn query(q: &str) -> JsonQuery {
    JsonQuery::from_url(&Url::parse(&format!("https://h/d.json{q}")).unwrap())
}

#[test]
fn parameters_read_as_the_reference_reads_them() {
    let q = query("");
    assert!(q.raw);
    assert_eq!((q.limit, q.offset), (None, None));
    // An empty parameter is present (no stored bytes) but has no value.
    let q = query("?limit=&sheet=");
    assert!(!q.raw);
    assert_eq!(q.limit, None);
    assert!(q.sheets.is_empty());
    // The last `limit` wins; every `sheet` counts when the last is not empty.
    let q = query("?limit=5&limit=7x&sheet=&sheet=a+b&sheet=c");
    assert_eq!(q.limit, Some(7.0));
    assert_eq!(q.sheets, ["", "a b", "c"]);
    let q = query("?sheet=a&sheet=");
    assert!(q.sheets.is_empty());
    assert!(query("?offset=x").offset.unwrap().is_nan());
}

#[test]
fn slices_as_javascript_slices() {
    // node -e 'console.log([1,2,3,4].slice(a, b))'
    assert_eq!(slice_bounds(4, 1.0, 3.0), (1, 3));
    assert_eq!(slice_bounds(4, -2.0, 10.0), (2, 4));
    assert_eq!(slice_bounds(4, 0.0, -1.0), (0, 3));
    assert_eq!(slice_bounds(4, 1.0, f64::NAN), (1, 1));
    assert_eq!(slice_bounds(4, 3.0, 1.0), (3, 3));
    assert_eq!(slice_bounds(4, 1e300, 2e300), (4, 4));
    assert_eq!(slice_bounds(4, -1e300, 1e300), (0, 4));
}

#[test]
fn stored_bytes_stay_unless_filtered_or_multi_sheet() {
    let raw = query("");
    assert_eq!(
        filter(br#"{"data":[1]}"#, SourceBus::Content, &raw),
        Ok(Filtered::Stored)
    );
    assert_eq!(
        filter(b"not json", SourceBus::Content, &raw),
        Ok(Filtered::StoredAsText)
    );
    assert_eq!(
        filter(br#"{":names":[],"x":1}"#, SourceBus::Content, &raw),
        Ok(Filtered::Json(
            r#"{":version":3,":names":[],":type":"multi-sheet"}"#.to_owned()
        ))
    );
}
