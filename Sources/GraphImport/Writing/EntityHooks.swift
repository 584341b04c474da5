/// The Swift hooks of one entity, found by its name once when the writer is made, so that the
/// writer never looks a hook up by name per object.
struct EntityHooks {
    let onInsert: (@Sendable (inout ObjectValues) -> Void)?
    let beforeSave: (@Sendable (ObjectValues) throws(HookFailure) -> Void)?

    /// Per entity of `plan`, in its order.
    static func bind(_ hooks: ImportHooks, to plan: ImportPlan) -> [EntityHooks] {
        plan.entities.map { EntityHooks(onInsert: hooks.onInsert[$0.name], beforeSave: hooks.beforeSave[$0.name]) }
    }
}
