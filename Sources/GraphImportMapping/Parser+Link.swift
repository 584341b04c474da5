/// `link` lines: attributes of the links of the to-many line above them.
extension Parser {
    /// The member line that `link` lines may follow.
    enum LinkOwner {
        /// The previous statement was not a member line or a `link` line.
        case none
        /// `link` lines go to `syntax.entities[entity].members[member]`.
        case open(entity: Int, member: Int)
        /// A member line with a syntax error (or outside an entity): its `link` lines are checked
        /// for syntax but dropped.
        case broken
    }

    /// link = "link" NAME [ "<-" path ] ":" type ;
    /// It belongs to the member line above it, with only `link` lines (blank lines and comments)
    /// in between; whether that member is a to-many, and the type a built-in one, is settled by
    /// the validator.
    mutating func parseLink(owner: LinkOwner) throws(Problem) {
        let keywordOffset = current.start
        advance()
        linkOwner = owner
        let name = try parseName("a link attribute name after 'link'")
        var path: KeyPath?
        var pathOffset: Int?
        let arrow = current.kind == .arrow ? current.start : nil
        if current.kind == .arrow {
            advance()
            pathOffset = current.start
            let linkPath = try parsePath(allowingAnyIndex: false, after: "'<-'")
            if linkPath.isAnchored {
                throw .anchorMisplaced(linkPath.components.first == .root ? "@root" : "@parent", place: "a `link` line", at: pathOffset ?? 0)
            }
            path = linkPath
            guard current.kind == .colon else { throw expected("':' and a type after the path") }
        } else if current.kind != .colon {
            throw expected("'<-' and a path, or ':' and a type after the link attribute name")
        }
        advance()
        var member = try parseType(name: name, path: path)
        member.arrowOffset = arrow
        member.pathOffset = pathOffset
        switch owner {
        case .open(let entity, let index):
            syntax.entities[entity].members[index].links.append(LinkSyntax(keywordOffset: keywordOffset, member: member))
        case .broken: return
        case .none: throw .linkWithoutRelationship(at: keywordOffset)
        }
    }
}
