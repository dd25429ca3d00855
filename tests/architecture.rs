//! The shape of the code (issue 14; docs/ARCHITECTURE.md "Layers"): which top-level folders of
//! `src/` use which (`crate::x` paths), and which tables are opened where. Two rules:
//! - no import cycle between top-level folders (features depend downwards only);
//! - a table is opened only in the folder that declares it (`const X: TableDefinition`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Upward uses that still close a cycle, as (from, to): none. An entry here is debt to remove;
/// the test fails when a listed use is gone, so the list only shrinks.
const KNOWN_UPWARD: &[(&str, &str)] = &[];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every source file but unit-test files of their own (`tests.rs`, `*_tests.rs`): like an inline
/// test module (see [`code_of`]), they may use anything.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap_or_default().to_string_lossy();
        if p.is_dir() {
            rust_files(&p, out);
        } else if name.ends_with(".rs") && name != "tests.rs" && !name.ends_with("_tests.rs") {
            out.push(p);
        }
    }
}

/// The top-level module a file belongs to: `src/emails/triage.rs` → `emails`, `src/app.rs` →
/// `app`.
fn module_of(file: &Path) -> String {
    let rel = file.strip_prefix(src()).unwrap();
    let first = rel
        .components()
        .next()
        .unwrap()
        .as_os_str()
        .to_string_lossy();
    first.trim_end_matches(".rs").to_string()
}

/// Code without comments and without its unit tests (a test module may use anything, the
/// schema to build a store for instance), so prose and tests never count as a use.
fn code_of(text: &str) -> String {
    let text = text.split("#[cfg(test)]\nmod tests").next().unwrap_or(text);
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        let line = match line.find("//") {
            Some(i) if !line[..i].contains('"') => &line[..i],
            _ => line,
        };
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// Every `crate::<name>` the code mentions, with the names inside `use crate::{a, b::c}`.
fn uses(code: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut rest = code;
    while let Some(i) = rest.find("crate::") {
        rest = &rest[i + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let end = group.find('}').unwrap_or(group.len());
            for part in group[..end].split(',') {
                let name: String = part
                    .trim()
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if !name.is_empty() && name != "self" {
                    out.insert(name);
                }
            }
        } else {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() {
                out.insert(name);
            }
        }
    }
    out
}

fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let modules: BTreeSet<String> = files.iter().map(|f| module_of(f)).collect();
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for f in &files {
        let from = module_of(f);
        if from == "main" || from == "lib" {
            continue;
        }
        let code = code_of(&std::fs::read_to_string(f).unwrap());
        for to in uses(&code) {
            if to != from && modules.contains(&to) {
                edges.entry(from.clone()).or_default().insert(to);
            }
        }
    }
    edges
}

/// A cycle in `edges`, if any (depth-first search).
fn find_cycle(edges: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        edges: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|p| p == node) {
            let mut cycle = path[at..].to_vec();
            cycle.push(node.to_string());
            return Some(cycle);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_string());
        for next in edges.get(node).into_iter().flatten() {
            if let Some(c) = visit(next, edges, path, done) {
                return Some(c);
            }
        }
        path.pop();
        done.insert(node.to_string());
        None
    }
    let mut done = BTreeSet::new();
    for node in edges.keys() {
        if let Some(c) = visit(node, edges, &mut Vec::new(), &mut done) {
            return Some(c);
        }
    }
    None
}

#[test]
fn top_level_folders_depend_downwards_only() {
    let mut edges = graph();
    for (from, to) in KNOWN_UPWARD {
        assert!(
            edges.get(*from).is_some_and(|t| t.contains(*to)),
            "{from} no longer uses {to}: remove the line from KNOWN_UPWARD"
        );
        edges.get_mut(*from).unwrap().remove(*to);
    }
    if let Some(cycle) = find_cycle(&edges) {
        panic!(
            "import cycle between top-level folders of src/: {}\n(a feature may use only what \
             sits below it; see docs/ARCHITECTURE.md \"Layers\")",
            cycle.join(" → ")
        );
    }
}

#[test]
fn tables_are_opened_only_by_their_owner() {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    // const NAME: TableDefinition → the folders declaring it.
    let mut owners: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let texts: Vec<(PathBuf, String)> = files
        .iter()
        .map(|f| (f.clone(), code_of(&std::fs::read_to_string(f).unwrap())))
        .collect();
    for (f, code) in &texts {
        for line in code.lines() {
            if let Some(i) = line.find("const ")
                && line[i..].contains("TableDefinition")
            {
                let name: String = line[i + 6..]
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                owners.entry(name).or_default().insert(module_of(f));
            }
        }
    }
    assert!(owners.len() > 20, "found {} tables", owners.len());
    let mut wrong = Vec::new();
    for (f, code) in &texts {
        let here = module_of(f);
        let mut rest = code.as_str();
        while let Some(i) = rest.find("open_table(") {
            rest = &rest[i + "open_table(".len()..];
            let arg: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
                .collect();
            let name = arg.rsplit("::").next().unwrap_or("").to_string();
            if let Some(owner) = owners.get(&name)
                && !owner.contains(&here)
            {
                wrong.push(format!("{} opens {name} (owned by {owner:?})", f.display()));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "tables opened outside their owner:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_checks_see_a_cycle_and_a_use() {
    let code = code_of(
        "use crate::{a, b::c};\n// crate::ignored\nlet x = crate::d::e();\n#[cfg(test)]\nmod tests {\n use crate::t;\n}",
    );
    assert_eq!(
        uses(&code),
        ["a", "b", "d"].iter().map(|s| s.to_string()).collect()
    );
    let mut edges = BTreeMap::new();
    edges.insert("a".to_string(), BTreeSet::from(["b".to_string()]));
    edges.insert("b".to_string(), BTreeSet::from(["a".to_string()]));
    assert!(find_cycle(&edges).is_some());
    edges.get_mut("b").unwrap().clear();
    assert!(find_cycle(&edges).is_none());
}

/// The code of every top-level module: folder or file name → its files' code.
fn modules() -> BTreeMap<String, String> {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let mut out: BTreeMap<String, String> = BTreeMap::new();
    for f in files {
        let code = code_of(&std::fs::read_to_string(&f).unwrap());
        out.entry(module_of(&f)).or_default().push_str(&code);
    }
    out
}

/// The last path segment of every `<marker>Type>` in `code` (`service::<crate::ai::Ai>` → `Ai`).
fn type_args(code: &str, marker: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut rest = code;
    while let Some(i) = rest.find(marker) {
        rest = &rest[i + marker.len()..];
        let path: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
            .collect();
        out.insert(path.rsplit("::").next().unwrap_or("").to_string());
    }
    out
}

/// Issue 36: a feature declares itself once (`pub static FEATURE: Feature` in its folder) and the
/// root lists it; a folder with routes, a forget step or a backup section is a feature.
#[test]
fn every_feature_declares_itself_and_is_listed() {
    let all = modules();
    let app = &all["app"];
    let mut wrong = Vec::new();
    for (name, code) in &all {
        let declares = code.contains("pub static FEATURE: Feature");
        let listed = app.contains(&format!("&{name}::FEATURE"));
        // The mail store sits below every feature: the sync, which fills it, declares its step.
        let is_feature = name != "mailstore"
            && (code.contains("pub fn router()")
                || code.contains("wire_types!(")
                || code.contains("pub fn forget_user(")
                || code.contains("pub fn forget_account(")
                || code.contains("pub fn backup_export(")
                || code.contains("impl Section for "));
        if is_feature && !declares {
            wrong.push(format!("{name} has routes or per-user data but no FEATURE"));
        }
        if declares && !listed {
            wrong.push(format!("{name}::FEATURE is not in app::FEATURES"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// A service found at run time (`state.service::<T>()`) is declared in the finding feature's
/// `needs` (`need::<T>`), which `app::state` checks at start-up: a missing service is a start-up
/// error, never a panic in a request.
#[test]
fn every_service_a_feature_finds_is_in_its_needs() {
    let mut wrong = Vec::new();
    for (name, code) in modules() {
        // The root and the commands run after the state is built and checked.
        if ["app", "cli", "state"].contains(&name.as_str()) {
            continue;
        }
        let needs = type_args(&code, "need::<");
        for used in type_args(&code, "service::<") {
            if !needs.contains(&used) {
                wrong.push(format!(
                    "{name} finds {used} but its FEATURE does not need it"
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// No process-global state: a value that outlives one application (a `static` with interior
/// mutability) would be shared by two apps in one process. Allowed: what holds no state of an
/// application (lazily built tables, per-thread caches, a bound on concurrent password hashes).
#[test]
fn no_process_global_state() {
    const ALLOWED: &[&str] = &["PERMITS", "DUMMY", "CORES"];
    let mut wrong = Vec::new();
    for (name, code) in modules() {
        for line in code.lines() {
            let t = line.trim_start();
            if t.starts_with("static ")
                || t.starts_with("pub static ")
                || t.starts_with("pub(crate) static ")
            {
                let global = ["OnceLock", "Mutex", "RwLock", "Atomic", "LazyLock<Mutex"]
                    .iter()
                    .any(|m| t.contains(m));
                let named = t
                    .split_whitespace()
                    .find(|w| w.chars().next().is_some_and(|c| c.is_ascii_uppercase()))
                    .unwrap_or("")
                    .trim_end_matches(':');
                if global && !ALLOWED.contains(&named) {
                    wrong.push(format!("{name}: {t}"));
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "process-global state:\n{}",
        wrong.join("\n")
    );
}

/// Small files (issue 36): no source file of the repository over 600 lines, but for generated
/// code and the string catalogues, which are long lists by nature.
#[test]
fn no_source_file_is_over_600_lines() {
    const MAX: usize = 600;
    const LONG_BY_NATURE: &[&str] = &["web/src/api/generated.ts", "web/src/i18n/he.ts"];
    const CODE: &[&str] = &["rs", "ts", "tsx", "mjs", "js", "py", "sh", "css"];
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for e in entries.flatten() {
            let p = e.path();
            let name = e.file_name();
            if name == "node_modules" || name == "dist" {
                continue;
            }
            if p.is_dir() {
                walk(&p, out);
            } else {
                out.push(p);
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in [
        "src", "tests", "examples", "bench", "scripts", "web/src", "web/e2e",
    ] {
        walk(&root.join(dir), &mut files);
    }
    assert!(files.len() > 300, "the walk found {} files", files.len());
    let mut long = Vec::new();
    for f in files {
        let rel = f
            .strip_prefix(root)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let code = f
            .extension()
            .is_some_and(|e| CODE.contains(&e.to_string_lossy().as_ref()));
        if !code || LONG_BY_NATURE.contains(&rel.as_str()) {
            continue;
        }
        let lines = std::fs::read_to_string(&f).map_or(0, |t| t.lines().count());
        if lines > MAX {
            long.push(format!("{rel}: {lines} lines"));
        }
    }
    assert!(
        long.is_empty(),
        "files over {MAX} lines:\n{}",
        long.join("\n")
    );
}
