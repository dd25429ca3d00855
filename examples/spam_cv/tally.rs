//! What a run counts: verdicts per group and spamminess deciles, printed as the report.

use super::*;

#[derive(Default)]
pub(crate) struct Tally {
    /// [spam, easy ham, hard ham] × [spam, suspicious, ad, clean]
    pub(crate) n: [[usize; 4]; 3],
    pub(crate) deciles: [[usize; 10]; 3],
}

impl Tally {
    pub(crate) fn add(&mut self, it: &Item, (s, bayes): (Option<f64>, f32)) {
        let group = if it.spam {
            0
        } else if it.name.starts_with("hard-ham") {
            2
        } else {
            1
        };
        let score = ((it.rules + bayes) * 10.0).round() / 10.0;
        // The engine's verdict at the default thresholds (engine::judge).
        let v = if score >= 4.0 {
            Verdict::Spam
        } else if it.advertisement {
            Verdict::Advertisement
        } else if score >= 2.0 {
            Verdict::Suspicious
        } else {
            Verdict::Clean
        };
        let col = match v {
            Verdict::Spam => 0,
            Verdict::Suspicious => 1,
            Verdict::Advertisement => 2,
            Verdict::Clean => 3,
        };
        self.n[group][col] += 1;
        if let Some(s) = s {
            self.deciles[group][((s * 10.0) as usize).min(9)] += 1;
        }
    }

    pub(crate) fn total(&self) -> usize {
        self.n.iter().flatten().sum()
    }

    pub(crate) fn print(&self, label: [&str; 3]) {
        for (g, l) in label.iter().enumerate() {
            let total: usize = self.n[g].iter().sum();
            if total == 0 {
                continue;
            }
            let pct = |x: usize| 100.0 * x as f64 / total as f64;
            println!(
                "{l:>10}: {total:5}  spam {:5} ({:5.1}%)  susp {:4}  ad {:4}  clean {:5}  | {} per 1,000 as spam  | deciles {:?}",
                self.n[g][0],
                pct(self.n[g][0]),
                self.n[g][1],
                self.n[g][2],
                self.n[g][3],
                format_args!("{:.1}", 10.0 * pct(self.n[g][0])),
                self.deciles[g]
            );
        }
    }
}
