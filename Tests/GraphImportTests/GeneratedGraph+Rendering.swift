/// A JSON value as the renderer builds it, written as text with the escapes JSON allows.
indirect enum RenderedJSON {
    case object([(String, RenderedJSON)])
    case array([RenderedJSON])
    case string(String)
    case int(Int64)
    case double(Double)
    case bool(Bool)
    case null

    /// Compact text; `escapeAll` writes every non-ASCII character as `\uXXXX` (a surrogate pair
    /// past U+FFFF), as some services do.
    func text(escapeAll: Bool) -> String {
        var out = ""
        write(into: &out, escapeAll: escapeAll)
        return out
    }

    private func write(into out: inout String, escapeAll: Bool) {
        switch self {
        case .object(let members):
            out += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { out += "," }
                Self.string(member.0, into: &out, escapeAll: escapeAll)
                out += ":"
                member.1.write(into: &out, escapeAll: escapeAll)
            }
            out += "}"
        case .array(let elements):
            out += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { out += "," }
                element.write(into: &out, escapeAll: escapeAll)
            }
            out += "]"
        case .string(let text): Self.string(text, into: &out, escapeAll: escapeAll)
        case .int(let number): out += String(number)
        case .double(let number): out += "\(number)"
        case .bool(let value): out += value ? "true" : "false"
        case .null: out += "null"
        }
    }

    private static func string(_ text: String, into out: inout String, escapeAll: Bool) {
        func hex(_ unit: UInt16) -> String {
            let digits = String(unit, radix: 16)
            return "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
        }
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || (escapeAll && scalar.value > 0x7E) {
                    out += String(scalar).utf16.map(hex).joined()
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }
}

/// One way of writing a generated graph as JSON, the shapes real APIs use, with the map that reads it.
struct GraphRendering: CustomStringConvertible {
    enum Layout { case nested, roots }
    enum Documents: Equatable {
        /// One document.
        case one
        /// One input of JSON Lines: a repository per line (nested), or an envelope per line (roots).
        case lines(Int)
        /// Several inputs imported one after another, each a page of the graph.
        case pages(Int)
    }

    /// `nested`: the repositories are the records (`$[*]`), everything else nested in them, whole
    /// at least once, by key elsewhere. `roots`: an envelope whose sibling roots `repos`, `users`
    /// and `orgs` are each a records line.
    var layout: Layout
    var documents: Documents
    /// `orgs{*}`: organizations as an object keyed by slug (`slug <- $key`), referenced by slug elsewhere.
    var keyedOrgs: Bool
    /// With `keyedOrgs`: `slug <- slug, $key`, so that an organization may also be written whole elsewhere, with its slug.
    var orgSlugField: Bool
    /// `users{*}`: users as an object keyed by their id as text (`id <- id, $key : Int | int`).
    var keyedUsers: Bool
    /// `memberships{*}`: an organization's memberships as an object keyed by user id.
    var keyedMembers: Bool
    /// A second records line over the repositories' issues (`…issues[*] as Issue`), inside the
    /// repositories' records; the issues then carry their repository's key themselves.
    var issuesAsRecords: Bool
    /// Issues carry `repo_owner` and `repo_name`, read before `@parent` (fallback paths).
    var repositoryInIssues: Bool
    var escapeAll: Bool

    var description: String {
        var parts = [layout == .nested ? "nested" : "sibling roots"]
        switch documents {
        case .one: parts.append("one document")
        case .lines(let count): parts.append(layout == .nested ? "JSON Lines" : "JSON Lines of \(count) envelopes")
        case .pages(let count): parts.append("\(count) pages")
        }
        if keyedOrgs { parts.append(orgSlugField ? "orgs{*} or slug" : "orgs{*}") }
        if keyedUsers { parts.append("users{*}") }
        if keyedMembers { parts.append("memberships{*}") }
        if issuesAsRecords { parts.append("overlapping issues records") }
        if repositoryInIssues { parts.append("repository in issues") }
        if escapeAll { parts.append("\\u escapes") }
        return parts.joined(separator: ", ")
    }

    static func random(_ random: inout GraphRandom) -> GraphRendering {
        let layout: Layout = random.chance(1, in: 2) ? .nested : .roots
        let documents: Documents =
            switch random.next(3) {
            case 0: .one
            case 1: .lines(random.next(3) + 1)
            default: .pages(random.next(3) + 2)
            }
        let issuesAsRecords = random.chance(1, in: 3)
        let keyedUsers = layout == .roots && random.chance(1, in: 3)
        return GraphRendering(
            layout: layout, documents: documents, keyedOrgs: layout == .roots && random.chance(1, in: 2), orgSlugField: random.chance(1, in: 2),
            // Not both: a scalar below `memberships{*}` into an entity that reads `$key` is that
            // entity's object (named by the membership's member), not a reference to its key.
            keyedUsers: keyedUsers, keyedMembers: !keyedUsers && random.chance(1, in: 2),
            issuesAsRecords: issuesAsRecords, repositoryInIssues: issuesAsRecords || random.chance(1, in: 3), escapeAll: random.chance(1, in: 4))
    }

    /// The map that describes this rendering.
    var map: String {
        var records: [String] = []
        switch layout {
        case .nested:
            records.append("records at $[*] as Repo")
            // JSON Lines: each line is a repository, the top-level object `$[*]` takes whole.
            if issuesAsRecords { records.append(isLines ? "records at issues[*] as Issue" : "records at $[*].issues[*] as Issue") }
        case .roots:
            records.append("records at repos[*] as Repo")
            records.append(keyedUsers ? "records at users{*} as User" : "records at users[*] as User")
            records.append(keyedOrgs ? "records at orgs{*} as Org" : "records at orgs[*] as Org")
            if issuesAsRecords { records.append("records at repos[*].issues[*] as Issue") }
        }
        let repositoryPaths = repositoryInIssues ? ("repo_owner, @parent.owner", "repo_name, @parent.name") : ("@parent.owner", "@parent.name")
        return records.joined(separator: "\n") + "\n" + """
            entity Repo table repos
              key owner, name
              owner : String
              name : String
              stars : Int?
              org : Org?
              maintainer : User?
              watchers : [User | Org] by kind each ref
                "user" -> User
                "org" -> Org
              issues : [Issue]
            entity Issue table issues
              key repoOwner, repoName, number
              repoOwner <- \(repositoryPaths.0) : String
              repoName <- \(repositoryPaths.1) : String
              number : Int
              title : String
              author : User?
              assignee : (User | Org)? by kind each ref
                "user" -> User
                "org" -> Org
              notes : [Note]
            entity Note owned table notes
              body : String
              votes : Int?
            entity User table users
              key id
              id\(keyedUsers ? " <- id, $key" : "") : Int\(keyedUsers ? " | int" : "")
              login : String
              bio : String?
              manager : User?
            entity Org table orgs
              key slug
              slug\(keyedOrgs ? (orgSlugField ? " <- slug, $key" : " <- $key") : "") : String
              name : String
              score : Int?
              verified : Bool?
              members <- memberships\(keyedMembers ? "{*}" : "") : [User] each user
                link role : String

            """
    }

    private var isLines: Bool {
        if case .lines = documents { true } else { false }
    }

    /// The inputs, imported in this order.
    func inputs(of graph: GeneratedGraph, random: inout GraphRandom) -> [String] {
        var writer = Writer(graph: graph, rendering: self, random: random)
        switch layout {
        case .nested:
            let repos = graph.repos.indices.map { writer.repo($0) }
            switch documents {
            case .one: return [RenderedJSON.array(repos).text(escapeAll: escapeAll)]
            case .lines: return [repos.map { $0.text(escapeAll: escapeAll) }.joined(separator: "\n") + "\n"]
            case .pages(let count):
                // A page of one repository may be the object itself, which `$[*]` takes as the one record.
                return Self.chunks(repos.count, count).map { chunk in
                    let lone = chunk.count == 1 && !issuesAsRecords && writer.random.chance(1, in: 2)
                    return (lone ? repos[chunk.lowerBound] : RenderedJSON.array(Array(repos[chunk]))).text(escapeAll: escapeAll)
                }
            }
        case .roots:
            let count: Int =
                switch documents {
                case .one: 1
                case .lines(let count), .pages(let count): count
                }
            let users = graph.users.indices.filter { !graph.users[$0].stubOnly }
            let userChunks = Self.chunks(users.count, count)
            let orgChunks = Self.chunks(graph.orgs.count, count)
            let repoChunks = Self.chunks(graph.repos.count, count)
            let order = [0, 1, 2].shuffled(using: &writer.random)
            var envelopes: [RenderedJSON] = []
            for page in 0..<count {
                var members: [(String, RenderedJSON)] = []
                for root in order {
                    switch root {
                    case 0:
                        let chunk = userChunks[page].map { users[$0] }
                        if keyedUsers {
                            members.append(("users", .object(chunk.map { (String(graph.users[$0].id), writer.fullUser($0, depth: 0, keyed: true)) })))
                        } else {
                            members.append(("users", .array(chunk.map { writer.fullUser($0, depth: 0) })))
                        }
                    case 1:
                        let orgs = orgChunks[page]
                        if keyedOrgs {
                            members.append(("orgs", .object(orgs.map { (graph.orgs[$0].slug, writer.fullOrg($0, keyed: true)) })))
                        } else {
                            members.append(("orgs", .array(orgs.map { writer.fullOrg($0, keyed: false) })))
                        }
                    default: members.append(("repos", .array(repoChunks[page].map { writer.repo($0) })))
                    }
                }
                envelopes.append(.object(members))
            }
            let texts = envelopes.map { $0.text(escapeAll: escapeAll) }
            return isLines ? [texts.joined(separator: "\n")] : texts
        }
    }

    /// `count` consecutive ranges that cover `0..<total`, some of them perhaps empty.
    static func chunks(_ total: Int, _ count: Int) -> [Range<Int>] {
        (0..<count).map { page in (total * page / count)..<(total * (page + 1) / count) }
    }

    /// Writes objects in document order, remembering which users and organizations were written
    /// whole, so that each is whole at least once.
    struct Writer {
        let graph: GeneratedGraph
        let rendering: GraphRendering
        var random: GraphRandom
        var wholeUsers = Set<Int>()
        var wholeOrgs = Set<Int>()

        /// An optional value: the value, or `null` or nothing when there is none.
        mutating func optional(_ key: String, _ value: RenderedJSON?, into members: inout [(String, RenderedJSON)]) {
            if let value {
                members.append((key, value))
            } else if random.chance(1, in: 2) {
                members.append((key, .null))
            }
        }

        /// The members in a random order: a map reads keys, not positions.
        mutating func object(_ members: [(String, RenderedJSON)]) -> RenderedJSON {
            .object(members.shuffled(using: &random))
        }

        mutating func userReference(_ index: Int, depth: Int) -> RenderedJSON {
            let user = graph.users[index]
            guard !user.stubOnly, depth < 3 else { return .int(user.id) }
            if !wholeUsers.contains(index) || random.chance(1, in: 3) { return fullUser(index, depth: depth) }
            return .int(user.id)
        }

        /// A user; `keyed`: a member of `users{*}`, whose name is its id, which it may also hold.
        mutating func fullUser(_ index: Int, depth: Int, keyed: Bool = false) -> RenderedJSON {
            wholeUsers.insert(index)
            let user = graph.users[index]
            var members: [(String, RenderedJSON)] = [("login", .string(user.login))]
            if !keyed || random.chance(1, in: 3) { members.append(("id", .int(user.id))) }
            optional("bio", user.bio.map { .string($0) }, into: &members)
            optional("manager", user.manager.map { userReference($0, depth: depth + 1) }, into: &members)
            return object(members)
        }

        mutating func orgReference(_ index: Int) -> RenderedJSON {
            let byKey = rendering.keyedOrgs && !rendering.orgSlugField
            if byKey || (wholeOrgs.contains(index) && random.chance(1, in: 2)) { return .string(graph.orgs[index].slug) }
            return fullOrg(index, keyed: false)
        }

        /// An organization; `keyed`: a member of `orgs{*}`, whose name is its slug.
        mutating func fullOrg(_ index: Int, keyed: Bool) -> RenderedJSON {
            wholeOrgs.insert(index)
            let org = graph.orgs[index]
            var members: [(String, RenderedJSON)] = [("name", .string(org.name))]
            if !keyed || (rendering.orgSlugField && random.chance(1, in: 3)) { members.append(("slug", .string(org.slug))) }
            optional("score", org.score.map { .int($0) }, into: &members)
            optional("verified", org.verified.map { .bool($0) }, into: &members)
            var memberships: [(String, RenderedJSON)] = []
            for member in org.members {
                memberships.append(
                    (String(graph.users[member.user].id), object([("role", .string(member.role)), ("user", userReference(member.user, depth: 1))])))
            }
            if !memberships.isEmpty || random.chance(2, in: 3) {
                members.append(("memberships", rendering.keyedMembers ? .object(memberships) : .array(memberships.map(\.1))))
            }
            return object(members)
        }

        /// A polymorphic element: `{"kind": …, "ref": …}`, the target whole or by its key.
        mutating func choice(_ target: GeneratedGraph.Watcher) -> RenderedJSON {
            switch target {
            case .user(let user): object([("kind", .string("user")), ("ref", userReference(user, depth: 0))])
            case .org(let org): object([("kind", .string("org")), ("ref", orgReference(org))])
            }
        }

        mutating func repo(_ index: Int) -> RenderedJSON {
            let repo = graph.repos[index]
            var members: [(String, RenderedJSON)] = [("owner", .string(repo.owner)), ("name", .string(repo.name))]
            optional("stars", repo.stars.map { .int($0) }, into: &members)
            if let org = repo.org {
                members.append(("org", orgReference(org)))
            } else if random.chance(1, in: 3) {
                members.append(("org", .string("")))  // "no object", as some services write it
            } else {
                optional("org", nil, into: &members)
            }
            optional("maintainer", repo.maintainer.map { userReference($0, depth: 0) }, into: &members)
            var watchers: [RenderedJSON] = []
            for watcher in repo.watchers { watchers.append(choice(watcher)) }
            if !watchers.isEmpty || random.chance(1, in: 2) { members.append(("watchers", .array(watchers))) }
            var issues: [RenderedJSON] = []
            for issue in repo.issues {
                var fields: [(String, RenderedJSON)] = [("number", .int(issue.number)), ("title", .string(issue.title))]
                if rendering.repositoryInIssues { fields += [("repo_owner", .string(repo.owner)), ("repo_name", .string(repo.name))] }
                optional("author", issue.author.map { userReference($0, depth: 0) }, into: &fields)
                optional("assignee", issue.assignee.map { choice($0) }, into: &fields)
                var notes: [RenderedJSON] = []
                for note in issue.notes {
                    var noteFields: [(String, RenderedJSON)] = [("body", .string(note.body))]
                    optional("votes", note.votes.map { .int($0) }, into: &noteFields)
                    notes.append(object(noteFields))
                }
                if !notes.isEmpty || random.chance(1, in: 2) { fields.append(("notes", .array(notes))) }
                issues.append(object(fields))
            }
            if !issues.isEmpty || rendering.issuesAsRecords || random.chance(1, in: 2) { members.append(("issues", .array(issues))) }
            return object(members)
        }
    }
}
