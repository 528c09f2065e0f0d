//! The desktop shell's tests without a window: the generated TypeScript bindings are current, and
//! the window's permissions allow exactly the app's commands. One test binary, to keep the
//! build's disk use and link time down.

mod bindings;
mod permissions;
