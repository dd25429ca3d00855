//! The files of one Maildir folder, listed once and held for the whole import: the names back to
//! back in one buffer. A `PathBuf` apiece (and a tuple around it) held 132 MB of a
//! 1,000,000-message import's 235 MB heap peak (heaptrack, docs/BENCHMARKS.md); the names alone
//! take 36 bytes a file there, their places 8.

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

/// `cur/` then `new/`, each sorted by name (a Maildir name starts with its delivery time, so this
/// is about the order the mail came in).
pub struct MaildirNames {
    dir: PathBuf,
    /// Every name, back to back.
    bytes: Vec<u8>,
    /// Each name's start and end in `bytes`, in reading order.
    spans: Vec<(u32, u32)>,
    /// How many of `spans` are in `cur/`; the rest are in `new/`.
    in_cur: usize,
}

impl MaildirNames {
    /// Lists `dir`'s `cur/` and `new/`: regular files only (a link is not followed), no dot files;
    /// a missing `cur/` or `new/` is empty.
    pub fn list(dir: &Path) -> anyhow::Result<Self> {
        let mut names = Self {
            dir: dir.to_path_buf(),
            bytes: Vec::new(),
            spans: Vec::new(),
            in_cur: 0,
        };
        for sub in ["cur", "new"] {
            let first = names.spans.len();
            for name in mail_files(&dir.join(sub)) {
                let start = names.bytes.len();
                names.bytes.extend_from_slice(name.as_bytes());
                let (Ok(start), Ok(end)) = (u32::try_from(start), u32::try_from(names.bytes.len()))
                else {
                    anyhow::bail!(
                        "{} holds more file names than one import reads (4 GB of them); import its mail in parts",
                        dir.display()
                    );
                };
                names.spans.push((start, end));
            }
            let bytes = &names.bytes;
            let name = |&(s, e): &(u32, u32)| &bytes[s as usize..e as usize];
            names.spans[first..].sort_unstable_by(|a, b| name(a).cmp(name(b)));
            if sub == "cur" {
                names.in_cur = names.spans.len();
            }
        }
        names.bytes.shrink_to_fit();
        names.spans.shrink_to_fit();
        Ok(names)
    }

    /// How many files [`MaildirNames::list`] would list, without keeping or sorting their names
    /// (the progress bar's total, counted before the import lists each folder).
    pub fn count(dir: &Path) -> usize {
        ["cur", "new"]
            .iter()
            .map(|sub| mail_files(&dir.join(sub)).count())
            .sum()
    }

    /// Each file's path and whether it is in `new/`, in order.
    pub fn paths(&self) -> impl Iterator<Item = (PathBuf, bool)> + '_ {
        let (cur, new) = (self.dir.join("cur"), self.dir.join("new"));
        self.spans.iter().enumerate().map(move |(i, &(s, e))| {
            let is_new = i >= self.in_cur;
            let name = OsStr::from_bytes(&self.bytes[s as usize..e as usize]);
            (if is_new { &new } else { &cur }.join(name), is_new)
        })
    }
}

/// The names of the mail files in `sub` (a Maildir's `cur/` or `new/`): regular files, not links
/// or folders, no dot files; none when it cannot be read.
fn mail_files(sub: &Path) -> impl Iterator<Item = std::ffi::OsString> {
    std::fs::read_dir(sub)
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .map(|e| e.file_name())
        .filter(|name| !name.as_bytes().starts_with(b"."))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cur_then_new_each_by_name_without_dot_files_folders_or_links() {
        let dir = tempfile::tempdir().unwrap();
        let md = dir.path();
        for sub in ["cur", "new", "tmp"] {
            std::fs::create_dir(md.join(sub)).unwrap();
        }
        for name in ["3.b:2,S", "1.a:2,", "2.שלום:2,F", ".hidden"] {
            std::fs::write(md.join("cur").join(name), "x").unwrap();
        }
        for name in ["9.z", "0.y"] {
            std::fs::write(md.join("new").join(name), "x").unwrap();
        }
        std::fs::write(md.join("tmp/5.t"), "x").unwrap();
        std::fs::create_dir(md.join("cur/4.folder")).unwrap();
        std::os::unix::fs::symlink("/etc/passwd", md.join("cur/0.link")).unwrap();

        let names = MaildirNames::list(md).unwrap();
        let got: Vec<(String, bool)> = names
            .paths()
            .map(|(p, new)| (p.strip_prefix(md).unwrap().display().to_string(), new))
            .collect();
        let want = [
            ("cur/1.a:2,", false),
            ("cur/2.שלום:2,F", false),
            ("cur/3.b:2,S", false),
            ("new/0.y", true),
            ("new/9.z", true),
        ];
        assert_eq!(
            got,
            want.map(|(p, n)| (p.to_string(), n)).to_vec(),
            "{got:?}"
        );
        assert_eq!(names.paths().count(), 5);
        assert_eq!(MaildirNames::count(md), 5);
    }

    #[test]
    fn a_missing_cur_or_new_is_empty() {
        for (present, missing) in [("cur", "new"), ("new", "cur")] {
            let dir = tempfile::tempdir().unwrap();
            std::fs::create_dir(dir.path().join(present)).unwrap();
            std::fs::write(dir.path().join(present).join("1.a"), "x").unwrap();
            let names = MaildirNames::list(dir.path()).unwrap();
            let got: Vec<(PathBuf, bool)> = names.paths().collect();
            assert_eq!(
                got,
                vec![(dir.path().join(present).join("1.a"), present == "new")],
                "without {missing}/"
            );
        }
    }
}
