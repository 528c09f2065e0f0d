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
    /// Write the latest scene again (its memory changes are undone first; the old scene stays
    /// as a version).
    Regenerate {
        /// A steering note for the new attempt.
        #[arg(long)]
        note: Option<String>,
        /// The provider profile to use (default: the configured default).
        #[arg(long)]
        profile: Option<String>,
    },
    /// Return the story exactly to its state right after scene N; the later scenes become a
    /// branch.
    Rewind {
        #[arg(long, value_name = "N")]
        to: u32,
    },
    /// List every version of a scene (drafts, revisions, regenerations, edits).
    Versions {
        /// The scene number.
        scene: u32,
        /// Print the text of this version (its number in the list).
        #[arg(long)]
        show: Option<usize>,
        /// Show what changed between two versions (their numbers in the list).
        #[arg(long, num_args = 2, value_names = ["A", "B"])]
        diff: Option<Vec<usize>>,
    },
    /// Make a version of a scene its text again (the restore is itself undoable).
    RestoreVersion {
        /// The scene number.
        scene: u32,
        /// The version's number in `novel versions <scene>`.
        version: usize,
    },
    /// Branches of the story: list, fork, switch, rename, delete, compare.
    #[command(subcommand)]
    Branch(BranchCommand),
    /// Run every check (POV, tense, person, continuity, meta text, style) on a prose file
    /// against this novel's settings and story memory.
    Check {
        /// The prose to check: a draft, or a scene file from scenes/.
        file: PathBuf,
        /// Whose point of view the text is in (a character id; default: the active one).
        #[arg(long, value_name = "ID")]
        pov_character: Option<String>,
        /// Where the scene happens (a location id; default: the POV character's last place).
        #[arg(long, value_name = "ID")]
        location: Option<String>,
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
    /// The book's chapters and parts: list them, rename, split, merge, open a part, or fix the
    /// proposed grouping.
    #[command(subcommand)]
    Chapter(ChapterCommand),
    /// Start a novel from an existing manuscript (.md, .txt or .docx): split into chapters and
    /// scenes, then one extraction call per scene (characters, places, loops, summaries).
    /// Run it again after a stop or a failure to carry on where it stopped.
    Import {
        /// The manuscript file (ignored when resuming an import already started in the novel).
        file: PathBuf,
        /// The new novel's folder (title, genre… flags as for `novel new`; the protagonist,
        /// first location and goal are still needed).
        #[command(flatten)]
        novel: Box<NewArgs>,
        /// The provider profile to use (default: the configured default).
        #[arg(long)]
        profile: Option<String>,
    },
    /// Search the book's prose by words and by meaning (the local embedding model, when
    /// installed); each hit names its chapter and scene.
    Search {
        query: String,
        /// Match words only.
        #[arg(long, conflicts_with = "meaning")]
        words: bool,
        /// Match by meaning only (needs the local embedding model).
        #[arg(long)]
        meaning: bool,
        /// How many passages to show.
        #[arg(short = 'n', long, default_value_t = 10)]
        limit: u32,
    },
    /// Replace a name across the whole book (prose, scene titles, summaries) as one change;
    /// whole words only, case as given.
    Replace {
        old: String,
        new: String,
        /// Also rename the character or place bearing the old name, keeping it as an alias.
        #[arg(long)]
        alias: bool,
        /// Only say what would change.
        #[arg(long)]
        dry_run: bool,
    },
    /// Export the manuscript with its chapters: Markdown, an EPUB 3 e-book, or a DOCX in
    /// standard manuscript format.
    Export {
        #[arg(long, value_enum, default_value = "md")]
        format: ExportFormat,
        /// Where to write it (default: exports/<title>.<md|epub|docx> inside the novel).
        #[arg(short, long)]
        output: Option<PathBuf>,
        /// The author's name on the title page (default: the author in novel.toml).
        #[arg(long)]
        author: Option<String>,
        /// The DOCX manuscript's typeface.
        #[arg(long, value_enum, default_value = "times")]
        font: FontArg,
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

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PovArg {
    /// Close third person, limited to the POV character.
    #[value(name = "deep-third", alias = "third")]
    DeepThird,
    /// First person.
    First,
}

impl From<PovArg> for novel_core::config::PointOfView {
    fn from(p: PovArg) -> Self {
        match p {
            PovArg::DeepThird => novel_core::config::PointOfView::DeepThird,
            PovArg::First => novel_core::config::PointOfView::First,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TenseArg {
    Past,
    Present,
}

impl From<TenseArg> for novel_core::config::Tense {
    fn from(t: TenseArg) -> Self {
        match t {
            TenseArg::Past => novel_core::config::Tense::Past,
            TenseArg::Present => novel_core::config::Tense::Present,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum KindArg {
    /// OpenAI chat completions: OpenAI, llama.cpp, LM Studio, vLLM, OpenRouter, …
    OpenaiCompatible,
    Ollama,
    Anthropic,
    Gemini,
    /// A command-line agent that reads the prompt on stdin.
    Command,
}

impl From<KindArg> for novel_llm::ProviderKind {
    fn from(k: KindArg) -> Self {
        match k {
            KindArg::OpenaiCompatible => novel_llm::ProviderKind::OpenAiCompatible,
            KindArg::Ollama => novel_llm::ProviderKind::Ollama,
            KindArg::Anthropic => novel_llm::ProviderKind::Anthropic,
            KindArg::Gemini => novel_llm::ProviderKind::Gemini,
            KindArg::Command => novel_llm::ProviderKind::Command,
        }
    }
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum ExportFormat {
    Md,
    Epub,
    Docx,
}

impl From<ExportFormat> for novel_core::export::ExportFormat {
    fn from(f: ExportFormat) -> Self {
        match f {
            ExportFormat::Md => novel_core::export::ExportFormat::Markdown,
            ExportFormat::Epub => novel_core::export::ExportFormat::Epub,
            ExportFormat::Docx => novel_core::export::ExportFormat::Docx,
        }
    }
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum FontArg {
    /// Times New Roman.
    Times,
    /// Courier New.
    Courier,
}

impl From<FontArg> for novel_core::export::ManuscriptFont {
    fn from(f: FontArg) -> Self {
        match f {
            FontArg::Times => novel_core::export::ManuscriptFont::TimesNewRoman,
            FontArg::Courier => novel_core::export::ManuscriptFont::Courier,
        }
    }
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
    /// Point of view.
    #[arg(long, value_enum)]
    pub pov: Option<PovArg>,
    /// Narrative tense.
    #[arg(long, value_enum)]
    pub tense: Option<TenseArg>,
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
    #[arg(long, conflicts_with = "skip")]
    pub retry: bool,
    /// Give up on the tick that failed last, without writing: the next tick starts fresh (its
    /// error stays on disk for reference).
    #[arg(long, conflicts_with = "note")]
    pub skip: bool,
    /// The provider profile to use (default: the configured default).
    #[arg(long)]
    pub profile: Option<String>,
    /// Review before anything commits: accept, edit or reject the plan, then the scene with
    /// its memory changes (untick the ones you do not want).
    #[arg(long)]
    pub review: bool,
    /// Print the plan the next tick would follow, and stop: nothing runs or changes.
    #[arg(long, conflicts_with_all = ["review", "retry", "skip"])]
    pub dry_run: bool,
}

#[derive(Debug, Subcommand)]
pub enum BranchCommand {
    /// The branches, the current one marked.
    List,
    /// A new branch at scene N (default: the latest), made current.
    New {
        name: String,
        #[arg(long, value_name = "N")]
        at: Option<u32>,
    },
    /// Make a branch current: the story takes its latest state.
    Switch {
        name: String,
    },
    Rename {
        name: String,
        new_name: String,
    },
    /// Delete a branch (not the current one); its scenes stay as versions.
    Delete {
        name: String,
    },
    /// A scene as every branch has it.
    Compare {
        /// The scene number.
        scene: u32,
    },
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
        /// The provider's wire protocol.
        #[arg(long, value_enum, default_value = "openai-compatible")]
        kind: KindArg,
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
    /// Delete a profile, and its API key from the OS keychain when it kept one there.
    Remove {
        /// The profile to delete.
        name: String,
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

#[derive(Debug, Subcommand)]
pub enum ChapterCommand {
    /// The chapters with their scenes and words; proposed ones are marked.
    List,
    /// Give chapter N a title.
    Rename { number: u32, title: String },
    /// Split chapter N before scene AT: the scenes from AT on become the next chapter.
    Split {
        number: u32,
        /// The scene (tick) that opens the new chapter.
        #[arg(long, value_name = "SCENE")]
        at: u32,
    },
    /// Merge chapter N with the chapter after it.
    Merge { number: u32 },
    /// Open a part at chapter N with a heading ("Part Two: Iron"); without one, remove it.
    Part { number: u32, title: Option<String> },
    /// Group the scenes no chapter holds yet into chapters of EVERY scenes, titled from them.
    Propose {
        #[arg(long, default_value_t = 10)]
        every: u32,
    },
}
