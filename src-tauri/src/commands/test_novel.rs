//! The small novel the commands' unit tests open: created through the New novel form's
//! defaults, as the app creates one, in a folder of the test's own.

use std::path::Path;

use novel_core::clock::SystemClock;
use novel_core::library::NewNovelForm;
use novel_core::novel::{Access, Novel};

/// "Salt and Iron" (Tamsin Vale at the Rainmarket Docks), created in `dir/salt` and opened with
/// `access`.
pub fn salt(dir: &Path, access: Access) -> Novel {
    let form = NewNovelForm {
        title: "Salt and Iron".into(),
        premise: "A smuggler hunts the men who framed her brother.".into(),
        language: "English".into(),
        protagonist_name: "Tamsin Vale".into(),
        location_name: "Rainmarket Docks".into(),
        goal: "Clear her brother's name".into(),
        ..NewNovelForm::default()
    };
    let root = dir.join("salt");
    Novel::create(&root, form.to_seed().expect("a valid form"), &SystemClock)
        .expect("the novel is created");
    Novel::open(&root, access).expect("the novel opens")
}
