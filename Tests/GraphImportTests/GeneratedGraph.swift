/// A random object graph of one fixed family of entities, for the model-based test
/// (`GeneratedGraphTests`): users that report to users (a self-reference, ids past 2^53 and below
/// zero), organizations keyed by a slug with members and a role on each membership, repositories
/// keyed by a compound key with a to-one to an organization and a user, polymorphic watchers, and
/// issues keyed by their repository (parent-scoped) that own their notes (an owned entity).
struct GeneratedGraph {
    struct User {
        var id: Int64
        var login: String
        var bio: String?
        /// An index into `users`, this user's own included.
        var manager: Int?
        /// Known only from references (its id): stored as a stub, its values unknown.
        var stubOnly: Bool
    }

    struct Org {
        var slug: String
        var name: String
        var score: Int64?
        var verified: Bool?
        var members: [(user: Int, role: String)]
    }

    enum Watcher: Equatable {
        case user(Int)
        case org(Int)
    }

    struct Note {
        var body: String
        var votes: Int64?
    }

    struct Issue {
        var number: Int64
        var title: String
        var author: Int?
        /// A polymorphic to-one: a user or an organization.
        var assignee: Watcher?
        var notes: [Note]
    }

    struct Repo {
        var owner: String
        var name: String
        var stars: Int64?
        var org: Int?
        var maintainer: Int?
        var watchers: [Watcher]
        var issues: [Issue]
    }

    var users: [User] = []
    var orgs: [Org] = []
    var repos: [Repo] = []
}

/// A small deterministic generator (SplitMix64), so that a failing seed can be run again.
struct GraphRandom {
    var state: UInt64

    mutating func next(_ bound: Int) -> Int {
        Int(nextBits() % UInt64(bound))
    }

    mutating func nextBits() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func chance(_ numerator: Int, in denominator: Int) -> Bool { next(denominator) < numerator }

    mutating func pick<T>(_ values: [T]) -> T { values[next(values.count)] }

    /// Up to `count` distinct indices below `bound`, in a random order.
    mutating func distinct(_ count: Int, below bound: Int) -> [Int] {
        var pool = Array(0..<bound)
        var result: [Int] = []
        while result.count < count && !pool.isEmpty { result.append(pool.remove(at: next(pool.count))) }
        return result
    }
}

extension GeneratedGraph {
    /// Text pieces that try the reader and both stores: quotes, backslashes, control characters,
    /// non-ASCII letters, an emoji (a surrogate pair when escaped), spaces.
    static let pieces = ["a", "Zürich", "日本", "\"q\"", "back\\slash", "tab\t", "line\nbreak", "😀", " ", "x-y", "_", "Ωmega", "\u{7f}"]

    static func text(_ random: inout GraphRandom, empty: Bool = false) -> String {
        let count = random.next(3) + (empty ? 0 : 1)
        return (0..<count).map { _ in random.pick(pieces) }.joined()
    }

    /// An id near zero, below zero, just past 2^53 (where a Double loses integers) or near Int64's ends.
    static func id(_ random: inout GraphRandom) -> Int64 {
        switch random.next(5) {
        case 0: Int64(random.next(40) + 1)
        case 1: -Int64(random.next(40) + 1)
        case 2: (1 << 53) + 1 + Int64(random.next(1000))
        case 3: Int64.max - Int64(random.next(1000))
        default: Int64.min + Int64(random.next(1000))
        }
    }

    static func generate(_ random: inout GraphRandom) -> GeneratedGraph {
        var graph = GeneratedGraph()
        var ids = Set<Int64>()
        for _ in 0..<(random.next(5) + 2) {
            var id = Self.id(&random)
            while ids.contains(id) { id = Self.id(&random) }
            ids.insert(id)
            let stub = random.chance(1, in: 5)
            graph.users.append(
                User(id: id, login: text(&random), bio: stub || random.chance(1, in: 2) ? nil : text(&random, empty: true), manager: nil, stubOnly: stub))
        }
        for index in graph.users.indices where !graph.users[index].stubOnly && random.chance(1, in: 2) {
            graph.users[index].manager = random.next(graph.users.count)
        }
        let roles = ["admin", "member", "ö\"wner"]
        for index in 0..<random.next(3) {
            let members = random.distinct(random.next(graph.users.count + 1), below: graph.users.count).map { (user: $0, role: random.pick(roles)) }
            graph.orgs.append(
                Org(
                    slug: "org\(index)-" + text(&random), name: text(&random, empty: true),
                    score: random.chance(1, in: 2) ? Self.id(&random) : nil,
                    verified: random.chance(1, in: 3) ? nil : random.chance(1, in: 2), members: members))
        }
        let owners = ["octo", "Ünï", "a\"b", "big corp"]
        var repoKeys = Set<String>()
        for _ in 0..<(random.next(4) + 1) {
            var owner = random.pick(owners)
            var name = "r\(random.next(3))"
            while repoKeys.contains(owner + "/" + name) {
                owner = random.pick(owners)
                name = "r\(random.next(9))"
            }
            repoKeys.insert(owner + "/" + name)
            var watchers: [Watcher] = random.distinct(random.next(3), below: graph.users.count).map { .user($0) }
            watchers += random.distinct(random.next(graph.orgs.count + 1), below: graph.orgs.count).map { .org($0) }
            watchers.shuffle(using: &random)
            // Numbers from a small range, so that two repositories' issues share numbers.
            let issues = random.distinct(random.next(4), below: 4).map { number in
                Issue(
                    number: Int64(number + 1), title: text(&random, empty: true),
                    author: random.chance(2, in: 3) ? random.next(graph.users.count) : nil,
                    assignee: random.chance(1, in: 3)
                        ? nil : (graph.orgs.isEmpty || random.chance(1, in: 2) ? .user(random.next(graph.users.count)) : .org(random.next(graph.orgs.count))),
                    notes: (0..<random.next(3)).map { _ in Note(body: text(&random, empty: true), votes: random.chance(1, in: 2) ? Int64(random.next(9)) : nil)
                    })
            }
            graph.repos.append(
                Repo(
                    owner: owner, name: name, stars: random.chance(1, in: 2) ? Int64(random.next(100_000)) : nil,
                    org: graph.orgs.isEmpty || random.chance(1, in: 3) ? nil : random.next(graph.orgs.count),
                    maintainer: random.chance(1, in: 3) ? nil : random.next(graph.users.count), watchers: watchers, issues: issues))
        }
        graph.makeEveryObjectReachable(&random)
        return graph
    }

    /// Every user with values and every organization is a watcher of some repository, so that
    /// every rendering, the nested one too, has a place for its whole object; a stub-only user
    /// that nothing references is not part of the graph, so it becomes a user with values.
    mutating func makeEveryObjectReachable(_ random: inout GraphRandom) {
        var referenced = Set<Int>()
        for user in users { if let manager = user.manager { referenced.insert(manager) } }
        for org in orgs { for member in org.members { referenced.insert(member.user) } }
        for repo in repos {
            if let maintainer = repo.maintainer { referenced.insert(maintainer) }
            for issue in repo.issues {
                if let author = issue.author { referenced.insert(author) }
                if case .user(let assignee)? = issue.assignee { referenced.insert(assignee) }
            }
        }
        for index in users.indices {
            let watches = repos.contains { $0.watchers.contains(.user(index)) }
            if users[index].stubOnly {
                if referenced.contains(index) || watches { continue }
                users[index].stubOnly = false
            }
            if !watches { repos[random.next(repos.count)].watchers.append(.user(index)) }
        }
        for index in orgs.indices where !repos.contains(where: { $0.watchers.contains(.org(index)) }) {
            repos[random.next(repos.count)].watchers.append(.org(index))
        }
    }
}

extension GraphRandom: RandomNumberGenerator {
    mutating func next() -> UInt64 { nextBits() }
}
