//! The small novel the commands' unit tests open: created from a filled-in New novel form, as
//! the app creates one, in a folder of the test's own.

use std::path::Path;

use novel_core::clock::SystemClock;
use novel_core::library::NewNovelForm;
use novel_core::{Access, Novel};

/// "Salt and Iron" (Tamsin Vale at the Rainmarket Docks), created in `dir/salt` and opened with
/// `access`.
pub fn salt(dir: &Path, access: Access) -> Novel {
    let root = dir.join("salt");
    let seed = NewNovelForm::example().to_seed().expect("a valid form");
    Novel::create(&root, seed, &SystemClock).expect("the novel is created");
    Novel::open(&root, access).expect("the novel opens")
}
