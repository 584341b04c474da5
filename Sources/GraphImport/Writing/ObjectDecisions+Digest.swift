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

    /// `digest` as a row stores it: its first 16 bits the map's (`ImportPlan.digestSeed`), so that
    /// a stored digest tells whether this map wrote it (`replacesStoredDigest`); 112 bits of the
    /// hash are left, still far from any collision over a store's life.
    func stamped(_ digest: ContentDigest) -> ContentDigest {
        let mask: UInt64 = 0xFFFF << 48
        return ContentDigest(high: (plan.digestSeed.high & mask) | (digest.high & ~mask), low: digest.low)
    }

    /// Whether an object found equal value by value, whose row holds `stored`, takes `digest`
    /// (what its write would store, `stamped`): when the row holds none, or one another map
    /// wrote (an edit of the map changes every digest), or the object must hold none. A digest
    /// this map wrote is kept though it differs: the row is what that digest's draft makes, so
    /// it stays true, and replacing it would write the row again on every import for an object
    /// met in several batches with different occurrences (a user as an author, then a mention).
    func replacesStoredDigest(_ stored: ContentDigest?, with digest: ContentDigest?) -> Bool {
        guard stored != digest else { return false }
        guard let stored, let digest else { return true }
        return stamped(stored) != stored && stamped(digest) == digest
    }
}

extension ContentDigest {
    /// The digest of an object met again with `next` after the occurrences this digest stands
    /// for: the occurrences written in order make one row, and writing them again in the same
    /// order over it leaves it as it is (each write sets what its draft gives and keeps the
    /// rest), so the digest of the sequence may stand for the row. A repeat of the last
    /// occurrence changes nothing and is not added (that is the caller's to skip).
    func followed(by next: ContentDigest) -> ContentDigest {
        var hasher = ContentHasher(seed: self)
        hasher.add(next.high)
        hasher.add(next.low)
        return hasher.digest
    }
}
