//! The import's progress bar on stderr: redrawn in place on a terminal, a line every few
//! seconds otherwise (a log file must not fill with carriage returns).

use std::io::Write;
use std::time::{Duration, Instant};

const WIDTH: usize = 30;

pub struct Progress {
    total: u64,
    started: Instant,
    last: Instant,
    enabled: bool,
    tty: bool,
    log_every: Duration,
}

impl Progress {
    /// A bar for `total` messages; off unless `enabled`. When stderr is not a terminal, a line
    /// is written at most every `log_every` (zero: after every batch).
    pub fn new(total: u64, enabled: bool, log_every: Duration) -> Self {
        use std::io::IsTerminal;
        let now = Instant::now();
        Self {
            total,
            started: now,
            last: now,
            enabled,
            tty: std::io::stderr().is_terminal(),
            log_every,
        }
    }

    pub fn set(&mut self, done: u64) {
        if !self.enabled {
            return;
        }
        let now = Instant::now();
        let every = if self.tty {
            Duration::from_millis(100)
        } else {
            self.log_every
        };
        if now.duration_since(self.last) < every {
            return;
        }
        self.last = now;
        self.draw(done, false);
    }

    pub fn finish(&mut self, done: u64) {
        if self.enabled {
            self.draw(done, true);
        }
    }

    fn draw(&self, done: u64, end: bool) {
        let line = line(done, self.total, self.started.elapsed());
        let mut err = std::io::stderr().lock();
        let _ = if self.tty {
            write!(err, "\r{line}{}", if end { "\n" } else { "" })
        } else {
            writeln!(err, "{line}")
        };
        let _ = err.flush();
    }
}

/// `[#########.....]  12,000/60,000  20%  4,100 msg/s`
pub fn line(done: u64, total: u64, elapsed: Duration) -> String {
    let frac = if total == 0 {
        1.0
    } else {
        (done as f64 / total as f64).min(1.0)
    };
    let filled = (frac * WIDTH as f64).round() as usize;
    let rate = done as f64 / elapsed.as_secs_f64().max(0.001);
    format!(
        "[{}{}] {}/{} {:>3}% {} msg/s",
        "#".repeat(filled),
        ".".repeat(WIDTH - filled),
        thousands(done),
        thousands(total),
        (frac * 100.0).round() as u64,
        thousands(rate as u64)
    )
}

pub fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bar_shows_count_percent_and_rate() {
        assert_eq!(
            line(30_000, 60_000, Duration::from_secs(10)),
            format!(
                "[{}{}] 30,000/60,000  50% 3,000 msg/s",
                "#".repeat(15),
                ".".repeat(15)
            )
        );
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }
}
