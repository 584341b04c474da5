// The snippet of docs/library.md, "The library", as printed there, so that the compiler reads it:
// the imports below and the body of `librarySnippet` between the marks are the document's block
// (DocumentationExampleTests.librarySnippetIsTheDocuments compares them).
import Foundation
import GraphImport

/// `text` holds the map, `json` the feed, as the document says.
func librarySnippet(text: String, json: String) throws {
    // The document's block begins.
    // Parses and compiles the map; its problems come back together, as `graphimport check` shows them.
    let plan = try ImportPlan.compile(text: text, fileName: "tweets.map")
    let summary = try GraphImporter(plan: plan).run(
        source: BytesSource(Array(json.utf8)), inputName: "feed", storePath: "tweets.sqlite", options: ImportOptions())

    // The store back as JSON in the map's shape, streamed in pieces (`graphimport export`).
    let exporter = GraphExporter(plan: plan)
    for caveat in exporter.caveats { print("cannot write back:", caveat) }  // what will not round-trip
    try exporter.run(storePath: "tweets.sqlite", request: ExportRequest(entity: "Tweet", condition: #"lang = "en""#, jsonLines: true)) {
        bytes in FileHandle.standardOutput.write(Data(bytes))
    }
    // The document's block ends.
    _ = summary
}
