//! The corpus as the example reads it: one `Item` per mail (its rule points, tokens, features,
//! date), and the Bayes counts trained from a set of them.

use super::*;

pub(crate) struct Item {
    pub(crate) name: String,
    pub(crate) spam: bool,
    /// The engine's points without the classifier's.
    pub(crate) rules: f32,
    pub(crate) advertisement: bool,
    pub(crate) tokens: Vec<u32>,
    pub(crate) names: Vec<String>,
    /// The rules that fired (not the classifier), with their points.
    pub(crate) fired: Vec<(&'static str, f32)>,
    /// The logistic regression's features (`--score` other than bayes).
    pub(crate) lr: Vec<u32>,
    /// The Date header (seconds since 1970; none: 0, the oldest), for `--time-split`.
    pub(crate) date: i64,
}

pub(crate) struct Table(pub(crate) HashMap<u32, (u32, u32)>, pub(crate) (u32, u32));

impl bayes::Counts for Table {
    fn token(&self, t: u32) -> (u32, u32) {
        self.0.get(&t).copied().unwrap_or((0, 0))
    }
    fn totals(&self) -> (u32, u32) {
        self.1
    }
}

pub(crate) fn load(
    dir: &str,
    keep: impl Fn(&str) -> Option<bool>,
    feats: &Feats,
) -> anyhow::Result<Vec<Item>> {
    let mut names: Vec<_> = std::fs::read_dir(dir)?
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let profile = Profile::default();
    let mut out = Vec::new();
    for name in names {
        let Some(spam) = keep(&name) else { continue };
        let raw = std::fs::read(Path::new(dir).join(&name))?;
        let msg = parse_guarded(&raw);
        let mail = Mail::of(msg.as_ref(), &raw, None);
        let r = engine::judge(&mail, &profile);
        // The learners' points are the fold's own, not the shipped models'.
        let learner = |rule: &str| rule == learned::BAYES.id || rule == learned::LR.id;
        let rules: f32 = r
            .hits
            .iter()
            .filter(|h| !learner(h.rule))
            .map(|h| h.points)
            .sum();
        let (tokens, names) = tokenize(&mail, msg.as_ref(), feats);
        let lr = if feats.score == "bayes" {
            Vec::new()
        } else {
            lr::features(&raw, &mail, &tokens, &feats.lr)
        };
        let mut rules = rules;
        let extra = extra_rules(&mail, feats);
        rules += extra.iter().map(|e| e.1).sum::<f32>();
        let fired = r
            .hits
            .iter()
            .filter(|h| !learner(h.rule) && h.points != 0.0)
            .map(|h| (h.rule, h.points))
            .chain(extra)
            .collect();
        let date = msg
            .as_ref()
            .and_then(|m| m.date())
            .map_or(0, |d| d.to_timestamp());
        out.push(Item {
            date,
            fired,
            name,
            spam,
            rules,
            advertisement: r.advertisement,
            tokens,
            names,
            lr,
        });
    }
    Ok(out)
}

pub(crate) fn train<'a>(items: impl Iterator<Item = &'a Item>) -> Table {
    let mut t = Table(HashMap::new(), (0, 0));
    for it in items {
        for tok in &it.tokens {
            let e = t.0.entry(*tok).or_default();
            if it.spam {
                e.0 += 1;
            } else {
                e.1 += 1;
            }
        }
        if it.spam {
            t.1.0 += 1;
        } else {
            t.1.1 += 1;
        }
    }
    t
}
