//! Starting and stopping the server: the async `TestServer` handle, its options, and the
//! `BlockingTestServer` that owns a runtime for synchronous tests.

use std::net::{Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

use crate::cache::PromptCache;
use crate::record::{RecordedRequest, Recorder};
use crate::routes::{self, AppState};
use crate::script::Script;
use crate::selection::Selector;

/// How long `shutdown` lets open connections (e.g. a scripted long delay) finish.
const GRACE: Duration = Duration::from_secs(2);

/// How to run the server; the default is a random port, no record file, no logging, no prompt
/// cache. Set the fields wanted and default the rest:
/// `ServerOptions { cache_slots: 2, ..ServerOptions::default() }`.
#[derive(Debug, Clone, Default)]
pub struct ServerOptions {
    /// Port on 127.0.0.1; 0 picks a free one.
    pub port: u16,
    /// Append every recorded request as one JSON line to this file.
    pub record_path: Option<PathBuf>,
    /// Write one line per request to stderr.
    pub log_requests: bool,
    /// Slots of the prompt-cache imitation (llama-server's `--parallel`): answers then report
    /// cached and processed prompt tokens in `usage` and `timings`, and a llama.cpp imitation
    /// serves `GET /slots`. 0 (the default) turns the cache off.
    pub cache_slots: usize,
}

/// A running server. Dropping it also starts a graceful shutdown.
#[derive(Debug)]
pub struct TestServer {
    addr: SocketAddr,
    state: Arc<AppState>,
    stop: oneshot::Sender<()>,
    task: JoinHandle<std::io::Result<()>>,
}

impl TestServer {
    /// Serves `script` on a free port of 127.0.0.1.
    pub async fn start(script: Script) -> std::io::Result<TestServer> {
        Self::start_with(script, ServerOptions::default()).await
    }

    /// Serves `script` as `options` say.
    pub async fn start_with(script: Script, options: ServerOptions) -> std::io::Result<TestServer> {
        let recorder = Recorder::new(options.record_path.as_deref())?;
        let state = Arc::new(AppState {
            selector: Mutex::new(Selector::new(script.rules)),
            recorder,
            models: script.models,
            quirks: script.quirks,
            hits: Mutex::default(),
            credentials: Mutex::default(),
            log_requests: options.log_requests,
            next_id: AtomicU64::new(0),
            cache: Mutex::new(PromptCache::new(options.cache_slots)),
        });
        let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, options.port)).await?;
        let addr = listener.local_addr()?;
        let (stop, stopped) = oneshot::channel::<()>();
        let app = routes::router(Arc::clone(&state));
        let task = tokio::spawn(async move {
            axum::serve(listener, app)
                .with_graceful_shutdown(async move {
                    // A dropped sender means the handle is gone: stop as well.
                    let _ = stopped.await;
                })
                .await
        });
        Ok(TestServer {
            addr,
            state,
            stop,
            task,
        })
    }

    /// Starts a server on its own runtime thread, for synchronous tests; call it outside any
    /// async runtime.
    pub fn start_blocking(script: Script) -> std::io::Result<BlockingTestServer> {
        BlockingTestServer::start(script, ServerOptions::default())
    }

    /// [`TestServer::start_blocking`] as `options` say.
    pub fn start_blocking_with(
        script: Script,
        options: ServerOptions,
    ) -> std::io::Result<BlockingTestServer> {
        BlockingTestServer::start(script, options)
    }

    /// The bound socket address.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The OpenAI base URL, e.g. `http://127.0.0.1:PORT/v1`.
    pub fn base_url(&self) -> String {
        format!("http://{}/v1", self.addr)
    }

    /// The server's root, e.g. `http://127.0.0.1:PORT` (where Ollama's `/api/…` and
    /// llama.cpp's `/props` live).
    pub fn root_url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Chat requests received so far, in arrival order, each with what the prompt cache
    /// reported for it ([`RecordedRequest::cache`]).
    pub fn requests(&self) -> Vec<RecordedRequest> {
        self.state.recorder.snapshot()
    }

    /// Every request so far, chat or not, as `"METHOD /path"`, in arrival order.
    pub fn hits(&self) -> Vec<String> {
        self.state.hits()
    }

    /// Every credential header (`authorization`, `x-api-key`, `x-goog-api-key`) any request
    /// carried, chat or not, with its `"METHOD /path"`: where a key went.
    pub fn credentials(&self) -> Vec<(String, String)> {
        self.state.credentials()
    }

    /// How many chat requests arrived so far.
    pub fn request_count(&self) -> usize {
        self.state.recorder.count()
    }

    /// Stops accepting, lets open connections finish for a short grace period, then stops.
    pub async fn shutdown(self) {
        let TestServer { stop, mut task, .. } = self;
        let _ = stop.send(());
        if tokio::time::timeout(GRACE, &mut task).await.is_err() {
            task.abort();
        }
    }
}

/// A `TestServer` with its own runtime; shuts down when dropped.
#[derive(Debug)]
pub struct BlockingTestServer {
    server: Option<TestServer>,
    runtime: Option<tokio::runtime::Runtime>,
}

impl BlockingTestServer {
    fn start(script: Script, options: ServerOptions) -> std::io::Result<Self> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("novel-test-server")
            .enable_all()
            .build()?;
        let server = runtime.block_on(TestServer::start_with(script, options))?;
        Ok(BlockingTestServer {
            server: Some(server),
            runtime: Some(runtime),
        })
    }

    fn server(&self) -> &TestServer {
        // Both options are only emptied inside `drop`, after which no method can run.
        self.server.as_ref().expect("server present until drop")
    }

    /// The bound socket address.
    pub fn addr(&self) -> SocketAddr {
        self.server().addr()
    }

    /// The OpenAI base URL, e.g. `http://127.0.0.1:PORT/v1`.
    pub fn base_url(&self) -> String {
        self.server().base_url()
    }

    /// The server's root, e.g. `http://127.0.0.1:PORT`.
    pub fn root_url(&self) -> String {
        self.server().root_url()
    }

    /// Chat requests received so far, in arrival order, with their cache reports.
    pub fn requests(&self) -> Vec<RecordedRequest> {
        self.server().requests()
    }

    /// Every request so far, chat or not, as `"METHOD /path"`.
    pub fn hits(&self) -> Vec<String> {
        self.server().hits()
    }

    /// Every credential header any request carried; see [`TestServer::credentials`].
    pub fn credentials(&self) -> Vec<(String, String)> {
        self.server().credentials()
    }

    /// How many chat requests arrived so far.
    pub fn request_count(&self) -> usize {
        self.server().request_count()
    }
}

impl Drop for BlockingTestServer {
    fn drop(&mut self) {
        // Dropping the handle signals the graceful stop; ending the runtime then cancels
        // whatever is still open, so no connection outlives the test.
        drop(self.server.take());
        if let Some(runtime) = self.runtime.take() {
            if tokio::runtime::Handle::try_current().is_ok() {
                // Blocking here would panic inside an async context.
                runtime.shutdown_background();
            } else {
                runtime.shutdown_timeout(Duration::from_millis(500));
            }
        }
    }
}
