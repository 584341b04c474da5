import GraphImport
import GraphImportMapping
import GraphImportStoreTestSupport

/// A graph as lines of text, one per keyed object (`Repo(octo,r1) | name=r1 | org->Org=Org(org0) |
/// watchers->User=[User(7), …]`) and one count per owned entity, sorted: what the model says and what
/// a store holds are compared in this form. A to-many is its targets in order; an owned target is
/// written as its values, a link's values follow its target in braces.
extension GeneratedGraph {
    var lines: [String] {
        func value(_ number: Int64?) -> String { number.map(String.init) ?? "NULL" }
        func userKey(_ index: Int?) -> String { index.map { "User(\(users[$0].id))" } ?? "NULL" }
        func org(_ index: Int?) -> String { index.map { "Org(\(orgs[$0].slug))" } ?? "NULL" }
        func list(_ items: [String]) -> String { "[" + items.joined(separator: ", ") + "]" }
        var result: [String] = []
        for user in users {
            result.append(
                StoredGraph.line(
                    "User(\(user.id))",
                    [
                        "id": String(user.id), "login": user.stubOnly ? "NULL" : user.login, "bio": user.bio ?? "NULL",
                        "manager->User": userKey(user.manager),
                    ]))
        }
        for org in orgs {
            result.append(
                StoredGraph.line(
                    "Org(\(org.slug))",
                    [
                        "slug": org.slug, "name": org.name, "score": value(org.score), "verified": org.verified.map { "\($0)" } ?? "NULL",
                        "members->User": list(org.members.map { userKey($0.user) + "{role=\($0.role)}" }),
                    ]))
        }
        var notes = 0
        for repo in repos {
            let repoKey = "\(repo.owner),\(repo.name)"
            result.append(
                StoredGraph.line(
                    "Repo(\(repoKey))",
                    [
                        "owner": repo.owner, "name": repo.name, "stars": value(repo.stars), "org->Org": org(repo.org),
                        "maintainer->User": userKey(repo.maintainer),
                        "watchers->User": list(repo.watchers.compactMap { if case .user(let index) = $0 { userKey(index) } else { nil } }),
                        "watchers->Org": list(repo.watchers.compactMap { if case .org(let index) = $0 { org(index) } else { nil } }),
                        "issues->Issue": list(repo.issues.map { "Issue(\(repoKey),\($0.number))" }),
                    ]))
            for issue in repo.issues {
                notes += issue.notes.count
                result.append(
                    StoredGraph.line(
                        "Issue(\(repoKey),\(issue.number))",
                        [
                            "repoOwner": repo.owner, "repoName": repo.name, "number": String(issue.number), "title": issue.title,
                            "author->User": userKey(issue.author),
                            "assignee->User": { if case .user(let index)? = issue.assignee { userKey(index) } else { "NULL" } }(),
                            "assignee->Org": { if case .org(let index)? = issue.assignee { org(index) } else { "NULL" } }(),
                            "notes->Note": list(issue.notes.map { "{body=\($0.body),votes=\(value($0.votes))}" }),
                        ]))
            }
        }
        result.append("Note rows: \(notes)")
        return result.sorted()
    }
}

/// What a store holds, read through the plan in `GeneratedGraph.lines`' form: every object's values,
/// its to-ones by their target's key, its to-manys in their stored order with their link values.
enum StoredGraph {
    static func line(_ object: String, _ fields: [String: String]) -> String {
        ([object] + fields.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }).joined(separator: " | ")
    }

    /// One query (a union of every table's rows, as text), so that a PostgreSQL store is read over one connection.
    static func lines(of store: StoreUnderTest, plan: ImportPlan) throws -> [String] {
        var selects: [(tag: String, columns: [String], from: String)] = []
        for (index, entity) in plan.entities.enumerated() {
            selects.append(("e\(index)", ["pk"] + entity.attributes.map(\.column) + entity.toOne.map(\.column), entity.table))
            for (offset, toMany) in entity.toMany.enumerated() {
                selects.append(
                    ("j\(index).\(offset)", [toMany.ownerColumn, toMany.targetColumn, "position"] + toMany.linkAttributes.map(\.column), toMany.joinTable))
            }
        }
        let width = selects.map(\.columns.count).max() ?? 0
        let sql = selects.map { select in
            let columns = select.columns.map { "CAST(\"\(quoted($0))\" AS TEXT)" } + Array(repeating: "NULL", count: width - select.columns.count)
            return "SELECT '\(select.tag)', \(columns.joined(separator: ", ")) FROM \"\(quoted(select.from))\""
        }.joined(separator: " UNION ALL ")
        let rows = Dictionary(grouping: try store.select(sql), by: { $0[0] }).mapValues { $0.map { Array($0.dropFirst()) } }

        var names: [[String: String]] = []
        var fields: [[String: [String: String]]] = []
        for (index, entity) in plan.entities.enumerated() {
            let hidden = entity.isOwned ? Set(entity.keyAttributes) : []
            let shown = entity.attributes.indices.filter { !hidden.contains($0) }
            var named: [String: String] = [:]
            var values: [String: [String: String]] = [:]
            for row in rows["e\(index)"] ?? [] {
                let text = { (attribute: Int) in Self.normalized(row[attribute + 1], entity.attributes[attribute]) }
                named[row[0]] =
                    entity.isOwned
                    ? "{" + shown.map { "\(entity.attributes[$0].name)=\(text($0))" }.joined(separator: ",") + "}"
                    : "\(entity.name)(" + entity.keyAttributes.map(text).joined(separator: ",") + ")"
                values[row[0]] = Dictionary(uniqueKeysWithValues: shown.map { (entity.attributes[$0].name, text($0)) })
            }
            names.append(named)
            fields.append(values)
        }
        for (index, entity) in plan.entities.enumerated() {
            for row in rows["e\(index)"] ?? [] {
                for (offset, toOne) in entity.toOne.enumerated() {
                    let target = plan.entities[toOne.target]
                    let pk = row[1 + entity.attributes.count + offset]
                    fields[index][row[0], default: [:]]["\(toOne.name)->\(target.name)"] =
                        pk == "NULL" ? "NULL" : names[toOne.target][pk] ?? "no \(target.name) \(pk)"
                }
            }
            for (offset, toMany) in entity.toMany.enumerated() {
                let target = plan.entities[toMany.target]
                let field = "\(toMany.name)->\(target.name)"
                var lists: [String: [(position: Int, item: String)]] = [:]
                for row in rows["j\(index).\(offset)"] ?? [] {
                    var item = names[toMany.target][row[1]] ?? "no \(target.name) \(row[1])"
                    if !toMany.linkAttributes.isEmpty {
                        let values = toMany.linkAttributes.enumerated().map { "\($1.name)=\(Self.normalized(row[$0 + 3], $1))" }
                        item += "{" + values.joined(separator: ",") + "}"
                    }
                    lists[row[0], default: []].append((Int(row[2]) ?? -1, item))
                }
                for pk in names[index].keys {
                    let list = (lists[pk] ?? []).sorted { $0.position < $1.position }.map(\.item)
                    fields[index][pk, default: [:]][field] = "[" + list.joined(separator: ", ") + "]"
                }
                for pk in lists.keys where names[index][pk] == nil { fields[index][pk, default: [:]][field] = "join rows of no \(entity.name) \(pk)" }
            }
        }
        var result: [String] = []
        for (index, entity) in plan.entities.enumerated() {
            if entity.isOwned {
                result.append("\(entity.name) rows: \(names[index].count)")
                continue
            }
            for (pk, values) in fields[index] { result.append(line(names[index][pk] ?? "no \(entity.name) \(pk)", values)) }
        }
        return result.sorted()
    }

    static func quoted(_ name: String) -> String { name.replacingOccurrences(of: "\"", with: "\"\"") }

    /// A Bool as the model writes it: SQLite stores 0 or 1, PostgreSQL prints `t` or `f`; a Double
    /// as Swift prints it (`3.0`, where PostgreSQL prints `3`).
    static func normalized(_ text: String, _ attribute: AttributePlan) -> String {
        if attribute.type == .double, let number = Double(text) { return "\(number)" }
        guard attribute.type == .bool else { return text }
        switch text {
        case "1", "t", "true": return "true"
        case "0", "f", "false": return "false"
        default: return text
        }
    }
}
