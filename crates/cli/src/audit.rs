//! `closewise audit`, and the audit rows as the account and team screens print them.

use closewise_core::store::audit::AuditRow;
use serde_json::Value;

use crate::ctx::Ctx;
use crate::opt::AuditArgs;
use crate::print::{self, table, when};

/// Audit rows for JSON: `details` as the JSON it holds, not as a string.
pub(crate) fn audit_json(rows: &[AuditRow]) -> Vec<Value> {
    rows.iter()
        .map(|r| {
            let mut v = serde_json::to_value(r).unwrap_or(Value::Null);
            v["details"] = serde_json::from_str(&r.details).unwrap_or(Value::Null);
            v
        })
        .collect()
}

pub(crate) fn audit_table(rows: &[AuditRow], with_target: bool) -> String {
    let rows: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            let mut row = vec![when(r.created_at), r.actor.clone(), r.action.clone()];
            if with_target {
                row.push(r.target_email.clone().unwrap_or_else(|| "-".into()));
            }
            row.push(r.reason.clone().unwrap_or_else(|| "-".into()));
            row.push(r.details.clone());
            row
        })
        .collect();
    if with_target {
        table(&["WHEN", "WHO", "WHAT", "ACCOUNT", "WHY", "DETAILS"], &rows)
    } else {
        table(&["WHEN", "WHO", "WHAT", "WHY", "DETAILS"], &rows)
    }
}

pub async fn audit(ctx: &Ctx, a: AuditArgs) -> anyhow::Result<()> {
    let rows = ctx.ops.audit_log(a.limit).await?;
    if a.output.json {
        return print::json(&audit_json(&rows));
    }
    if rows.is_empty() {
        println!("No operator changes yet.");
    } else {
        println!("{}", audit_table(&rows, true));
    }
    Ok(())
}
