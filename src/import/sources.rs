//! Where imported mail comes from: an mbox file, a Maildir (with Maildir++ sub-folders), a
//! folder of .eml files, or one .eml file. Each yields messages one at a time (an mbox of
//! gigabytes is never read whole), with the flags the format carries.
//!
//! Symbolic links inside the tree given are never followed, neither folders (a `.Sub` Maildir,
//! its `cur`/`new`) nor files, and files are opened with `O_NOFOLLOW`: an import reads what is
//! in the tree, not whatever a link there points at (another user's mail, /etc). The path given
//! on the command line itself may be a link.

use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use super::maildir_names::MaildirNames;
use crate::mailstore::ServerFlags;

/// One message to import.
pub struct Item {
    /// Where it came from, for the report (a path, or the mbox and its message number).
    pub origin: String,
    /// The folder it goes to.
    pub folder: String,
    pub raw: Vec<u8>,
    pub flags: ServerFlags,
    /// From the mbox `From ` line or the file's time: the date when the mail has none.
    pub internal_date: Option<i64>,
}

/// A message that could not even be read (the parse step reports the unparseable ones).
pub struct Unreadable {
    pub origin: String,
    pub reason: String,
}

pub enum Source {
    Mbox(PathBuf),
    /// (directory, folder name) pairs: the Maildir and its sub-folders.
    Maildirs(Vec<(PathBuf, String)>),
    /// Files, all to one folder.
    Files(Vec<PathBuf>),
}

impl Source {
    /// What `path` holds. `folder` is where mail without a folder of its own goes.
    pub fn detect(path: &Path, folder: &str) -> anyhow::Result<Self> {
        let meta = std::fs::metadata(path)
            .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", path.display()))?;
        if meta.is_file() {
            let mut head = [0u8; 5];
            let n = File::open(path)?.read(&mut head)?;
            return Ok(if &head[..n] == b"From " {
                Self::Mbox(path.to_path_buf())
            } else {
                Self::Files(vec![path.to_path_buf()])
            });
        }
        if is_maildir(path) {
            let mut dirs = vec![(path.to_path_buf(), folder.to_string())];
            let mut subs: Vec<_> = std::fs::read_dir(path)?
                .filter_map(|e| e.ok())
                .filter(|e| {
                    e.file_name().to_string_lossy().starts_with('.')
                        && e.file_type().is_ok_and(|t| t.is_dir())
                        && is_maildir(&e.path())
                })
                .map(|e| {
                    let name = e
                        .file_name()
                        .to_string_lossy()
                        .trim_start_matches('.')
                        .replace('.', "/");
                    (e.path(), name)
                })
                .collect();
            subs.sort();
            dirs.extend(subs);
            return Ok(Self::Maildirs(dirs));
        }
        let mut files = Vec::new();
        collect_files(path, &mut files)?;
        files.sort();
        Ok(Self::Files(files))
    }

    /// How many messages there are (for the progress bar): files, or `From ` lines.
    pub fn count(&self) -> anyhow::Result<u64> {
        Ok(match self {
            Self::Mbox(p) => {
                let mut n = 0;
                let mut prev_blank = true;
                for line in BufReader::new(File::open(p)?).split(b'\n') {
                    let line = line?;
                    if prev_blank && line.starts_with(b"From ") {
                        n += 1;
                    }
                    prev_blank = line.is_empty() || line == b"\r";
                }
                n
            }
            Self::Maildirs(dirs) => dirs
                .iter()
                .map(|(d, _)| MaildirNames::count(d) as u64)
                .sum(),
            Self::Files(f) => f.len() as u64,
        })
    }

    /// Every message, in order; unreadable ones are reported through `bad`.
    pub fn each(
        &self,
        folder: &str,
        mut f: impl FnMut(Item) -> anyhow::Result<()>,
        mut bad: impl FnMut(Unreadable),
    ) -> anyhow::Result<()> {
        match self {
            Self::Mbox(p) => read_mbox(p, folder, &mut f),
            Self::Maildirs(dirs) => {
                for (dir, name) in dirs {
                    for (path, new) in MaildirNames::list(dir)?.paths() {
                        match read_no_follow(&path) {
                            Ok(raw) => f(Item {
                                origin: path.display().to_string(),
                                folder: name.clone(),
                                raw,
                                flags: maildir_flags(&path, new),
                                internal_date: mtime(&path),
                            })?,
                            Err(e) => bad(Unreadable {
                                origin: path.display().to_string(),
                                reason: e.to_string(),
                            }),
                        }
                    }
                }
                Ok(())
            }
            Self::Files(files) => {
                for path in files {
                    match read_no_follow(path) {
                        Ok(raw) => f(Item {
                            origin: path.display().to_string(),
                            folder: folder.to_string(),
                            raw,
                            // An export carries no flags: its mail was read where it came from.
                            flags: ServerFlags {
                                seen: true,
                                ..ServerFlags::default()
                            },
                            internal_date: mtime(path),
                        })?,
                        Err(e) => bad(Unreadable {
                            origin: path.display().to_string(),
                            reason: e.to_string(),
                        }),
                    }
                }
                Ok(())
            }
        }
    }
}

/// A Maildir: `cur` and `new` folders of its own (not links to folders elsewhere).
fn is_maildir(p: &Path) -> bool {
    let real_dir = |d: &Path| std::fs::symlink_metadata(d).is_ok_and(|m| m.is_dir());
    real_dir(&p.join("cur")) && real_dir(&p.join("new"))
}

/// A file's bytes, refused when it is a symbolic link (also one put there since it was
/// listed).
fn read_no_follow(path: &Path) -> std::io::Result<Vec<u8>> {
    let mut file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW)
        .open(path)?;
    let mut raw = Vec::new();
    file.read_to_end(&mut raw)?;
    Ok(raw)
}

fn collect_files(dir: &Path, out: &mut Vec<PathBuf>) -> anyhow::Result<()> {
    for e in std::fs::read_dir(dir)? {
        let e = e?;
        let name = e.file_name();
        if name.to_string_lossy().starts_with('.') {
            continue;
        }
        let ty = e.file_type()?;
        if ty.is_dir() {
            collect_files(&e.path(), out)?;
        } else if ty.is_file() {
            out.push(e.path());
        }
    }
    Ok(())
}

/// Maildir flags after `:2,` in the file name: S seen, F flagged, R replied, D draft.
fn maildir_flags(path: &Path, new: bool) -> ServerFlags {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let info = name
        .rsplit_once(":2,")
        .map(|(_, f)| f.to_string())
        .unwrap_or_default();
    ServerFlags {
        seen: !new && info.contains('S'),
        flagged: info.contains('F'),
        answered: info.contains('R'),
        draft: info.contains('D'),
        ..ServerFlags::default()
    }
}

fn mtime(path: &Path) -> Option<i64> {
    let t = std::fs::symlink_metadata(path).ok()?.modified().ok()?;
    t.duration_since(std::time::UNIX_EPOCH)
        .ok()
        .map(|d| d.as_secs() as i64)
}

/// Reads an mbox (mboxo or mboxrd): a message starts at a `From ` line after a blank line (or
/// at the top); `>From ` lines lose one `>`; `Status`/`X-Status` give the flags.
fn read_mbox(
    path: &Path,
    folder: &str,
    f: &mut impl FnMut(Item) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let mut reader = BufReader::with_capacity(1 << 20, File::open(path)?);
    let mut line = Vec::new();
    let mut current: Option<(Vec<u8>, Option<i64>)> = None;
    let mut number = 0u64;
    let mut prev_blank = true;
    let emit = |msg: (Vec<u8>, Option<i64>),
                number: u64,
                f: &mut dyn FnMut(Item) -> anyhow::Result<()>| {
        let (mut raw, date) = msg;
        // The blank line before the next `From ` belongs to the mbox, not the message.
        if raw.ends_with(b"\n\n") {
            raw.pop();
        } else if raw.ends_with(b"\r\n\r\n") {
            raw.truncate(raw.len() - 2);
        }
        let flags = mbox_flags(&raw);
        f(Item {
            origin: format!("{} (message {number})", path.display()),
            folder: folder.to_string(),
            raw,
            flags,
            internal_date: date,
        })
    };
    loop {
        line.clear();
        if reader.read_until(b'\n', &mut line)? == 0 {
            break;
        }
        if prev_blank && line.starts_with(b"From ") {
            if let Some(msg) = current.take() {
                emit(msg, number, f)?;
            }
            number += 1;
            current = Some((Vec::new(), from_line_date(&line)));
            prev_blank = false;
            continue;
        }
        prev_blank = line == b"\n" || line == b"\r\n";
        if let Some((raw, _)) = current.as_mut() {
            let quoted = line.iter().take_while(|b| **b == b'>').count();
            if quoted > 0 && line[quoted..].starts_with(b"From ") {
                raw.extend_from_slice(&line[1..]);
            } else {
                raw.extend_from_slice(&line);
            }
        }
    }
    if let Some(msg) = current.take() {
        emit(msg, number, f)?;
    }
    Ok(())
}

/// The date at the end of `From sender Sat Aug 31 12:00:00 2002`.
fn from_line_date(line: &[u8]) -> Option<i64> {
    let s = String::from_utf8_lossy(line);
    let parts: Vec<&str> = s.split_whitespace().collect();
    if parts.len() < 7 {
        return None;
    }
    let n = parts.len();
    let text = format!(
        "{}, {} {} {} {} +0000",
        parts[n - 5],
        parts[n - 3],
        parts[n - 4],
        parts[n - 1],
        parts[n - 2]
    );
    time::OffsetDateTime::parse(&text, &time::format_description::well_known::Rfc2822)
        .ok()
        .map(|t| t.unix_timestamp())
}

/// `Status: RO` (read), `X-Status: AF` (answered, flagged, T draft) in the headers.
fn mbox_flags(raw: &[u8]) -> ServerFlags {
    let mut flags = ServerFlags::default();
    for line in raw.split(|b| *b == b'\n') {
        if line.is_empty() || line == b"\r" {
            break;
        }
        let l = String::from_utf8_lossy(line);
        if let Some(v) = l.strip_prefix("Status:") {
            flags.seen |= v.contains('R');
        } else if let Some(v) = l.strip_prefix("X-Status:") {
            flags.answered |= v.contains('A');
            flags.flagged |= v.contains('F');
            flags.draft |= v.contains('T');
        }
    }
    flags
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mbox_splits_unquotes_and_reads_flags() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("box.mbox");
        std::fs::write(
            &p,
            "From a@x Sat Aug 31 12:00:00 2002\nSubject: one\nStatus: RO\n\nhello\n>From the start\n\nFrom b@x Sun Sep  1 08:30:00 2002\nSubject: two\nX-Status: F\n\nbye\n",
        )
        .unwrap();
        let src = Source::detect(&p, "INBOX").unwrap();
        assert!(matches!(src, Source::Mbox(_)));
        assert_eq!(src.count().unwrap(), 2);
        let mut items = Vec::new();
        src.each(
            "INBOX",
            |i| {
                items.push(i);
                Ok(())
            },
            |_| panic!("unreadable"),
        )
        .unwrap();
        assert_eq!(items.len(), 2);
        assert_eq!(
            String::from_utf8_lossy(&items[0].raw),
            "Subject: one\nStatus: RO\n\nhello\nFrom the start\n"
        );
        assert!(items[0].flags.seen && !items[0].flags.flagged);
        assert!(!items[1].flags.seen && items[1].flags.flagged);
        assert_eq!(items[0].internal_date, Some(1_030_795_200));
    }

    #[test]
    fn maildir_with_subfolders_and_flags() {
        let dir = tempfile::tempdir().unwrap();
        for sub in ["", ".Sent", ".Work.Projects"] {
            for d in ["cur", "new", "tmp"] {
                std::fs::create_dir_all(dir.path().join(sub).join(d)).unwrap();
            }
        }
        std::fs::write(dir.path().join("cur/1.x:2,FS"), "Subject: a\n\nx\n").unwrap();
        std::fs::write(dir.path().join("new/2.x"), "Subject: b\n\nx\n").unwrap();
        std::fs::write(dir.path().join(".Sent/cur/3.x:2,RS"), "Subject: c\n\nx\n").unwrap();
        std::fs::write(
            dir.path().join(".Work.Projects/cur/4.x:2,"),
            "Subject: d\n\nx\n",
        )
        .unwrap();
        let src = Source::detect(dir.path(), "INBOX").unwrap();
        assert_eq!(src.count().unwrap(), 4);
        let mut got = Vec::new();
        src.each(
            "INBOX",
            |i| {
                got.push((
                    i.folder.clone(),
                    i.flags.seen,
                    i.flags.flagged,
                    i.flags.answered,
                ));
                Ok(())
            },
            |_| {},
        )
        .unwrap();
        assert_eq!(
            got,
            vec![
                ("INBOX".into(), true, true, false),
                ("INBOX".into(), false, false, false),
                ("Sent".into(), true, false, true),
                ("Work/Projects".into(), false, false, false),
            ]
        );
    }

    #[test]
    fn symbolic_links_out_of_the_tree_are_not_followed() {
        let outside = tempfile::tempdir().unwrap();
        for d in ["cur", "new"] {
            std::fs::create_dir_all(outside.path().join(d)).unwrap();
        }
        std::fs::write(
            outside.path().join("cur/secret:2,S"),
            "Subject: secret\n\nx\n",
        )
        .unwrap();
        std::fs::write(outside.path().join("other.eml"), "Subject: other\n\nx\n").unwrap();

        let dir = tempfile::tempdir().unwrap();
        let maildir = dir.path().join("Maildir");
        for sub in ["", ".Linked"] {
            for d in ["cur", "new"] {
                std::fs::create_dir_all(maildir.join(sub).join(d)).unwrap();
            }
        }
        std::fs::write(maildir.join("cur/1.x:2,S"), "Subject: mine\n\nx\n").unwrap();
        let link = |from: &Path, to: &Path| std::os::unix::fs::symlink(from, to);
        // A sub-folder that is a link, a sub-folder whose cur is one, and a linked file.
        link(outside.path(), &maildir.join(".Evil")).unwrap();
        std::fs::remove_dir(maildir.join(".Linked/cur")).unwrap();
        link(&outside.path().join("cur"), &maildir.join(".Linked/cur")).unwrap();
        link(
            &outside.path().join("other.eml"),
            &maildir.join("cur/2.x:2,S"),
        )
        .unwrap();

        let subjects = |src: &Source| {
            let mut got = Vec::new();
            src.each(
                "INBOX",
                |i| {
                    got.push(
                        String::from_utf8_lossy(&i.raw)
                            .lines()
                            .next()
                            .unwrap_or("")
                            .to_string(),
                    );
                    Ok(())
                },
                |_| {},
            )
            .unwrap();
            got
        };
        let src = Source::detect(&maildir, "INBOX").unwrap();
        let Source::Maildirs(dirs) = &src else {
            panic!("a Maildir")
        };
        assert_eq!(
            dirs.len(),
            1,
            "{:?}",
            dirs.iter().map(|d| &d.1).collect::<Vec<_>>()
        );
        assert_eq!(src.count().unwrap(), 1);
        assert_eq!(subjects(&src), ["Subject: mine"]);

        // A folder of files: linked files and folders are skipped too.
        let files = dir.path().join("eml");
        std::fs::create_dir_all(&files).unwrap();
        std::fs::write(files.join("a.eml"), "Subject: a\n\nx\n").unwrap();
        link(&outside.path().join("other.eml"), &files.join("b.eml")).unwrap();
        link(outside.path(), &files.join("sub")).unwrap();
        let src = Source::detect(&files, "INBOX").unwrap();
        assert_eq!(subjects(&src), ["Subject: a"]);
        // And a file swapped for a link after it was listed is not read.
        assert!(read_no_follow(&files.join("b.eml")).is_err());
    }
}
