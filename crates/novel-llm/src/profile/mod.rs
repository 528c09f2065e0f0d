//! Provider profiles: everything the writer configures about a model, and nothing that talks to
//! it. `provider` is one profile (kind, server, model, where its key comes from), `settings`
//! its generation settings and what its server was found to accept, `check` what each field
//! must hold (shared by every settings form and by `providers.toml`), `store` the
//! `providers.toml` file in the user's config directory, `keychain` the OS keychain that may
//! hold a profile's key and `key_policy` where a key is read from and where it may be sent.

pub mod check;
pub mod key_policy;
pub mod keychain;
pub mod provider;
pub mod settings;
pub mod store;
