//! Raw RFC 822 bytes, zstd-compressed (a third of the size: the store of a big mailbox stays
//! smaller than the mailbox), in parts of at most [`RAW_PART_BYTES`].

use redb::ReadableTable;

/// Two parts fill one 4 KiB page: a whole compressed message would take a page of the next
/// power of two and leave a third of it empty on average.
pub const RAW_PART_BYTES: usize = 1_900;

/// The raw-mail table as readers and writers see it.
pub(super) type RawTable<'t> = redb::Table<'t, (u64, u16), &'static [u8]>;

thread_local! {
    static COMPRESSOR: std::cell::RefCell<Option<zstd::bulk::Compressor<'static>>> =
        const { std::cell::RefCell::new(None) };
}

/// Level 1: on mail it costs under half the time of level 3 (compression was a sixth of the
/// sync's CPU at level 3) for 2-3 % more bytes, still about a third of the raw size.
const LEVEL: i32 = 1;

pub(super) fn compress(raw: &[u8]) -> Vec<u8> {
    COMPRESSOR.with(|c| {
        let mut c = c.borrow_mut();
        if c.is_none() {
            *c = zstd::bulk::Compressor::new(LEVEL).ok();
        }
        c.as_mut()
            .and_then(|c| c.compress(raw).ok())
            .unwrap_or_else(|| zstd::stream::encode_all(raw, LEVEL).unwrap_or_default())
    })
}

pub(super) fn put_raw(table: &mut RawTable, id: u64, raw: &[u8]) -> Result<(), redb::Error> {
    let packed = compress(raw);
    // An empty message still has one (empty) part: "stored" and "absent" stay distinct.
    if packed.is_empty() {
        table.insert((id, 0), &[][..])?;
    }
    let parts = packed.len().div_ceil(RAW_PART_BYTES);
    if parts > usize::from(u16::MAX) {
        // Over 120 MB compressed: refused rather than stored wrong.
        return Err(redb::Error::ValueTooLarge(packed.len()));
    }
    for (i, part) in packed.chunks(RAW_PART_BYTES).enumerate() {
        table.insert((id, i as u16), part)?;
    }
    Ok(())
}

/// The raw bytes of message `id`.
pub(super) fn get_raw(
    table: &impl ReadableTable<(u64, u16), &'static [u8]>,
    id: u64,
) -> anyhow::Result<Option<Vec<u8>>> {
    let mut packed = Vec::new();
    let mut found = false;
    for e in table.range((id, 0)..=(id, u16::MAX))? {
        packed.extend_from_slice(e?.1.value());
        found = true;
    }
    if !found {
        return Ok(None);
    }
    Ok(Some(zstd::stream::decode_all(packed.as_slice())?))
}

pub(super) fn remove_raw(table: &mut RawTable, id: u64) -> Result<(), redb::Error> {
    table.retain_in((id, 0)..=(id, u16::MAX), |_, _| false)?;
    Ok(())
}
