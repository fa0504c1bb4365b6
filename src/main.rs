//! The `siteops` binary: parses the command line, runs one command, and owns the one
//! exit-code policy: 0 success, 1 failure (problems found, errors, bad usage), 2 changes
//! present (plan with --detailed-exitcode), 130 interrupted (apply stopped by Ctrl-C or
//! SIGTERM: 128 + SIGINT, as a shell reports a command Ctrl-C ended).

mod cli;
mod commands;

use std::process::ExitCode;

// Validation of a large fleet allocates many small values; glibc's allocator slows down
// as its heap fills with them (measured in benches/fleet.rs), mimalloc does not.
#[global_allocator]
static GLOBAL: Allocator = Allocator;

/// mimalloc, asked with its plain entry points when the alignment is no more than a word:
/// every mimalloc block is a whole number of words from a word-aligned start, so the plain
/// calls give that alignment. The `mimalloc` crate calls the aligned entry points for every
/// allocation, which test the alignment each time; most of an ingestion's allocations are
/// strings and vectors of words (measured: 1% of its instructions). Larger alignments keep
/// the aligned calls: a block of 24 bytes, say, need not start on 16.
struct Allocator;

/// The alignment every mimalloc block has (its sizes are whole words).
const MIMALLOC_ALIGN: usize = std::mem::size_of::<usize>();

// SAFETY: each call keeps GlobalAlloc's contract by forwarding to mimalloc: the plain calls
// only for alignments every mimalloc block has, the aligned ones (as `mimalloc::MiMalloc`
// does) otherwise; `mi_free` and `mi_realloc` take blocks from either (mimalloc's own
// `mi_realloc_aligned` calls `mi_realloc` when the block is aligned enough).
unsafe impl std::alloc::GlobalAlloc for Allocator {
    #[inline]
    unsafe fn alloc(&self, layout: std::alloc::Layout) -> *mut u8 {
        if layout.align() <= MIMALLOC_ALIGN {
            unsafe { libmimalloc_sys::mi_malloc(layout.size()).cast() }
        } else {
            unsafe { mimalloc::MiMalloc.alloc(layout) }
        }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: std::alloc::Layout) -> *mut u8 {
        if layout.align() <= MIMALLOC_ALIGN {
            unsafe { libmimalloc_sys::mi_zalloc(layout.size()).cast() }
        } else {
            unsafe { mimalloc::MiMalloc.alloc_zeroed(layout) }
        }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, _layout: std::alloc::Layout) {
        unsafe { libmimalloc_sys::mi_free(ptr.cast()) }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: std::alloc::Layout, new_size: usize) -> *mut u8 {
        if layout.align() <= MIMALLOC_ALIGN {
            unsafe { libmimalloc_sys::mi_realloc(ptr.cast(), new_size).cast() }
        } else {
            unsafe { mimalloc::MiMalloc.realloc(ptr, layout, new_size) }
        }
    }
}

use clap::Parser;
use cli::{Cli, Command};
use commands::Outcome;

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => {
            let _ = error.print();
            // Help and version are successes; usage errors are failures, and never 2,
            // which CI reads as "changes present".
            return if error.use_stderr() {
                ExitCode::FAILURE
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    // `test` runs a server in-process: its request log would drown the report.
    let default_log = match cli.command {
        Command::Test(_) => "warn",
        _ => "info",
    };
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("SITEOPS_LOG")
                .unwrap_or_else(|_| default_log.into()),
        )
        .with_writer(std::io::stderr)
        .with_ansi(commands::use_color(&std::io::stderr()))
        .init();
    // The renderer catches markdown-rs's panics on the few texts it cannot parse (an
    // upstream bug, see the ingest crate's `render::parse::to_mdast`) and renders the page
    // anyway: such a panic is a warning in the log, not a crash report on the terminal.
    let report = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if siteops_ingest::render::panicked_in_markdown_rs(info) {
            tracing::warn!(panic = %info, "markdown-rs could not parse a page: rendered without fenced code");
        } else {
            report(info);
        }
    }));
    let result = match &cli.command {
        Command::Validate(args) => commands::validate::run(args),
        Command::Compile(args) => commands::compile::run(args),
        Command::Plan(args) => commands::plan::run(args),
        Command::Apply(args) => commands::apply::run(args),
        Command::Import(args) => commands::import::run(args),
        Command::Restore(args) => commands::restore::run(args),
        Command::Schema(args) => commands::schema::run(args),
        Command::Serve(args) => commands::serve::run(args),
        Command::Token(args) => commands::token::run(args),
        Command::Template(command) => commands::template::run(command),
        Command::Ingest(args) => commands::ingest::run(args),
        Command::Mocks(command) => commands::mocks::run(command),
        Command::Test(args) => commands::test::run(args),
        Command::Completions(args) => commands::shell::completions(args),
        Command::Man(args) => commands::shell::man(args),
    };
    match result {
        Ok(Outcome::Success) => ExitCode::SUCCESS,
        Ok(Outcome::Failure) => ExitCode::FAILURE,
        Ok(Outcome::ChangesPresent) => ExitCode::from(2),
        Ok(Outcome::Interrupted) => ExitCode::from(130),
        Err(error) => {
            eprintln!("error: {error}");
            for cause in error.chain().skip(1) {
                eprintln!("  caused by: {cause}");
            }
            ExitCode::FAILURE
        }
    }
}
