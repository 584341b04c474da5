extension ObjectDecisions {
    /// Whether a stored object of `entity` is unchanged by its content digest alone, with no
    /// value or list read back: the run trusts the entity's digests (`trustsDigest`), the object
    /// to be written has one (`digest`), its row holds the same (`storedDigest`), and the row is
    /// no stub (a stub's digest is NULL; a stub completed is a change). The one rule for every
    /// store and for a record not yet drafted.
    func isUnchanged(_ entity: Int, digest: ContentDigest?, storedDigest: ContentDigest?, storedStub: Bool) -> Bool {
        guard trustsDigest[entity], !storedStub, let digest, let storedDigest else { return false }
        return digest == storedDigest
    }
}
