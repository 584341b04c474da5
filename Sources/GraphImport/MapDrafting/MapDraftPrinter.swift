/// Writes a draft as map text: the records lines, commented `meta` candidates, then each entity
/// with its members in aligned columns and a comment wherever the draft guessed.
struct MapDraftPrinter {
    let model: DraftModel

    var text: String {
        var out = ""
        for line in model.header { out += "# \(line)\n" }
        for records in model.records {
            var line = "records at \(records.path)"
            if let key = records.requiredKey { line += " where \(key) is present" }
            line += " as \(records.entity)"
            out += line
            out += records.requiredKey.map { "   # records without \($0) are passed over\n" } ?? "\n"
        }
        if !model.meta.isEmpty {
            out += "\n# Values of the response outside the records; uncomment those worth keeping with each import:\n"
            for meta in model.meta { out += "# meta \(meta.name) <- \(meta.path) : \(meta.type)\n" }
        }
        for entity in model.entities {
            out += "\nentity \(entity.name)" + (entity.isOwned ? " owned" : "") + (entity.table.map { " table \($0)" } ?? "") + "\n"
            for comment in entity.comments { out += "  # \(comment)\n" }
            if !entity.isOwned { out += "  key \(entity.key)\n" }
            let sources = entity.members.map { member in
                member.path.map { $0 == member.name ? member.name : "\(member.name) <- \($0)" } ?? member.name
            }
            let width = min(40, sources.map(\.count).max() ?? 0)
            for (member, source) in zip(entity.members, sources) {
                var line = "  " + source + String(repeating: " ", count: max(1, width - source.count + 1)) + ": " + member.type
                if let comment = member.comment { line += "   # " + comment }
                out += line + "\n"
                for link in member.links {
                    let source = link.path.map { $0 == link.name ? link.name : "\(link.name) <- \($0)" } ?? link.name
                    out += "    link \(source) : \(link.type)" + (link.comment.map { "   # " + $0 } ?? "") + "\n"
                }
            }
        }
        return out
    }
}
