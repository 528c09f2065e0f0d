//! The command-line grammar.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

#[derive(Debug, Parser)]
#[command(
    name = "novel",
    version,
    about = "Write long-form fiction one story tick at a time."
)]
pub struct Cli {
    /// The novel's directory (default: the current directory).
    #[arg(short = 'C', long = "novel", global = true, value_name = "DIR")]
    pub novel: Option<PathBuf>,
    /// Print machine-readable JSON instead of text.
    #[arg(long, global = true)]
    pub json: bool,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Create a new novel in DIR from a seed file and/or flags.
    New(Box<NewArgs>),
    /// Show where the story stands.
    Status,
    /// List characters, locations, relationships, loops, lore or scenes.
    List {
        #[arg(value_enum)]
        what: ListKind,
    },
    /// Show one record (C0, L1, R0, O2, W0, S3) with its history.
    Inspect { id: String },
    /// Write the next scene (one story tick).
    Tick(TickArgs),
    /// Write the next N scenes. Ctrl-C stops after the current tick; twice cancels it.
    Run {
        #[arg(long, short = 'n', default_value_t = 5)]
        n: u32,
        #[command(flatten)]
        tick: TickArgs,
    },
    /// The story so far, from the scene summaries.
    Summarize,
    /// Configure and check LLM providers (kept in your config directory, never in a novel).
    #[command(subcommand)]
    Providers(ProvidersCommand),
    /// Rebuild the search index (passages, summaries, embeddings) from the story memory.
    Reindex,
    /// Show what the next prompt will contain: each section's tokens against its budget.
    Context {
        /// The next tick's planner prompt (the only prompt known before the tick runs).
        #[arg(long, required = true)]
        next: bool,
        /// Also print the rendered prompt.
        #[arg(long)]
        show: bool,
    },
    /// Copy novel.db into backups/ now (the newest 10 are kept; one is also taken every 10
    /// ticks and before an upgrade).
    Backup {
        /// Check novel.db and the copy with SQLite's integrity_check.
        #[arg(long)]
        verify: bool,
        /// List the backups instead of taking one.
        #[arg(long, conflicts_with = "verify")]
        list: bool,
    },
    /// Put a backup of novel.db back in place; the current one is kept aside, never deleted.
    #[command(group = clap::ArgGroup::new("source").required(true))]
    Restore {
        /// The backup file to restore.
        #[arg(group = "source")]
        file: Option<PathBuf>,
        /// Restore the newest backup in backups/ that passes integrity_check.
        #[arg(long, group = "source")]
        latest: bool,
    },
    /// Export the manuscript.
    Export {
        #[arg(long, value_enum, default_value = "md")]
        format: ExportFormat,
        /// Where to write it (default: exports/<title>.md inside the novel).
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum ListKind {
    Characters,
    Locations,
    Relationships,
    Loops,
    Lore,
    Scenes,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum ExportFormat {
    Md,
}

#[derive(Debug, Args)]
pub struct NewArgs {
    /// Directory to create (must not exist, or be empty).
    pub dir: PathBuf,
    /// A seed TOML file (goal, [novel], [protagonist], [location]); flags override it.
    #[arg(long, value_name = "FILE")]
    pub seed: Option<PathBuf>,
    #[arg(long)]
    pub title: Option<String>,
    #[arg(long)]
    pub genre: Option<String>,
    #[arg(long)]
    pub premise: Option<String>,
    #[arg(long)]
    pub setting: Option<String>,
    #[arg(long)]
    pub tone: Option<String>,
    #[arg(long)]
    pub style: Option<String>,
    /// deep-third or first.
    #[arg(long)]
    pub pov: Option<String>,
    /// past or present.
    #[arg(long)]
    pub tense: Option<String>,
    #[arg(long)]
    pub language: Option<String>,
    /// The protagonist's name.
    #[arg(long)]
    pub protagonist: Option<String>,
    #[arg(long)]
    pub protagonist_role: Option<String>,
    #[arg(long)]
    pub protagonist_description: Option<String>,
    /// The starting location's name.
    #[arg(long)]
    pub location: Option<String>,
    #[arg(long)]
    pub location_description: Option<String>,
    /// Where the story is headed: the protagonist's directional goal.
    #[arg(long)]
    pub goal: Option<String>,
}

#[derive(Debug, Clone, Args)]
pub struct TickArgs {
    /// A steering note for the next scene ("Bram should betray her").
    #[arg(long)]
    pub note: Option<String>,
    /// Retry the tick that failed last (its error stays on disk for reference).
    #[arg(long)]
    pub retry: bool,
    /// The provider profile to use (default: the configured default).
    #[arg(long)]
    pub profile: Option<String>,
}

#[derive(Debug, Subcommand)]
pub enum ProvidersCommand {
    /// List the configured profiles.
    List,
    /// Add or replace a profile.
    Add {
        /// Profile name, e.g. "local".
        #[arg(long)]
        name: String,
        /// openai-compatible, ollama, anthropic, gemini or command.
        #[arg(long, default_value = "openai-compatible")]
        kind: String,
        /// The server's base URL, e.g. http://127.0.0.1:8080/v1.
        #[arg(long)]
        base_url: Option<String>,
        /// The model name the server knows.
        #[arg(long, default_value = "")]
        model: String,
        /// The NAME of the environment variable holding the API key (never the key itself).
        #[arg(long, conflicts_with = "key_in_keychain")]
        api_key_env: Option<String>,
        /// Read the API key from the OS keychain; store it there with `novel providers set-key`.
        #[arg(long)]
        key_in_keychain: bool,
        /// For --kind command: the program and its arguments, e.g. -- codex exec -.
        #[arg(last = true)]
        command: Vec<String>,
        /// Make it the default profile.
        #[arg(long)]
        default: bool,
    },
    /// Store a profile's API key in the OS keychain, read from standard input (never echoed),
    /// and make the profile read its key from there.
    SetKey {
        /// The profile whose key this is.
        profile: String,
    },
    /// Remove a profile's API key from the OS keychain.
    DeleteKey {
        /// The profile whose key to remove.
        profile: String,
    },
    /// Send one small request and report model, latency and structured-output support.
    Test {
        #[arg(long)]
        profile: Option<String>,
    },
}
