//! The subject of a clause and who it refers to: the POV character, another known character,
//! someone else, or unclear; and how it agrees with its verb. The people reader finds them and
//! the scene keeps them once read.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Referent {
    /// The POV character (the narrator in the first person).
    Pov,
    /// Another known character.
    Person(usize),
    /// Another person the memory does not know, or whose identity is unclear but who is
    /// certainly not the POV character.
    Someone,
    /// Cannot tell.
    Unclear,
}

impl Referent {
    pub fn is_other(self) -> bool {
        matches!(self, Referent::Person(_) | Referent::Someone)
    }
}

/// How the subject agrees with its verb.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Agreement {
    /// he, she, a name, a noun phrase: "walks".
    Third,
    /// I, we, they, you: "walk".
    Plain,
}

#[derive(Debug, Clone, Copy)]
pub(super) struct Subject {
    /// Token range of the subject words.
    pub first: usize,
    pub last: usize,
    pub referent: Referent,
    pub agreement: Agreement,
    /// "I", "me", "we": the narrator speaking of themself.
    pub first_person: bool,
}
