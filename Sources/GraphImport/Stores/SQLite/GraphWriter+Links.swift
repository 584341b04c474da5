import GraphImportSchema
import GraphImportStore

/// To-manys whose links carry values (`link` attributes): a list is unchanged when its targets
/// and their link values are, and is written whole otherwise, as a list of targets alone is.
extension GraphWriter {
    /// The row ids `links` stand for and, `width` per target, the link values kept with them, as
    /// `ToManyList` keeps them (a target that appears twice keeps its first element's values).
    func resolveList(_ links: [LinkDraft], values: [SQLValue], width: Int) throws(WriteError) -> ToManyList<Int64> {
        var list = ToManyList<Int64>(width: width, capacity: links.count)
        for (position, link) in links.enumerated() {
            guard case .integer(let pk)? = try resolve(link) else { continue }
            list.append(pk, values: values[(position * width)..<((position + 1) * width)])
        }
        return list
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
