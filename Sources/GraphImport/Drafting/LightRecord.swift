import GraphImportJSON

/// A record handed to the writer as the keys and content digests of its objects instead of
/// their drafts (step 3 of docs/unchanged-objects-plan.md): most records of a re-import are
/// unchanged, and drafting them (every value converted, every text made, every array allocated)
/// was half of the reading thread's work, only for the writer to find them equal.
///
/// The writer looks each object up; when every one is stored with an equal digest the record is
/// done (its objects touched and counted unchanged, what it names met). When any may differ, the
/// writer drafts the record itself from `slots` (the same `DraftBuilder`) and writes it as any
/// other: both ways leave the same store.
struct LightRecord: Sendable {
    /// An object the full draft would make, with its key and its digest taken from the slots.
    struct Object: Sendable {
        let entity: Int
        let key: ObjectKey
        let digest: ContentDigest
    }

    /// An object the record names by its key alone (a reference), which the run must meet.
    struct Reference: Sendable {
        let entity: Int
        let key: ObjectKey
    }

    /// In the order the full draft would write them.
    var objects: [Object]
    var references: [Reference]
    /// What the record is drafted from when an object differs: the record (its value unread),
    /// its route and its table.
    let record: JSONRecord
    let route: Int
    let slots: JSONSlots
}
