/// Builds an `ExportShape` from members placed at paths; a path already taken, or one that goes
/// through a member, is refused (the member is then not written).
final class ExportShapeBuilder {
    private enum Kind {
        case empty, object, array
        case member(ExportMember)
    }

    private var kind = Kind.empty
    private var keys: [String] = []
    private var children: [String: ExportShapeBuilder] = [:]
    private var slots: [Int: ExportShapeBuilder] = [:]

    /// Places `member` at `steps`; false when the place is taken. `$key` steps are not placed.
    /// `first`: a key it adds to an object goes before the keys there, as a value that what is
    /// already placed must read before it (`@root`) is written.
    @discardableResult
    func insert(_ member: ExportMember, at steps: ArraySlice<PathStep>, first: Bool = false) -> Bool {
        guard let step = steps.first else {
            switch (kind, member) {
            case (.empty, _):
                kind = .member(member)
                return true
            case (.member(.filtered(let existing)), .filtered(let more)):
                kind = .member(.filtered(existing + more))
                return true
            default: return false
            }
        }
        switch step {
        case .key(let key):
            switch kind {
            case .empty: kind = .object
            case .object: break
            default: return false
            }
            let child =
                children[key]
                ?? {
                    if first { keys.insert(key, at: 0) } else { keys.append(key) }
                    let made = ExportShapeBuilder()
                    children[key] = made
                    return made
                }()
            return child.insert(member, at: steps.dropFirst(), first: first)
        case .index(let index):
            switch kind {
            case .empty: kind = .array
            case .array: break
            default: return false
            }
            let child =
                slots[index]
                ?? {
                    let made = ExportShapeBuilder(); slots[index] = made; return made
                }()
            return child.insert(member, at: steps.dropFirst(), first: first)
        case .memberName, .elementIndex, .parent, .root:
            return false
        }
    }

    /// The member met on the way to `steps`, before their end, if any.
    func member(before steps: ArraySlice<PathStep>) -> ExportMember? {
        if case .member(let member) = kind { return member }
        guard let step = steps.first, steps.count > 1 else { return nil }
        switch step {
        case .key(let key): return children[key]?.member(before: steps.dropFirst())
        case .index(let index): return slots[index]?.member(before: steps.dropFirst())
        case .memberName, .elementIndex, .parent, .root: return nil
        }
    }

    /// Whether a member sits exactly at `steps` (a record's own discriminator, for one).
    func holds(_ steps: ArraySlice<PathStep>) -> Bool {
        guard let step = steps.first else { if case .member = kind { return true } else { return false } }
        switch step {
        case .key(let key): return children[key]?.holds(steps.dropFirst()) ?? false
        case .index(let index): return slots[index]?.holds(steps.dropFirst()) ?? false
        case .memberName, .elementIndex, .parent, .root: return false
        }
    }

    var shape: ExportShape {
        switch kind {
        case .empty, .object: return .object(keys.map { ($0, children[$0]!.shape) })
        case .array:
            let count = (slots.keys.max() ?? -1) + 1
            return .array((0..<count).map { slots[$0]?.shape })
        case .member(let member): return .member(member)
        }
    }
}
