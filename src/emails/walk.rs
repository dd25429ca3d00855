//! Walking a listing in date order from the newest (or oldest) message, reading only as far as
//! the page needs: one stream per folder's index, or per tag (a status, starred) when the
//! listing is a status or the filter names one, merged by date. The totals come from the
//! store's counters instead (`counting.rs`), so nothing here grows with the mailbox.

use std::collections::HashMap;

use super::listing::{ListOptions, Selector};
use crate::error::Result;
use crate::mailstore::{FolderState, MailRead, tag_of_status, tags};

/// A folder a listing reads.
pub struct Source {
    pub account: u64,
    pub folder: FolderState,
}

/// One message met on the walk.
#[derive(Debug, Clone, Copy)]
pub struct Item {
    pub date: i64,
    pub id: u64,
    /// Index into the listing's sources.
    pub source: usize,
    pub bits: u16,
    pub thread: u64,
}

type Stream<'a> = Box<dyn Iterator<Item = Result<Item>> + 'a>;

/// The listing's messages that `sel` and `opts` keep, newest first (oldest first when
/// `ascending`), merged from the fewest rows that can hold them.
pub fn walk<'a>(
    mail: &'a MailRead,
    sources: &'a [Source],
    sel: &'a Selector,
    opts: &'a ListOptions,
    ascending: bool,
) -> Result<impl Iterator<Item = Result<Item>> + 'a> {
    let mut streams: Vec<Stream<'a>> = Vec::new();
    let tag_streams = |tags: &[u8], streams: &mut Vec<Stream<'a>>| -> Result<()> {
        let mut accounts: Vec<u64> = sources.iter().map(|s| s.account).collect();
        accounts.dedup();
        for account in accounts {
            for tag in tags {
                streams.push(tagged(mail, sources, account, *tag, ascending)?);
            }
        }
        Ok(())
    };
    match sel {
        Selector::Starred => tag_streams(&[tags::FLAGGED], &mut streams)?,
        Selector::Status {
            statuses,
            also_role,
        } => {
            let codes: Vec<u8> = statuses.iter().filter_map(|s| tag_of_status(s)).collect();
            tag_streams(&codes, &mut streams)?;
            // Mail without a status in the folder of `also_role` (the tag streams bring the
            // rest).
            for (i, s) in sources.iter().enumerate() {
                if also_role.is_some_and(|r| s.folder.role == r) {
                    streams.push(folder(mail, sources, i, ascending, true)?);
                }
            }
        }
        _ => match opts.status.as_deref().and_then(tag_of_status) {
            Some(tag) => tag_streams(&[tag], &mut streams)?,
            None if opts.starred => tag_streams(&[tags::FLAGGED], &mut streams)?,
            None => {
                for i in 0..sources.len() {
                    streams.push(folder(mail, sources, i, ascending, false)?);
                }
            }
        },
    }
    let merged = Merge {
        heads: streams.into_iter().map(|s| (s, None, false)).collect(),
        ascending,
    };
    Ok(merged.filter(move |item| match item {
        Ok(it) => {
            let role = sources[it.source].folder.role.as_str();
            sel.row_matches(role, it.bits) && opts.keeps(it.bits)
        }
        Err(_) => true,
    }))
}

/// Rows in date order, oldest first when `ascending`, else newest first.
fn directed<'a, I>(rows: I, ascending: bool) -> Box<dyn Iterator<Item = I::Item> + 'a>
where
    I: DoubleEndedIterator + 'a,
{
    if ascending {
        Box::new(rows)
    } else {
        Box::new(rows.rev())
    }
}

/// A folder's index rows; with `untriaged_only`, only mail without a status.
fn folder<'a>(
    mail: &'a MailRead,
    sources: &'a [Source],
    source: usize,
    ascending: bool,
    untriaged_only: bool,
) -> Result<Stream<'a>> {
    let s = &sources[source];
    let rows = directed(mail.rows(s.account, &s.folder.name)?, ascending);
    Ok(Box::new(
        rows.map(move |r| {
            let r = r?;
            let view = r.view();
            Ok(Item {
                date: r.date(),
                id: r.id(),
                source,
                bits: view.bits(),
                thread: view.thread(),
            })
        })
        .filter(move |it: &Result<Item>| {
            !untriaged_only
                || it.as_ref().map_or(true, |it| {
                    it.bits >> crate::mailstore::flags::STATUS_SHIFT == 0
                })
        }),
    ))
}

/// An account's messages carrying `tag`, in the listing's folders.
fn tagged<'a>(
    mail: &'a MailRead,
    sources: &'a [Source],
    account: u64,
    tag: u8,
    ascending: bool,
) -> Result<Stream<'a>> {
    let by_name: HashMap<&str, usize> = sources
        .iter()
        .enumerate()
        .filter(|(_, s)| s.account == account)
        .map(|(i, s)| (s.folder.name.as_str(), i))
        .collect();
    let rows = directed(mail.tagged(account, tag)?, ascending);
    Ok(Box::new(rows.filter_map(move |r| {
        let r = match r {
            Ok(r) => r,
            Err(e) => return Some(Err(e.into())),
        };
        let source = *by_name.get(r.folder.as_str())?;
        match mail.index_entry(account, &r.folder, r.date, r.id) {
            Ok(Some(e)) => Some(Ok(Item {
                date: r.date,
                id: r.id,
                source,
                bits: e.bits,
                thread: e.thread,
            })),
            Ok(None) => None,
            Err(e) => Some(Err(e.into())),
        }
    })))
}

/// Streams merged by (date, id): a handful of streams, so the next head is found by a scan.
struct Merge<'a> {
    /// Each stream, its next item, and whether it has ended.
    heads: Vec<(Stream<'a>, Option<Item>, bool)>,
    ascending: bool,
}

impl Iterator for Merge<'_> {
    type Item = Result<Item>;

    fn next(&mut self) -> Option<Self::Item> {
        let mut best: Option<usize> = None;
        for i in 0..self.heads.len() {
            if self.heads[i].2 {
                continue;
            }
            if self.heads[i].1.is_none() {
                match self.heads[i].0.next() {
                    Some(Ok(it)) => self.heads[i].1 = Some(it),
                    Some(Err(e)) => return Some(Err(e)),
                    None => {
                        self.heads[i].2 = true;
                        continue;
                    }
                }
            }
            let it = self.heads[i].1.expect("filled above");
            let better = match best.and_then(|b| self.heads[b].1) {
                None => true,
                Some(b) if self.ascending => (it.date, it.id) < (b.date, b.id),
                Some(b) => (it.date, it.id) > (b.date, b.id),
            };
            if better {
                best = Some(i);
            }
        }
        best.and_then(|b| self.heads[b].1.take()).map(Ok)
    }
}
