import GraphImportSchema
import GraphImportStore

/// To-manys whose links carry values (`link` attributes): a list is unchanged when its targets
/// and their link values are, and is written whole otherwise, as a list of targets alone is.
extension GraphWriter {
    /// The row ids `links` stand for and, `width` per target, the link values kept with them:
    /// a target that appears twice keeps its first element's values (the join table holds one
    /// row per owner and target).
    func resolveList(_ links: [LinkDraft], values: [SQLValue], width: Int) throws(WriteError) -> (list: [Int64], values: [SQLValue]) {
        var list: [Int64] = []
        var kept: [SQLValue] = []
        list.reserveCapacity(links.count)
        kept.reserveCapacity(values.count)
        var seen = Set<Int64>(minimumCapacity: links.count)
        for (position, link) in links.enumerated() {
            guard case .integer(let pk)? = try resolve(link), seen.insert(pk).inserted else { continue }
            list.append(pk)
            kept += values[(position * width)..<((position + 1) * width)]
        }
        return (list, kept)
    }

    /// Whether `object` holds `list` with `values` for to-many `index` (read, and kept, when not in memory).
    func holdsLinks(_ list: [Int64], values: [SQLValue], object: KnownObject, index: Int, store: Store) throws(StoreError) -> Bool {
        if let known = object.list(index), let knownValues = object.linkValues(index) {
            return known == list && knownValues == values
        }
        let stored = try store.list(of: object.pk, withValuesOf: index)
        object.setList(index, stored.list, values: stored.values)
        return stored.list == list && stored.values == values
    }
}
