//! How the window draws on Linux. WebKitGTK composites the page with OpenGL by default; on a
//! machine without a usable GPU that GL is Mesa's software rasteriser, which on the 2-core
//! reference machine held the reader's scrolling to 20–26 frames a second and cost the web
//! process about 100 MB more at idle than drawing without compositing, which scrolls the
//! 300-scene reader and pans the graph at 60 frames a second (BENCHMARKS.md, "The desktop
//! app"). A manuscript is text, which WebKit draws well on the CPU, so the app draws without
//! GPU compositing unless the writer asks for it with `NOVEL_AGENT_GPU=1` (e.g. on a HiDPI
//! screen with a fast GPU). The page also keeps no browser-style caches: it loads only the
//! app's own bundle, so WebKit's document-viewer cache model is enough.

/// The environment variable that turns GPU compositing back on.
pub const GPU_VARIABLE: &str = "NOVEL_AGENT_GPU";

/// Whether the writer asked for GPU compositing (`NOVEL_AGENT_GPU` set to 1, true or yes).
pub fn gpu_requested(value: Option<&str>) -> bool {
    value.is_some_and(|v| matches!(v.trim().to_ascii_lowercase().as_str(), "1" | "true" | "yes"))
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
    use webkit2gtk::{
        CacheModel, HardwareAccelerationPolicy, SettingsExt, WebContextExt, WebViewExt,
    };

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
