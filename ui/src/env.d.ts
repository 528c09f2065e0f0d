// Compile-time constants defined by the Vite configs (true only in the test harness build).
declare const __TEST_HOOKS__: boolean;
