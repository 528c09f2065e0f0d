// uPlot formats numbers with `new Intl.NumberFormat(navigator.language)` when it loads; under
// a C/POSIX locale WebKit reports the language "C", which Intl rejects, and the import throws.
// Imported before uPlot, this swaps an unusable language for the browser's default.
try {
  new Intl.NumberFormat(navigator.language);
} catch {
  Object.defineProperty(navigator, "language", { value: new Intl.NumberFormat().resolvedOptions().locale, configurable: true });
}

export {};
