import GraphImportJSON

/// Where the members of an object are written: the map's paths turned around, as a tree of
/// JSON objects and arrays whose leaves are members.
indirect enum ExportShape: Sendable {
    case object([(key: String, shape: ExportShape)])
    /// `coordinates[0]`, `coordinates[1]`: slots by index; a slot no member fills is `null`.
    case array([ExportShape?])
    case member(ExportMember)

    /// The shape without the members `keep` refuses, and without objects left empty by that.
    func filtered(_ keep: (ExportMember) -> Bool) -> ExportShape? {
        switch self {
        case .member(let member): return keep(member) ? self : nil
        case .array(let slots):
            let kept = slots.map { $0?.filtered(keep) }
            return kept.allSatisfy { $0 == nil } ? nil : .array(kept)
        case .object(let members):
            let kept = members.compactMap { member in member.shape.filtered(keep).map { (member.key, $0) } }
            return kept.isEmpty ? nil : .object(kept)
        }
    }
}

/// A leaf of an `ExportShape`: what is written there.
enum ExportMember: Sendable {
    case attribute(Int)
    case toOne(Int)
    case toMany(Int)
    /// A link attribute of the to-many whose element is written.
    case link(Int)
    /// The object itself, inside an element (`each data`, a record's `at data`).
    case element
    /// A value the map implies: a record's discriminator, a `where` field.
    case literal(JSONValue)
    /// Relationships with a `where` that share one array: each writes its elements into it.
    case filtered([ExportRelationship])
    /// The records of a `records` line (the document only).
    case records(Int)
    /// A `meta` value (the document only).
    case meta(Int)
}

/// Which relationship of the owner.
enum ExportRelationship: Sendable {
    case toOne(Int)
    case toMany(Int)
}

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
    @discardableResult
    func insert(_ member: ExportMember, at steps: ArraySlice<PathStep>) -> Bool {
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
                    keys.append(key); let made = ExportShapeBuilder(); children[key] = made; return made
                }()
            return child.insert(member, at: steps.dropFirst())
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
            return child.insert(member, at: steps.dropFirst())
        case .memberName:
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
        case .memberName: return nil
        }
    }

    /// Whether a member sits exactly at `steps` (a record's own discriminator, for one).
    func holds(_ steps: ArraySlice<PathStep>) -> Bool {
        guard let step = steps.first else { if case .member = kind { return true } else { return false } }
        switch step {
        case .key(let key): return children[key]?.holds(steps.dropFirst()) ?? false
        case .index(let index): return slots[index]?.holds(steps.dropFirst()) ?? false
        case .memberName: return false
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
