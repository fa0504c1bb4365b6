//! Whole-process comparisons: every contender is a command run on the same inputs, in
//! rounds (each round runs every contender once, in a rotating order, so that a slow
//! moment of the machine falls on all of them alike), and the medians of wall time and CPU
//! time (user + system, of the child) are compared with siteops'.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// One command to time.
pub(crate) struct Contender {
    pub name: String,
    pub command: Command,
    /// Runs only when this holds (a missing tool is reported, not timed).
    pub available: Result<(), String>,
    /// Removed before each run, untimed: every run writes its output afresh (replacing
    /// files costs a flush on ext4, which would charge one contender for the previous run).
    pub output: Option<PathBuf>,
    /// At most this many runs (for contenders ten times slower than the others, whose
    /// medians need fewer).
    pub max_runs: usize,
}

impl Contender {
    pub(crate) fn new(name: impl Into<String>, program: impl AsRef<std::ffi::OsStr>) -> Contender {
        let mut command = Command::new(program);
        command.stdout(Stdio::null()).stderr(Stdio::piped());
        Contender {
            name: name.into(),
            command,
            available: Ok(()),
            output: None,
            max_runs: usize::MAX,
        }
    }

    pub(crate) fn at_most(mut self, runs: usize) -> Contender {
        self.max_runs = runs;
        self
    }

    pub(crate) fn writes(mut self, dir: &Path) -> Contender {
        self.output = Some(dir.to_path_buf());
        self
    }

    pub(crate) fn args<I, S>(mut self, args: I) -> Contender
    where
        I: IntoIterator<Item = S>,
        S: AsRef<std::ffi::OsStr>,
    {
        self.command.args(args);
        self
    }

    pub(crate) fn needs(mut self, available: Result<(), String>) -> Contender {
        self.available = available;
        self
    }
}

/// The medians of one contender.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Timing {
    pub wall: Duration,
    pub cpu: Duration,
}

/// Runs every available contender `rounds` times; the medians, in the contenders' order
/// (`None` for one that is not available). A contender that fails stops the comparison.
pub(crate) fn run(
    contenders: &mut [Contender],
    rounds: usize,
) -> Result<Vec<Option<Timing>>, String> {
    let mut samples: Vec<Vec<Timing>> = contenders.iter().map(|_| Vec::new()).collect();
    for round in 0..rounds {
        let n = contenders.len();
        for k in 0..n {
            let i = (k + round) % n;
            if contenders[i].available.is_err() || round >= contenders[i].max_runs {
                continue;
            }
            let sample = time(&mut contenders[i])?;
            samples[i].push(sample);
        }
    }
    Ok(samples
        .into_iter()
        .map(|mut runs| {
            if runs.is_empty() {
                return None;
            }
            let mid = runs.len() / 2;
            runs.sort_by_key(|t| t.wall);
            let wall = runs[mid].wall;
            runs.sort_by_key(|t| t.cpu);
            Some(Timing {
                wall,
                cpu: runs[mid].cpu,
            })
        })
        .collect())
}

fn time(contender: &mut Contender) -> Result<Timing, String> {
    if let Some(dir) = &contender.output {
        let _ = std::fs::remove_dir_all(dir);
    }
    let before = children_cpu();
    let start = Instant::now();
    let output = contender
        .command
        .output()
        .map_err(|e| format!("{}: cannot start: {e}", contender.name))?;
    let wall = start.elapsed();
    let cpu = children_cpu().saturating_sub(before);
    // `siteops ingest` exits 1 when a page is refused by design (the corpus holds four
    // pages with invalid JSON-LD); any other failure is the benchmark's.
    if !output.status.success() && output.status.code() != Some(1) {
        return Err(format!(
            "{} failed ({}): {}",
            contender.name,
            output.status,
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    Ok(Timing { wall, cpu })
}

/// The instructions the contender's process executes, as callgrind counts them (one run:
/// the count does not move with the machine's load, as wall time does); `None` without
/// valgrind.
pub(crate) fn instructions(contender: &mut Contender) -> Result<Option<u64>, String> {
    if contender.available.is_err() {
        return Ok(None);
    }
    if let Some(dir) = &contender.output {
        let _ = std::fs::remove_dir_all(dir);
    }
    let mut command = Command::new("valgrind");
    command
        .args(["--tool=callgrind", "--callgrind-out-file=/dev/null"])
        .arg(contender.command.get_program())
        .args(contender.command.get_args())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    let output = match command.output() {
        Ok(output) => output,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("valgrind: {e}")),
    };
    let stderr = String::from_utf8_lossy(&output.stderr);
    // `==PID== Collected : 2790000000`
    stderr
        .lines()
        .find_map(|line| line.split_once("Collected :").map(|(_, n)| n.trim()))
        .and_then(|n| n.parse().ok())
        .map(Some)
        .ok_or_else(|| {
            format!(
                "{}: no instruction count from callgrind: {stderr}",
                contender.name
            )
        })
}

/// User and system time of every child waited for so far.
fn children_cpu() -> Duration {
    // SAFETY: getrusage writes the struct it is given and nothing else.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage);
        usage
    };
    let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    tv(usage.ru_utime) + tv(usage.ru_stime)
}

/// Prints the table of one comparison: each contender's medians and its time against the
/// first contender's (siteops). `bytes`: the input size, for the throughput column.
pub(crate) fn print_table(
    title: &str,
    contenders: &[Contender],
    timings: &[Option<Timing>],
    bytes: u64,
) {
    println!("\n{title}");
    println!(
        "  {:<44} {:>8} {:>8} {:>8} {:>9} {:>11}",
        "contender", "wall s", "CPU s", "CPU/wall", "MB/s", "time ratio"
    );
    let base = timings.first().copied().flatten();
    for (contender, timing) in contenders.iter().zip(timings) {
        match (timing, &contender.available) {
            (Some(t), _) => {
                let wall = t.wall.as_secs_f64();
                let ratio = base.map_or(f64::NAN, |b| wall / b.wall.as_secs_f64());
                println!(
                    "  {:<44} {:>8.3} {:>8.3} {:>8.2} {:>9.1} {:>10.2}x",
                    contender.name,
                    wall,
                    t.cpu.as_secs_f64(),
                    t.cpu.as_secs_f64() / wall,
                    bytes as f64 / wall / 1e6,
                    ratio
                );
            }
            (None, Err(why)) => println!("  {:<44} skipped: {why}", contender.name),
            (None, Ok(())) => println!("  {:<44} not run", contender.name),
        }
    }
}

/// Wall time of contender `a` over contender `b`.
pub(crate) fn ratio(timings: &[Option<Timing>], a: usize, b: usize) -> Option<f64> {
    Some(
        timings.get(a).copied()??.wall.as_secs_f64() / timings.get(b).copied()??.wall.as_secs_f64(),
    )
}

/// Prints one goal line: `value` against `limit`, met or not.
pub(crate) fn goal(what: &str, value: Option<f64>, holds: impl Fn(f64) -> bool, limit: &str) {
    match value {
        Some(v) => println!(
            "  {:<60} {v:>6.2}  ({limit}: {})",
            what,
            if holds(v) { "met" } else { "NOT MET" }
        ),
        None => println!("  {what:<60}    n/a"),
    }
}

/// The files directly in `dir` whose names end with `suffix`, sorted.
pub(crate) fn files_in(dir: &Path, suffix: &str) -> Result<Vec<PathBuf>, String> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with(suffix))
        .collect();
    files.sort();
    Ok(files)
}

pub(crate) fn total_size(files: &[PathBuf]) -> u64 {
    files
        .iter()
        .filter_map(|f| std::fs::metadata(f).ok())
        .map(|m| m.len())
        .sum()
}
