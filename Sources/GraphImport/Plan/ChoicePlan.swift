import GraphImportJSON
import GraphImportMapping

/// A polymorphic relationship's case lines compiled once per map: which of its entities an
/// element becomes, tested where the element lies, without copying it.
final class ChoicePlan: Sendable {
    /// Where the discriminator sits inside an element; empty for the element itself (`by $`).
    let discriminator: [PathStep]
    /// The discriminator as the map writes it, for messages.
    let description: String
    let cases: [Case]
    /// The `else` case, if the map has one.
    let fallback: Case?

    struct Case: Sendable {
        let test: Test?
        /// The entity's index; nil for `ignore`.
        let entity: Int?
    }

    enum Test: Sendable {
        case equals(Literal)
        case hasPrefix([UInt8])
        case hasSuffix([UInt8])
    }

    /// What an element's discriminator chooses.
    enum Outcome: Equatable {
        case entity(Int)
        case ignore
        /// No case names the value, and there is no `else`.
        case unmatched
        /// The element has no discriminator (a key absent, or a bare key where a field is read).
        case absent
    }

    init(_ choice: RelationshipChoice, indexByName: [String: Int]) {
        discriminator = ImportPlan.steps(choice.discriminator)
        description = choice.discriminator.description
        cases = choice.cases.map { item in
            let test: Test? =
                switch item.test {
                case .equals(let value)?: .equals(value)
                case .hasPrefix(let text)?: .hasPrefix(Array(text.utf8))
                case .hasSuffix(let text)?: .hasSuffix(Array(text.utf8))
                case nil: nil
                }
            return Case(test: test, entity: item.entity.flatMap { indexByName[$0] })
        }
        fallback = cases.first { $0.test == nil }
    }

    /// The case for an element's discriminator value (nil when the element has none).
    func outcome(for found: JSONValue?) -> Outcome {
        guard let found else { return .absent }
        for item in cases {
            guard let test = item.test, test.holds(for: found) else { continue }
            return item.entity.map(Outcome.entity) ?? .ignore
        }
        guard let fallback else { return .unmatched }
        return fallback.entity.map(Outcome.entity) ?? .ignore
    }

    /// The discriminator's value in `element`, as a `where` condition reads it.
    func discriminatorValue(in element: JSONValue) -> JSONValue? { FilterPlan.value(at: discriminator, in: element) }

    /// The case values, as a hint lists them.
    var known: String {
        cases.compactMap { item -> String? in
            switch item.test {
            case .equals(let value)?: "\(value)"
            case .hasPrefix(let bytes)?: "has prefix \(Literal.string(String(decoding: bytes, as: UTF8.self)))"
            case .hasSuffix(let bytes)?: "has suffix \(Literal.string(String(decoding: bytes, as: UTF8.self)))"
            case nil: nil
            }
        }.joined(separator: ", ")
    }
}

extension ChoicePlan.Test {
    func holds(for value: JSONValue) -> Bool {
        switch self {
        case .equals(let literal): return value.equals(literal)
        case .hasPrefix(let prefix):
            guard case .string(let text) = value else { return false }
            return text.utf8.starts(with: prefix)
        case .hasSuffix(let suffix):
            guard case .string(let text) = value else { return false }
            let utf8 = text.utf8
            return utf8.count >= suffix.count && utf8.suffix(suffix.count).elementsEqual(suffix)
        }
    }
}

/// A polymorphic relationship as drafting checks it before its branches are read: every element
/// has a case, and a required to-one has a value. Each of its entities is read by a branch, an
/// ordinary `ToOnePlan` or `ToManyPlan` that takes the elements chosen for its entity.
final class PolymorphicPlan: Sendable {
    let name: String
    /// `Comment.parent`, as messages name it.
    let member: String
    let path: [PathStep]
    let fallbacks: [[PathStep]]
    let isToMany: Bool
    /// `members{*}`: the elements are an object's members.
    let isKeyed: Bool
    let isOptional: Bool
    let choice: ChoicePlan
    /// `(Post | Comment)`, as a hint writes the type.
    let typeText: String

    init(_ relationship: Relationship, owner: String, choice: ChoicePlan) {
        name = relationship.name
        member = "\(owner).\(relationship.name)"
        path = ImportPlan.steps(relationship.source)
        fallbacks = relationship.fallbackSources.map(ImportPlan.steps)
        isToMany = relationship.isToMany
        isKeyed = relationship.source.components.last == .anyMember
        isOptional = relationship.isOptional
        self.choice = choice
        let union = relationship.targets.joined(separator: " | ")
        typeText = relationship.isToMany ? "[\(union)]" : "(\(union))"
    }
}

extension Naming {
    /// The SQL name of a polymorphic relationship's branch to one of its entities: `parent` to
    /// `Post` is the column `parent_post_pk`; `media` to `Photo` the join table `post_media_photo`.
    static func branch(relationship: String, entity: String) -> String { relationship + "_" + entity }
}

/// A relationship as the plan compiles it: the map's own, or one branch of a polymorphic one.
struct RelationshipBranch {
    /// For a branch: the relationship to its one entity, optional (the choice checks a required one).
    let relationship: Relationship
    /// What its column or join table is named after.
    let sqlName: String
    let filter: FilterPlan?

    /// `relationship` itself, or for a polymorphic one a branch per entity, in the type's order,
    /// after appending its check to `polymorphic`.
    static func branches(
        of relationship: Relationship, owner: String, indexByName: [String: Int], polymorphic: inout [PolymorphicPlan]
    ) -> [RelationshipBranch] {
        guard let choice = relationship.choice else {
            return [RelationshipBranch(relationship: relationship, sqlName: relationship.name, filter: relationship.filter.map(FilterPlan.init))]
        }
        let compiled = ChoicePlan(choice, indexByName: indexByName)
        polymorphic.append(PolymorphicPlan(relationship, owner: owner, choice: compiled))
        return choice.targets.compactMap { target in
            guard let index = indexByName[target] else { return nil }
            var branch = relationship
            branch.target = target
            branch.isOptional = true
            branch.choice = nil
            branch.filter = nil
            return RelationshipBranch(
                relationship: branch, sqlName: Naming.branch(relationship: relationship.name, entity: target),
                filter: FilterPlan(choice: compiled, entity: index))
        }
    }
}
