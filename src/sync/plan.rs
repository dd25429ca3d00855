//! Planning a folder's fetches, pure: the UIDs the server holds (its compact `1:5,9,100:200`
//! sequence set, or a SEARCH list), walked in windows newest or oldest first, and each window's
//! messages cut into body FETCHes bounded by count and by bytes.

/// The order a walk takes: the initial sync goes down from the newest, new mail up from `top`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Order {
    NewestFirst,
    OldestFirst,
}

/// A set of UIDs as sorted, disjoint, non-adjacent inclusive ranges: as small as the server's
/// sequence set however sparse (Gmail) or dense (Dovecot) the folder is.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct UidSet {
    ranges: Vec<(u32, u32)>,
}

impl UidSet {
    /// Every UID of `lo..=hi` (empty when `lo > hi`).
    pub fn range(lo: u32, hi: u32) -> Self {
        let mut set = Self::default();
        set.push(lo, hi);
        set
    }

    /// Parses a sequence set of UIDs (`1:5,9,100:200`, as an ESEARCH `ALL` gives it; the empty
    /// string is the empty set). Ranges may come in any order, reversed (`9:7`) or
    /// overlapping. `*`, 0 and anything else that is not a number are refused.
    pub fn parse(text: &str) -> Option<Self> {
        let text = text.trim();
        let mut ranges = Vec::new();
        if !text.is_empty() {
            for part in text.split(',') {
                let (a, b) = match part.split_once(':') {
                    Some((a, b)) => (number(a)?, number(b)?),
                    None => {
                        let n = number(part)?;
                        (n, n)
                    }
                };
                ranges.push((a.min(b), a.max(b)));
            }
        }
        Some(Self::normalized(ranges))
    }

    /// The set of `uids`, in any order, repeats allowed.
    pub fn from_uids(uids: impl IntoIterator<Item = u32>) -> Self {
        let mut all: Vec<u32> = uids.into_iter().filter(|&u| u > 0).collect();
        all.sort_unstable();
        let mut set = Self::default();
        for u in all {
            set.push(u, u);
        }
        set
    }

    /// The set of inclusive `(lo, hi)` ranges, in any order, overlapping or not (0 is no UID).
    pub fn from_ranges(ranges: Vec<(u32, u32)>) -> Self {
        let ranges = ranges
            .into_iter()
            .filter(|&(a, b)| a.max(b) > 0)
            .map(|(a, b)| (a.min(b).max(1), a.max(b)))
            .collect();
        Self::normalized(ranges)
    }

    fn normalized(mut ranges: Vec<(u32, u32)>) -> Self {
        ranges.sort_unstable();
        let mut set = Self::default();
        for (a, b) in ranges {
            set.push(a, b);
        }
        set
    }

    /// Appends `lo..=hi`, which must not start below the last range's start.
    fn push(&mut self, lo: u32, hi: u32) {
        if lo > hi {
            return;
        }
        match self.ranges.last_mut() {
            Some(last) if lo <= last.1.saturating_add(1) => last.1 = last.1.max(hi),
            _ => self.ranges.push((lo, hi)),
        }
    }

    pub fn ranges(&self) -> &[(u32, u32)] {
        &self.ranges
    }

    pub fn len(&self) -> u64 {
        self.ranges.iter().map(|&(a, b)| u64::from(b - a) + 1).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }

    /// Consecutive windows of at most `max` UIDs of the set in the walk's order, each as the
    /// (lowest, highest) UID it holds. A UID FETCH of `lowest:highest` then returns exactly
    /// the window's messages: no UID between two listed ones can appear later, as new mail
    /// always gets a UID above UIDNEXT.
    pub fn windows(&self, max: u32, order: Order) -> Vec<(u32, u32)> {
        self.windows_after_first(max, max, order)
    }

    /// As [`Self::windows`], the first window holding at most `first` UIDs: a walk sizes and
    /// fetches its first page before it sizes a whole window.
    pub fn windows_after_first(&self, first_max: u32, max: u32, order: Order) -> Vec<(u32, u32)> {
        let (first_max, max) = (u64::from(first_max.max(1)), u64::from(max.max(1)));
        let mut out = Vec::new();
        // The open window's first UID in walk order, and how many it holds.
        let mut first: Option<u32> = None;
        let mut taken = 0u64;
        let mut last_walked = 0u32;
        let ranges: Box<dyn Iterator<Item = &(u32, u32)>> = match order {
            Order::OldestFirst => Box::new(self.ranges.iter()),
            Order::NewestFirst => Box::new(self.ranges.iter().rev()),
        };
        for &(a, b) in ranges {
            let (mut from, to) = match order {
                Order::OldestFirst => (a, b),
                Order::NewestFirst => (b, a),
            };
            loop {
                let remaining = u64::from(from.abs_diff(to)) + 1;
                let start = *first.get_or_insert(from);
                let room = if out.is_empty() { first_max } else { max } - taken;
                if remaining < room {
                    taken += remaining;
                    last_walked = to;
                    break;
                }
                // The window fills up inside this range.
                let step = (room - 1) as u32;
                let end = match order {
                    Order::OldestFirst => from + step,
                    Order::NewestFirst => from - step,
                };
                out.push((start.min(end), start.max(end)));
                first = None;
                taken = 0;
                if end == to {
                    break;
                }
                from = match order {
                    Order::OldestFirst => end + 1,
                    Order::NewestFirst => end - 1,
                };
            }
        }
        if let Some(start) = first {
            out.push((start.min(last_walked), start.max(last_walked)));
        }
        out
    }
}

fn number(text: &str) -> Option<u32> {
    let text = text.trim();
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok().filter(|&n| n > 0)
}

/// One body FETCH: the messages with UIDs `lo..=hi` (the listed ones between them), how many
/// and how many bytes (by RFC822.SIZE).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Chunk {
    pub lo: u32,
    pub hi: u32,
    pub count: u32,
    pub bytes: u64,
}

/// (UID, size) pairs in the walk's order, each UID once.
pub fn sort_for_walk(sizes: &mut Vec<(u32, u32)>, order: Order) {
    sizes.sort_unstable_by_key(|&(uid, _)| uid);
    sizes.dedup_by_key(|&mut (uid, _)| uid);
    if order == Order::NewestFirst {
        sizes.reverse();
    }
}

/// Cuts messages (UID, RFC822.SIZE) into consecutive chunks in the walk's order, each of at
/// most `max_count` messages and at most `max_bytes` bytes; a message bigger than `max_bytes`
/// gets a chunk of its own.
pub fn chunks(
    mut sizes: Vec<(u32, u32)>,
    order: Order,
    max_count: u32,
    max_bytes: u64,
) -> Vec<Chunk> {
    sort_for_walk(&mut sizes, order);
    let max_count = max_count.max(1);
    let mut out: Vec<Chunk> = Vec::new();
    let mut open: Option<Chunk> = None;
    for (uid, size) in sizes {
        let size = u64::from(size);
        if let Some(c) = &mut open {
            if c.count < max_count && c.bytes + size <= max_bytes {
                c.lo = c.lo.min(uid);
                c.hi = c.hi.max(uid);
                c.count += 1;
                c.bytes += size;
                continue;
            }
            out.extend(open.take());
        }
        open = Some(Chunk {
            lo: uid,
            hi: uid,
            count: 1,
            bytes: size,
        });
    }
    out.extend(open);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(text: &str) -> Vec<(u32, u32)> {
        UidSet::parse(text).expect(text).ranges().to_vec()
    }

    #[test]
    fn sequence_sets_parse_to_sorted_disjoint_ranges() {
        assert_eq!(set(""), []);
        assert_eq!(set("7"), [(7, 7)]);
        assert_eq!(set("1:5,9,100:200"), [(1, 5), (9, 9), (100, 200)]);
        // Reversed, unordered, overlapping and adjacent ranges are merged.
        assert_eq!(set("200:100,9,3:1,4:5,150"), [(1, 5), (9, 9), (100, 200)]);
        assert_eq!(set(" 4294967295 "), [(u32::MAX, u32::MAX)]);
        assert_eq!(
            set("1:3,1000000:1000001,50000000"),
            [(1, 3), (1_000_000, 1_000_001), (50_000_000, 50_000_000)]
        );
        assert_eq!(UidSet::parse("1:5,9,100:200").unwrap().len(), 107);
        for bad in [
            "*",
            "1:*",
            "0",
            "0:5",
            "1,,2",
            "a",
            "1:2:3",
            "-1",
            "4294967296",
            "1;2",
        ] {
            assert_eq!(UidSet::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_search_list_becomes_the_same_ranges() {
        let listed = UidSet::from_uids([9, 3, 1, 2, 100, 101, 3, 0]);
        assert_eq!(listed.ranges(), [(1, 3), (9, 9), (100, 101)]);
        assert_eq!(listed, UidSet::parse("1:3,9,100:101").unwrap());
        assert!(UidSet::from_uids([]).is_empty());
        assert_eq!(UidSet::range(5, 4), UidSet::default());
        assert_eq!(UidSet::range(4, 5).ranges(), [(4, 5)]);
    }

    #[test]
    fn windows_hold_at_most_max_uids_in_walk_order() {
        let listed = UidSet::parse("1:5,9,100:200").unwrap();
        assert_eq!(
            listed.windows(50, Order::NewestFirst),
            [(151, 200), (101, 150), (1, 100)]
        );
        assert_eq!(
            listed.windows(50, Order::OldestFirst),
            [(1, 143), (144, 193), (194, 200)]
        );
        // Each window holds exactly what it says, and together they hold the whole set once.
        for order in [Order::NewestFirst, Order::OldestFirst] {
            for max in [1, 2, 3, 5, 6, 7, 50, 106, 107, 108, 10_000] {
                let windows = listed.windows(max, order);
                let mut seen = Vec::new();
                for &(lo, hi) in &windows {
                    let inside: Vec<u32> = listed
                        .ranges()
                        .iter()
                        .flat_map(|&(a, b)| a..=b)
                        .filter(|u| (lo..=hi).contains(u))
                        .collect();
                    assert!(inside.contains(&lo) && inside.contains(&hi));
                    assert!(inside.len() <= max as usize, "{max} {order:?} {windows:?}");
                    seen.extend(inside);
                }
                seen.sort_unstable();
                assert_eq!(seen.len(), 107, "{max} {order:?} {windows:?}");
                seen.dedup();
                assert_eq!(seen.len(), 107);
                let mut sorted = windows.clone();
                sorted.sort_unstable();
                if order == Order::NewestFirst {
                    sorted.reverse();
                }
                assert_eq!(sorted, windows, "walk order");
            }
        }
        // A small first window, then full ones; together still the whole set once, in order.
        assert_eq!(
            listed.windows_after_first(3, 50, Order::NewestFirst),
            [(198, 200), (148, 197), (5, 147), (1, 4)]
        );
        for order in [Order::NewestFirst, Order::OldestFirst] {
            for (first, max) in [(1, 50), (3, 50), (50, 3), (106, 107), (200, 1)] {
                let windows = listed.windows_after_first(first, max, order);
                let sizes: Vec<usize> = windows
                    .iter()
                    .map(|&(lo, hi)| {
                        let n = listed.ranges().iter().flat_map(|&(a, b)| a..=b);
                        n.filter(|u| (lo..=hi).contains(u)).count()
                    })
                    .collect();
                assert!(sizes[0] <= first as usize, "{first} {max} {windows:?}");
                assert!(sizes[1..].iter().all(|&n| n <= max as usize));
                assert_eq!(
                    sizes.iter().sum::<usize>(),
                    107,
                    "{first} {max} {windows:?}"
                );
            }
        }
        // Gmail-like gaps: one window, whatever the width.
        let sparse = UidSet::parse("1:5,1000000:1000004,50000000:50000004").unwrap();
        assert_eq!(sparse.windows(2000, Order::NewestFirst), [(1, 50_000_004)]);
        assert_eq!(
            sparse.windows(5, Order::NewestFirst),
            [(50_000_000, 50_000_004), (1_000_000, 1_000_004), (1, 5)]
        );
        assert_eq!(UidSet::default().windows(10, Order::OldestFirst), []);
        assert_eq!(
            UidSet::range(1, u32::MAX).windows(u32::MAX, Order::NewestFirst),
            [(1, u32::MAX)]
        );
        assert_eq!(
            UidSet::range(1, u32::MAX).windows(u32::MAX - 1, Order::NewestFirst),
            [(2, u32::MAX), (1, 1)]
        );
    }

    fn cuts(chunks: &[Chunk]) -> Vec<(u32, u32, u32)> {
        chunks.iter().map(|c| (c.lo, c.hi, c.count)).collect()
    }

    #[test]
    fn chunks_are_bounded_by_count_and_by_bytes() {
        const MB: u32 = 1 << 20;
        // Small mail: the count bound decides.
        let small: Vec<(u32, u32)> = (1..=1200).map(|u| (u, 3000)).collect();
        let plan = chunks(small.clone(), Order::NewestFirst, 500, 16 << 20);
        assert_eq!(
            cuts(&plan),
            [(701, 1200, 500), (201, 700, 500), (1, 200, 200)]
        );
        assert_eq!(plan[0].bytes, 500 * 3000);
        let plan = chunks(small, Order::OldestFirst, 500, 16 << 20);
        assert_eq!(
            cuts(&plan),
            [(1, 500, 500), (501, 1000, 500), (1001, 1200, 200)]
        );

        // Big mail: the byte bound decides; one bigger than the budget goes alone.
        let big = vec![
            (10, 6 * MB),
            (11, 6 * MB),
            (12, 6 * MB),
            (20, 40 * MB),
            (30, 1000),
            (31, 16 * MB),
            (32, 1),
        ];
        let plan = chunks(big.clone(), Order::OldestFirst, 500, 16 << 20);
        assert_eq!(
            cuts(&plan),
            [
                (10, 11, 2),
                (12, 12, 1),
                (20, 20, 1),
                (30, 30, 1),
                (31, 31, 1),
                (32, 32, 1)
            ]
        );
        let plan = chunks(big, Order::NewestFirst, 500, 16 << 20);
        assert_eq!(
            cuts(&plan),
            [
                (32, 32, 1),
                (31, 31, 1),
                (30, 30, 1),
                (20, 20, 1),
                (11, 12, 2),
                (10, 10, 1)
            ]
        );
        for c in &plan {
            assert!(c.bytes <= 16 << 20 || c.count == 1, "{c:?}");
        }

        // Unsorted input and repeats are fine; nothing is no chunk.
        let plan = chunks(
            vec![(3, 1), (1, 1), (2, 1), (3, 1)],
            Order::NewestFirst,
            2,
            100,
        );
        assert_eq!(cuts(&plan), [(2, 3, 2), (1, 1, 1)]);
        assert_eq!(chunks(Vec::new(), Order::OldestFirst, 500, 100), []);
    }
}
