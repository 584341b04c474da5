extension Parser {
    /// Refuses `$key` and `$index` in a path that is not an attribute's, `@parent` and `@root` in a path that
    /// is not a member's, and `{*}` where no keyed iteration can stand (`allowingAnyMember` is
    /// true for `records` paths).
    func rejectingKeyedSteps(_ path: KeyPath, at offset: Int, place: String, allowingAnyMember: Bool = false) throws(Problem) -> KeyPath {
        if path.isMemberName { throw .memberNameOutsideAttribute(place, at: offset) }
        if path.isElementIndex { throw .elementIndexOutsideAttribute(place, at: offset) }
        if path.isAnchored { throw .anchorMisplaced(path.components.first == .root ? "@root" : "@parent", place: place, at: offset) }
        if !allowingAnyMember && path.components.contains(.anyMember) { throw .anyMemberMisplaced(at: offset) }
        return path
    }
}
