import GraphImportTestSupport
import Testing

/// Every test that reads the real payloads of the shared corpus is a suite nested in this one, so
/// that a clone without `../shared/corpus` skips them all with one line that says how to run them.
@Suite("Corpus", .enabled(if: Corpus.isPresent, Comment(rawValue: Corpus.skipReason)))
struct CorpusSuite {}
