//! `stats`: the figures from the store and a per-day sign-up chart drawn with block characters.

use closewise_core::store::stats::{DayCount, Stats};

use crate::ctx::Ctx;
use crate::opt::StatsArgs;
use crate::print::{self, fields};

pub async fn stats(ctx: &Ctx, a: StatsArgs) -> anyhow::Result<()> {
    let s = ctx.ops.stats(a.days).await?;
    if a.output.json {
        return print::json(&s);
    }
    println!("{}", render(&s));
    Ok(())
}

fn money(cents: i64) -> String {
    format!("${}.{:02}", cents / 100, cents % 100)
}

pub fn render(s: &Stats) -> String {
    let mut out = format!("Last {} days (since {}, UTC)\n", s.days, s.since);
    out.push_str(&fields(&[
        ("sign-ups", s.signups.to_string()),
        (
            "verified",
            format!("{} ({:.1}%)", s.verified, pct(s.verified, s.signups)),
        ),
        (
            "converted to paid",
            format!("{} ({:.1}%)", s.converted, s.conversion_percent),
        ),
        (
            "paying now",
            format!("{} of {} accounts", s.paid, s.total_users),
        ),
        (
            "MRR",
            format!(
                "{} ({} live subscriptions)",
                money(s.mrr_cents),
                s.active_subscriptions
            ),
        ),
        (
            "churn",
            format!("{} ended ({:.1}%)", s.churned, s.churn_percent),
        ),
    ]));
    let c = &s.cancellations;
    out.push_str(&format!(
        "\n\nCancellations: {} set to end, {} resumed\n",
        c.cancelled, c.resumed
    ));
    for r in &c.reasons {
        out.push_str(&format!("  {:>4}  {}\n", r.count, r.label));
    }
    out.push_str("\nSign-ups per day\n");
    out.push_str(&chart(&s.per_day, 40));
    out
}

fn pct(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 * 100.0 / whole as f64
    }
}

/// One bar per day, scaled to `width` columns at the busiest day, in eighths of a block.
pub fn chart(days: &[DayCount], width: usize) -> String {
    const PARTS: [char; 8] = ['▏', '▎', '▍', '▌', '▋', '▊', '▉', '█'];
    let max = days.iter().map(|d| d.signups).max().unwrap_or(0).max(1);
    days.iter()
        .map(|d| {
            let eighths = (d.signups * width as u64 * 8).div_ceil(max) as usize;
            let mut bar = "█".repeat(eighths / 8);
            if !eighths.is_multiple_of(8) {
                bar.push(PARTS[eighths % 8 - 1]);
            }
            format!("  {} {:>4} {bar}", d.day, d.signups)
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(n: u64) -> DayCount {
        DayCount {
            day: "2026-11-22".into(),
            signups: n,
        }
    }

    #[test]
    fn the_busiest_day_fills_the_width_and_an_empty_day_draws_nothing() {
        let c = chart(&[day(4), day(0), day(1)], 8);
        let lines: Vec<&str> = c.lines().collect();
        assert_eq!(lines[0], "  2026-11-22    4 ████████");
        assert_eq!(lines[1], "  2026-11-22    0 ");
        assert_eq!(lines[2], "  2026-11-22    1 ██");
    }

    #[test]
    fn money_is_written_in_dollars_and_cents() {
        assert_eq!(money(4000), "$40.00");
        assert_eq!(money(2005), "$20.05");
    }
}
