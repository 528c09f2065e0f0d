//! Token counts as servers report them, read without trusting them: any JSON number is taken
//! and clamped into `u32` (negative → 0, beyond `u32::MAX` or a float like `4e9` → the
//! nearest representable count), anything else counts as not reported. A server sending
//! `18446744073709551615` must cost a wrong number in the usage table, not a failed call or an
//! overflow further down.

use serde::{Deserialize, Deserializer};
use serde_json::Value;

/// A count from any JSON value; `None` for anything that is not a number.
fn clamp(value: &Value) -> Option<u32> {
    let Value::Number(number) = value else {
        return None;
    };
    if let Some(n) = number.as_u64() {
        return Some(u32::try_from(n).unwrap_or(u32::MAX));
    }
    if number.as_i64().is_some() {
        // Only negative integers get here.
        return Some(0);
    }
    // `as` saturates for floats and maps NaN to 0, which is what a count wants.
    number.as_f64().map(|f| f as u32)
}

/// For `#[serde(default, deserialize_with = "…")]` fields: missing or not a number is 0.
pub(crate) fn saturating<'de, D: Deserializer<'de>>(deserializer: D) -> Result<u32, D::Error> {
    Ok(clamp(&Value::deserialize(deserializer)?).unwrap_or(0))
}

/// For optional counts: `None` when missing, null or not a number.
pub(crate) fn saturating_opt<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<u32>, D::Error> {
    Ok(clamp(&Value::deserialize(deserializer)?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_number_clamps_into_u32() {
        let cases = [
            (json!(12), Some(12)),
            (json!(u64::MAX), Some(u32::MAX)),
            (json!(4_000_000_000u64), Some(4_000_000_000)),
            (json!(5_000_000_000u64), Some(u32::MAX)),
            (json!(4e9), Some(4_000_000_000)),
            (json!(1e300), Some(u32::MAX)),
            (json!(-5), Some(0)),
            (json!(-1.5), Some(0)),
            (json!(7.9), Some(7)),
            (json!("12"), None),
            (json!(null), None),
            (json!({"n": 1}), None),
        ];
        for (value, expected) in cases {
            assert_eq!(clamp(&value), expected, "{value}");
        }
    }
}
