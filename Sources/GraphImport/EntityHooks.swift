import GraphImportJSON

/// The Swift hooks of one entity, found by its name once when an importer is made: drafting
/// (key handlers) and writing (`onInsert`, `beforeSave`) reach them by the entity's index and
/// never look a hook up by name per object.
struct EntityHooks: Sendable {
    typealias KeyHandler = @Sendable (JSONValue, inout ObjectValues) throws(HookFailure) -> Void

    let onInsert: (@Sendable (inout ObjectValues) -> Void)?
    let beforeSave: (@Sendable (ObjectValues) throws(HookFailure) -> Void)?
    /// By JSON key; nil when the entity has no key handler.
    let keyHandlers: [String: KeyHandler]?

    /// Per entity of `plan`, in its order. Hooks named for an entity the plan lacks are not used
    /// (one set of hooks may serve several maps).
    static func bind(_ hooks: ImportHooks, to plan: ImportPlan) -> [EntityHooks] {
        plan.entities.map { entity in
            let handlers = hooks.keyHandlers[entity.name]
            return EntityHooks(
                onInsert: hooks.onInsert[entity.name], beforeSave: hooks.beforeSave[entity.name],
                keyHandlers: handlers?.isEmpty == false ? handlers : nil)
        }
    }
}
