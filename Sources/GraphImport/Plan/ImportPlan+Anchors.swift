import GraphImportJSON
import GraphImportMapping

/// `@root.PATH`: values of the response's root document, which the reader keeps as it passes
/// them (as it keeps `meta` values), so that the records after them can read them.
///
/// The reader keeps a value whole and does not walk into it, so of paths nested in one another
/// only the outermost is kept, and the others are read inside it: `@root.repository.id` inside
/// `@root.repository`, or inside a `meta` line's value.
struct RootCaptures {
    /// Per `@root` path of the map (without `@root`): the capture index of the value it is read
    /// in (`meta` patterns first), and the steps from there.
    let byPath: [KeyPath: (index: Int, rest: KeyPath)]
    /// The capture patterns to follow after the `meta` ones.
    let patterns: [JSONPathPattern]
    /// Every capture index a `@root` path reads, with its path from the document's root.
    let pathByIndex: [Int: JSONPathPattern]

    init(mapping: Mapping) {
        var rootPaths: [KeyPath] = []
        for entity in mapping.entities {
            let paths = entity.attributes.flatMap(\.sources) + entity.relationships.filter { !$0.isToMany }.flatMap(\.sources)
            for path in paths where path.components.first == .root {
                let inner = KeyPath(Array(path.components.dropFirst()))
                if !rootPaths.contains(inner) { rootPaths.append(inner) }
            }
        }
        let metaPaths = mapping.meta.map(\.source)
        var captured: [(path: KeyPath, index: Int)] = metaPaths.enumerated().map { ($1, $0) }
        var patterns: [JSONPathPattern] = []
        // Outermost first, so that a path finds the capture it is nested in already made.
        for path in rootPaths.sorted(by: { $0.components.count < $1.components.count })
        where !captured.contains(where: { path.components.starts(with: $0.path.components) }) {
            captured.append((path, metaPaths.count + patterns.count))
            patterns.append(ImportPlan.pattern(for: path))
        }
        var byPath: [KeyPath: (index: Int, rest: KeyPath)] = [:]
        var pathByIndex: [Int: JSONPathPattern] = [:]
        for path in rootPaths {
            // The outermost capture it is inside (the validator refuses a `@root` path that a `meta` one is inside).
            guard
                let outer = captured.filter({ path.components.starts(with: $0.path.components) }).min(by: {
                    $0.path.components.count < $1.path.components.count
                })
            else { continue }
            byPath[path] = (outer.index, KeyPath(Array(path.components.dropFirst(outer.path.components.count))))
            pathByIndex[outer.index] = ImportPlan.pattern(for: outer.path)
        }
        self.byPath = byPath
        self.patterns = patterns
        self.pathByIndex = pathByIndex
    }
}

extension PlanContext {
    /// A member's path as the record walk follows it: `@parent` steps up to the object that
    /// reached this one, `@root` starts at the response's value kept at a capture index.
    func steps(_ path: KeyPath) -> [PathStep] {
        guard path.isAnchored else { return ImportPlan.steps(path) }
        if path.components.first == .root {
            let capture = rootCaptures[KeyPath(Array(path.components.dropFirst()))] ?? (0, KeyPath([]))
            return [.root(capture.index)] + ImportPlan.steps(capture.rest)
        }
        var steps: [PathStep] = []
        for component in path.components {
            if component == .parent { steps.append(.parent) } else { break }
        }
        return steps + ImportPlan.steps(KeyPath(Array(path.components.dropFirst(steps.count))))
    }
}

extension [PathStep] {
    /// Whether the path reads `@parent` (starts with it).
    var readsParent: Bool { first == .parent }

    /// Whether the path reads `@root`.
    var readsRoot: Bool {
        if case .root? = first { return true }
        return false
    }
}

extension AttributePlan {
    /// For a key read through `@parent` or `@root`, why an object may have none, or nil.
    func anchoredKeyHint(entity: String) -> String? {
        let paths = (path.map { [$0] } ?? []) + fallbacks
        if paths.contains(where: \.readsParent) {
            return "`@parent` is the object whose relationship reached this \(entity), and a record has none: "
                + "list a path the record holds before it (`<- repo_id, @parent.id`), or reach \(entity) objects through their parent"
        }
        if paths.contains(where: \.readsRoot) {
            return "`@root` reads the response's values that come before the records (as the reader meets them): "
                + "the response must hold it ahead of the records array"
        }
        return nil
    }
}

extension [PathStep] {
    /// Whether the path starts at `@parent` or `@root` rather than at the object being read.
    var isAnchored: Bool { readsParent || readsRoot }
}

extension JSONPathPattern {
    /// This path followed by `steps`, as messages show it: `@parent` steps go back to the path of
    /// the object that reached the one they start from, `@root` to the path of the response's
    /// value. `objectDepths`: the number of steps at which each object being read begins,
    /// outermost first; `rootPaths`: each `@root` capture's path.
    func following(_ steps: [PathStep], objectDepths: [Int], rootPaths: [Int: JSONPathPattern]) -> JSONPathPattern {
        var current = self
        /// The path after each number of steps, where the objects begin.
        var paths = [current]
        var position = 0
        while position < steps.count {
            if steps[position] == .parent {
                var levels = 0
                while position + levels < steps.count && steps[position + levels] == .parent { levels += 1 }
                // The steps start from the last object that begins at or above this depth.
                if let object = objectDepths.lastIndex(where: { $0 <= position }), object - levels >= 0,
                    objectDepths[object - levels] < paths.count
                {
                    current = paths[objectDepths[object - levels]]
                } else {
                    for _ in 0..<levels { current.components.append(.key("@parent")) }
                }
                for _ in 0..<levels { paths.append(current) }
                position += levels
                continue
            }
            if case .root(let index) = steps[position] {
                current = rootPaths[index] ?? .root
            } else {
                current = current.appending(CollectionOfOne(steps[position]))
            }
            paths.append(current)
            position += 1
        }
        return current
    }
}
