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

    static func lines(of store: StoreUnderTest, plan: ImportPlan) throws -> [String] {
        var names: [[String: String]] = []
        var fields: [[String: [String: String]]] = []
        for entity in plan.entities {
            let hidden = entity.isOwned ? Set(entity.keyAttributes) : []
            let columns = entity.attributes.map { "\"\(Self.quoted($0.column))\"" }
            var named: [String: String] = [:]
            var values: [String: [String: String]] = [:]
            for row in try store.select("SELECT \"pk\", \(columns.joined(separator: ", ")) FROM \"\(Self.quoted(entity.table))\"") {
                let pk = row[0]
                let shown = entity.attributes.indices.filter { !hidden.contains($0) }
                let text = { (index: Int) in Self.normalized(row[index + 1], entity.attributes[index]) }
                named[pk] =
                    entity.isOwned
                    ? "{" + shown.map { "\(entity.attributes[$0].name)=\(text($0))" }.joined(separator: ",") + "}"
                    : "\(entity.name)(" + entity.keyAttributes.map(text).joined(separator: ",") + ")"
                values[pk] = Dictionary(uniqueKeysWithValues: shown.map { (entity.attributes[$0].name, text($0)) })
            }
            names.append(named)
            fields.append(values)
        }
        for (index, entity) in plan.entities.enumerated() {
            for toOne in entity.toOne {
                let target = plan.entities[toOne.target]
                for row in try store.select("SELECT \"pk\", \"\(Self.quoted(toOne.column))\" FROM \"\(Self.quoted(entity.table))\"") {
                    fields[index][row[0], default: [:]]["\(toOne.name)->\(target.name)"] =
                        row[1] == "NULL" ? "NULL" : names[toOne.target][row[1]] ?? "no \(target.name) \(row[1])"
                }
            }
            for toMany in entity.toMany {
                let target = plan.entities[toMany.target]
                let field = "\(toMany.name)->\(target.name)"
                var lists: [String: [String]] = [:]
                let links = toMany.linkAttributes.map { ", \"\(Self.quoted($0.column))\"" }.joined()
                let rows = try store.select(
                    "SELECT \"\(Self.quoted(toMany.ownerColumn))\", \"\(Self.quoted(toMany.targetColumn))\"\(links) "
                        + "FROM \"\(Self.quoted(toMany.joinTable))\" ORDER BY 1, \"position\"")
                for row in rows {
                    var item = names[toMany.target][row[1]] ?? "no \(target.name) \(row[1])"
                    if !toMany.linkAttributes.isEmpty {
                        let values = toMany.linkAttributes.enumerated().map { "\($1.name)=\(Self.normalized(row[$0 + 2], $1))" }
                        item += "{" + values.joined(separator: ",") + "}"
                    }
                    lists[row[0], default: []].append(item)
                }
                for pk in names[index].keys { fields[index][pk, default: [:]][field] = "[" + (lists[pk] ?? []).joined(separator: ", ") + "]" }
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

    /// A Bool as the model writes it: SQLite stores 0 or 1, PostgreSQL prints `t` or `f`.
    static func normalized(_ text: String, _ attribute: AttributePlan) -> String {
        guard attribute.type == .bool else { return text }
        switch text {
        case "1", "t", "true": return "true"
        case "0", "f", "false": return "false"
        default: return text
        }
    }
}
