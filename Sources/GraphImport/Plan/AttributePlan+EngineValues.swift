extension AttributePlan {
    /// What a new object (a stub too) holds for this attribute when the feed gives no value:
    /// `always`, else `default`, else `onchange` (an insert is a change). `always` also replaces
    /// a value the feed gives. The one rule by which both stores' writers insert.
    var insertedValue: PlanValue? { always ?? defaultValue ?? onChange }
}
