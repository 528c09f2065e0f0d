//! How the window draws on Linux. WebKitGTK composites the page with OpenGL by default; on a
//! machine without a usable GPU that GL is Mesa's software rasteriser, which on the 2-core
//! reference machine held the reader's scrolling to 20–26 frames a second and cost the web
//! process about 100 MB more at idle than drawing without compositing, which scrolls the
//! 300-scene reader and pans the graph at 60 frames a second (BENCHMARKS.md, "The desktop
//! app"). A manuscript is text, which WebKit draws well on the CPU, so the app draws without
//! GPU compositing unless the writer asks for it with `NOVEL_AGENT_GPU=1` (e.g. on a HiDPI
//! screen with a fast GPU). The page also keeps no browser-style caches: it loads only the
//! app's own bundle, so WebKit's document-viewer cache model is enough.
//!
//! Drawing on the CPU leaves the app's own process (GTK and WebKit's UI side) nothing to do
//! with OpenGL, yet both load the system's GL driver at start: GTK probes GLX when it opens the
//! display, and WebKit's UI side opens an EGL display when the web context is made. Without a
//! GPU that driver is Mesa's, with LLVM inside, about 28 MB of the app process at idle
//! (BENCHMARKS.md). [`prepare_process`] keeps it out: GTK is told GL is off (`GDK_GL=disable`),
//! and the EGL loader (libglvnd) is made to read an empty vendor list once, in this process
//! only, so the later EGL display fails and WebKit's UI side goes on without one, as it does on
//! a machine without EGL. The web process, which WebKit starts later with the environment
//! restored, still finds EGL: it needs a display even when it paints on the CPU.

/// The environment variable that turns GPU compositing back on.
pub const GPU_VARIABLE: &str = "NOVEL_AGENT_GPU";

/// Whether the writer asked for GPU compositing (`NOVEL_AGENT_GPU` set to 1, true or yes).
pub fn gpu_requested(value: Option<&str>) -> bool {
    value.is_some_and(|v| matches!(v.trim().to_ascii_lowercase().as_str(), "1" | "true" | "yes"))
}

/// Prepares the app's process for drawing without GPU compositing (see the module's
/// documentation); does nothing when the writer asked for the GPU. Must run first in `main`,
/// before any other thread exists: it changes the process environment.
pub fn prepare_process() {
    let gpu = gpu_requested(std::env::var(GPU_VARIABLE).ok().as_deref());
    #[cfg(target_os = "linux")]
    if !gpu {
        linux::keep_gl_out_of_this_process();
    }
    #[cfg(not(target_os = "linux"))]
    let _ = gpu;
}

/// Applies the drawing settings to the app's main window.
pub fn configure(window: &tauri::WebviewWindow) {
    let gpu = gpu_requested(std::env::var(GPU_VARIABLE).ok().as_deref());
    #[cfg(target_os = "linux")]
    if let Err(e) = window.with_webview(move |view| linux::configure(&view.inner(), gpu)) {
        tracing::warn!("the window's drawing settings were not applied: {e}");
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (window, gpu);
}

#[cfg(target_os = "linux")]
mod linux {
    use std::ffi::{c_char, c_void};
    use webkit2gtk::{
        CacheModel, HardwareAccelerationPolicy, SettingsExt, WebContextExt, WebViewExt,
    };

    /// libglvnd's override for where EGL vendor descriptions are read from.
    const EGL_VENDORS: &str = "__EGL_VENDOR_LIBRARY_FILENAMES";
    /// `EGL_EXTENSIONS`, asked of no display: the client extensions.
    const EGL_EXTENSIONS: i32 = 0x3055;

    pub fn keep_gl_out_of_this_process() {
        // A writer's own GDK_GL setting wins.
        if std::env::var_os("GDK_GL").is_none() {
            // SAFETY: `prepare_process` runs first in `main`, before any other thread exists,
            // so nothing reads the environment while it changes.
            unsafe { std::env::set_var("GDK_GL", "disable") };
        }
        let saved = std::env::var_os(EGL_VENDORS);
        // SAFETY: as above, single-threaded.
        unsafe { std::env::set_var(EGL_VENDORS, "/dev/null") };
        // Without glvnd (or without libEGL) nothing changes: the driver loads as before.
        let _ = read_egl_vendors_now();
        // SAFETY: as above, single-threaded. The processes WebKit starts later get the
        // environment as it was.
        match saved {
            Some(value) => unsafe { std::env::set_var(EGL_VENDORS, value) },
            None => unsafe { std::env::remove_var(EGL_VENDORS) },
        }
    }

    /// The first EGL call makes libglvnd read its vendor list, once per process.
    fn read_egl_vendors_now() -> Result<(), libloading::Error> {
        type QueryString = unsafe extern "C" fn(*mut c_void, i32) -> *const c_char;
        // SAFETY: libEGL is already loaded (WebKitGTK links it); its initialisers have run.
        let egl = unsafe { libloading::Library::new("libEGL.so.1") }?;
        // SAFETY: the symbol has this signature in every EGL 1.4+ implementation.
        let query = unsafe { egl.get::<QueryString>(b"eglQueryString\0") }?;
        // SAFETY: EGL_NO_DISPLAY (null) with EGL_EXTENSIONS is a valid query; the returned
        // string is not kept.
        unsafe { query(std::ptr::null_mut(), EGL_EXTENSIONS) };
        // The library stays loaded for the process's life, as WebKit's own link keeps it.
        std::mem::forget(egl);
        Ok(())
    }

    pub fn configure(view: &webkit2gtk::WebView, gpu: bool) {
        if !gpu && let Some(settings) = WebViewExt::settings(view) {
            settings.set_hardware_acceleration_policy(HardwareAccelerationPolicy::Never);
        }
        if let Some(context) = view.context() {
            context.set_cache_model(CacheModel::DocumentViewer);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::gpu_requested;

    #[test]
    fn only_an_explicit_yes_turns_gpu_compositing_on() {
        for yes in ["1", "true", "YES", " yes "] {
            assert!(gpu_requested(Some(yes)), "{yes:?}");
        }
        for no in [
            None,
            Some(""),
            Some("0"),
            Some("false"),
            Some("no"),
            Some("maybe"),
        ] {
            assert!(!gpu_requested(no), "{no:?}");
        }
    }
}
