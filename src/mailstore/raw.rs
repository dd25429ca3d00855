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
    static DECOMPRESSOR: std::cell::RefCell<Option<zstd::bulk::Decompressor<'static>>> =
        const { std::cell::RefCell::new(None) };
}

/// The most a message may decompress to in one buffer sized from its frame header; a larger
/// (or unrecorded) size streams instead.
const BULK_MAX_BYTES: u64 = 64 << 20;

/// Level 1: on mail it costs under half the time of level 3 (compression was a sixth of the
/// sync's CPU at level 3) for 2-3 % more bytes, still about a third of the raw size.
const LEVEL: i32 = 1;

/// A message's raw bytes compressed for the store: made by [`pack`] on the caller's threads
/// (the sync's and the import's parse threads) so the compression, a sixth of a sync's work,
/// runs beside the parsing instead of inside the one write transaction.
pub struct Packed(Vec<u8>);

/// Compresses `raw` as the store keeps it.
pub fn pack(raw: &[u8]) -> Packed {
    Packed(compress(raw))
}

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
    put_packed(table, id, &pack(raw))
}

pub(super) fn put_packed(
    table: &mut RawTable,
    id: u64,
    Packed(packed): &Packed,
) -> Result<(), redb::Error> {
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
    Ok(Some(decompress(&packed)?))
}

/// One context per thread: creating one per message (`decode_all`) was 2 % of the indexer's
/// time behind a sync. The frame records its size (the compressor writes it), so the buffer is
/// allocated once, exactly.
fn decompress(packed: &[u8]) -> std::io::Result<Vec<u8>> {
    let size = zstd::zstd_safe::get_frame_content_size(packed);
    let Ok(Some(size)) = size else {
        return zstd::stream::decode_all(packed);
    };
    if size > BULK_MAX_BYTES {
        return zstd::stream::decode_all(packed);
    }
    DECOMPRESSOR.with(|d| {
        let mut d = d.borrow_mut();
        if d.is_none() {
            *d = zstd::bulk::Decompressor::new().ok();
        }
        match d.as_mut() {
            Some(d) => d.decompress(packed, size as usize),
            None => zstd::stream::decode_all(packed),
        }
    })
}

pub(super) fn remove_raw(table: &mut RawTable, id: u64) -> Result<(), redb::Error> {
    table.retain_in((id, 0)..=(id, u16::MAX), |_, _| false)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_small_empty_and_big() {
        for raw in [
            Vec::new(),
            b"Subject: x\r\n\r\nbody".to_vec(),
            (0..200_000u32).flat_map(|i| i.to_le_bytes()).collect(),
        ] {
            assert_eq!(decompress(&compress(&raw)).unwrap(), raw);
        }
        // A frame without a recorded size (another writer) still reads.
        let streamed = zstd::stream::encode_all(&b"no size recorded"[..], 1).unwrap();
        assert_eq!(decompress(&streamed).unwrap(), b"no size recorded");
        assert!(decompress(b"not zstd at all").is_err());
    }
}
