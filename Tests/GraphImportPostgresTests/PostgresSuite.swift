import GraphImportTestSupport
import Testing

/// The trait of every test that needs the throwaway server: skipped, saying why, without its binaries.
let needsPostgres = Testing.ConditionTrait.enabled(if: PostgresTestCluster.isAvailable, Comment(rawValue: PostgresTestCluster.skipReason))
