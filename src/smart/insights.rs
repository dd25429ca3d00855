//! Productivity insights from the user's own stored mail (spec 001 "Smart features": the
//! earlier product showed a fixed 85%): mail received and sent over the last 30 days, how long
//! replies took (a sent mail's In-Reply-To matched to the received mail's date), the share of
//! mail needing a reply that got one, the needs-reply backlog, the busiest senders and weekday.
//! One read transaction over the index and the records of the period; no AI.

use std::collections::{HashMap, HashSet};

use serde::Serialize;
use ts_rs::TS;

use crate::emails;
use crate::error::Result;
use crate::mailstore::{MailRead, flags};
use crate::store::Store;

pub const PERIOD_DAYS: i64 = 30;
const DAY: i64 = 86_400;
/// Records read at most (a huge mailbox's month stays bounded).
const MAX_RECORDS: usize = 50_000;
const TOP_SENDERS: usize = 5;

/// `GET /api/smart/insights`.
#[derive(Debug, Default, Serialize, PartialEq, TS)]
#[serde(rename_all = "camelCase")]
pub struct Insights {
    pub period_days: i64,
    pub received: usize,
    pub sent: usize,
    pub reply_time: ReplyTime,
    /// answered ÷ (answered + still waiting for a reply); null when there is neither.
    pub reply_rate: Option<f64>,
    pub needs_reply: Backlog,
    pub busiest_senders: Vec<Sender>,
    pub busiest_day: Option<BusiestDay>,
}

// The parts get an `Insights` prefix in TypeScript: the generated file holds every feature's types.
#[derive(Debug, Default, Serialize, PartialEq, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "InsightsReplyTime")]
pub struct ReplyTime {
    pub median_hours: Option<f64>,
    pub average_hours: Option<f64>,
    pub samples: usize,
}

#[derive(Debug, Default, Serialize, PartialEq, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "InsightsBacklog")]
pub struct Backlog {
    pub count: usize,
    pub urgent: usize,
    pub oldest_days: Option<i64>,
}

#[derive(Debug, Serialize, PartialEq, TS)]
#[ts(rename = "InsightsSender")]
pub struct Sender {
    pub address: String,
    pub name: String,
    pub count: usize,
}

#[derive(Debug, Serialize, PartialEq, TS)]
#[ts(rename = "InsightsBusiestDay")]
pub struct BusiestDay {
    /// 0 = Sunday.
    pub weekday: u8,
    pub count: usize,
}

fn hours(secs: i64) -> f64 {
    (secs as f64 / 3600.0 * 10.0).round() / 10.0
}

/// Insights at `now`; `tz_offset_secs` places days in the user's time zone.
pub fn compute(store: &Store, user_id: u64, now: i64, tz_offset_secs: i64) -> Result<Insights> {
    let accounts = crate::accounts::list_for_user(store, user_id)?;
    let own: Vec<String> = accounts.iter().map(|a| a.email.to_lowercase()).collect();
    let since = now - PERIOD_DAYS * DAY;
    // Replies sent this month may answer mail from the month before.
    let originals_since = since - PERIOD_DAYS * DAY;
    let mail = MailRead::new(store)?;

    let mut out = Insights {
        period_days: PERIOD_DAYS,
        ..Insights::default()
    };
    let mut received_at: HashMap<String, i64> = HashMap::new();
    let mut senders: HashMap<String, (String, usize)> = HashMap::new();
    let mut weekdays = [0usize; 7];
    let (mut answered, mut waiting) = (0usize, 0usize);
    let mut sent_replies: Vec<(i64, String)> = Vec::new();
    let mut oldest_waiting: Option<i64> = None;
    let mut read = 0usize;
    let mut counted: HashSet<String> = HashSet::new();

    for account in &accounts {
        for folder in mail.folders(account.id)? {
            let role = folder.role.as_str();
            // The backlog: every mail waiting for a reply, however old, in the folders the
            // needs-reply count covers (the index alone).
            if emails::listing::waits_for_user(role) {
                for row in mail.rows(account.id, &folder.name)? {
                    let row = row?;
                    let bits = row.view().bits();
                    if flags::status_of(bits) == Some("needs_reply") && bits & flags::HIDDEN == 0 {
                        let date = row.date();
                        oldest_waiting = Some(oldest_waiting.map_or(date, |d: i64| d.min(date)));
                    }
                }
            }
            let incoming = matches!(role, "inbox" | "archive");
            if !incoming && role != "sent" {
                continue;
            }
            let from = if incoming { originals_since } else { since };
            // Newest first: when a huge mailbox hits the cap, the older mail is what goes.
            for row in mail.rows_from(account.id, &folder.name, from)?.rev() {
                if read >= MAX_RECORDS {
                    break;
                }
                let row = row?;
                if row.view().bits() & (flags::HIDDEN | flags::DRAFT) != 0 {
                    continue;
                }
                let Some(meta) = mail.meta(row.id())? else {
                    continue;
                };
                read += 1;
                let s = &meta.summary;
                if !incoming {
                    if meta.date >= since {
                        out.sent += 1;
                        if let Some(irt) = &s.in_reply_to {
                            sent_replies.push((meta.date, irt.clone()));
                        }
                    }
                    continue;
                }
                if own.contains(&s.from.to_lowercase()) {
                    continue;
                }
                if let Some(mid) = &s.message_id {
                    received_at.insert(mid.clone(), meta.date);
                }
                // The same mail in two folders (copied, not moved) counts once.
                if meta.date < since
                    || s.message_id
                        .as_ref()
                        .is_some_and(|m| !counted.insert(m.clone()))
                {
                    continue;
                }
                out.received += 1;
                let entry = senders
                    .entry(s.from.to_lowercase())
                    .or_insert_with(|| (s.from_name.trim().to_string(), 0));
                entry.1 += 1;
                if entry.0.is_empty() {
                    entry.0 = s.from_name.trim().to_string();
                }
                let weekday = (meta.date + tz_offset_secs).div_euclid(DAY) + 4; // 1970-01-01 was a Thursday
                weekdays[weekday.rem_euclid(7) as usize] += 1;
                if meta.answered {
                    answered += 1;
                } else if meta.status.as_deref() == Some("needs_reply") {
                    waiting += 1;
                }
            }
        }
    }

    let mut delays: Vec<i64> = sent_replies
        .iter()
        .filter_map(|(sent, irt)| received_at.get(irt).map(|got| sent - got))
        .filter(|d| (0..=PERIOD_DAYS * DAY).contains(d))
        .collect();
    delays.sort_unstable();
    if !delays.is_empty() {
        let n = delays.len();
        let median = if n % 2 == 1 {
            delays[n / 2]
        } else {
            (delays[n / 2 - 1] + delays[n / 2]) / 2
        };
        out.reply_time = ReplyTime {
            median_hours: Some(hours(median)),
            average_hours: Some(hours(delays.iter().sum::<i64>() / n as i64)),
            samples: n,
        };
    }
    if answered + waiting > 0 {
        out.reply_rate =
            Some((answered as f64 / (answered + waiting) as f64 * 100.0).round() / 100.0);
    }
    let counts = emails::listing::counts(store, user_id)?;
    out.needs_reply = Backlog {
        count: counts.needs_reply,
        urgent: counts.urgent,
        oldest_days: oldest_waiting.map(|d| ((now - d).max(0)) / DAY),
    };
    let mut top: Vec<Sender> = senders
        .into_iter()
        .map(|(address, (name, count))| Sender {
            address,
            name,
            count,
        })
        .collect();
    top.sort_by(|a, b| {
        b.count
            .cmp(&a.count)
            .then_with(|| a.address.cmp(&b.address))
    });
    top.truncate(TOP_SENDERS);
    out.busiest_senders = top;
    out.busiest_day = weekdays
        .iter()
        .enumerate()
        .filter(|(_, c)| **c > 0)
        .max_by(|a, b| a.1.cmp(b.1).then_with(|| b.0.cmp(&a.0)))
        .map(|(d, c)| BusiestDay {
            weekday: d as u8,
            count: *c,
        });
    Ok(out)
}
