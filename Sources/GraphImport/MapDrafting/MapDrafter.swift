import GraphImportJSON

/// `graphimport init`: drafts a starter map from a sample feed.
///
/// The sample is read once, record by record (each element of a top-level array, each line of
/// JSON Lines; a single top-level object, such as a wrapped response, is read as one value),
/// into a survey that keeps counts per place and never the values; the draft is decided from the
/// survey and printed as map text.
package enum MapDrafter {
    /// One sample of the feed: its bytes, and its file name (nil for standard input).
    package struct Sample {
        package var source: any JSONByteSource
        package var name: String?
        package var format: JSONInputFormat

        package init(source: any JSONByteSource, name: String?, format: JSONInputFormat = .auto) {
            self.source = source
            self.name = name
            self.format = format
        }
    }

    /// Drafts a map from the JSON or JSON Lines in `source`.
    ///
    /// `entity` names the records' entity; without it the name comes from the records path or
    /// from `sampleName` (`tweets.json` -> `Tweet`), else `Record`.
    package static func draft(
        source: some JSONByteSource, format: JSONInputFormat = .auto, entity: String? = nil, sampleName: String? = nil
    ) throws(MapDraftFailure) -> MapDraft {
        try draft(samples: [Sample(source: source, name: sampleName, format: format)], entity: entity)
    }

    /// Drafts one map from several samples of a feed (responses of one endpoint, pages): every
    /// record of every sample goes into one survey, so that types widen across them (an `Int` in
    /// one and a fraction in another is a `Double`; a field one sample lacks is optional) and the
    /// draft imports each of them.
    package static func draft(samples: [Sample], entity: String? = nil) throws(MapDraftFailure) -> MapDraft {
        let survey = ShapeSurvey()
        var fromTopLevelArray = false
        var jsonLines = false
        var documents = 0
        for sample in samples {
            let reader = JSONRecordReader(
                source: sample.source, patterns: [.everyElement], format: sample.format,
                options: JSONReaderOptions(maxDepth: ImportLimits.maxJSONDepth, maxStringBytes: ImportLimits.maxStringBytes))
            do throws(JSONError) {
                while let record = try reader.next() {
                    if case .index = record.path.components.first { fromTopLevelArray = true }
                    survey.add(record.value)
                }
            } catch {
                throw MapDraftFailure(json: error, sample: sample.name)
            }
            if reader.format == .jsonLines { jsonLines = true } else { documents += 1 }
        }
        let sampleNames = samples.compactMap(\.name)
        // Records named after the sample only when every sample is named alike (`tweets.json`,
        // `tweets-2.json` say nothing more than `tweets.json`).
        let recordsNames = Set(samples.map { $0.name.flatMap(nameFromSample) })
        var planner = DraftPlanner(
            survey: survey, fromTopLevelArray: fromTopLevelArray,
            recordsName: entity ?? (recordsNames.count == 1 ? recordsNames.first! : nil), userNamedRecords: entity != nil,
            wholeDocuments: !fromTopLevelArray && !jsonLines)
        guard var model = planner.plan() else {
            let held = survey.records == 0 ? "no records" : "records with no field that could identify them"
            throw MapDraftFailure(
                message: "cannot draft a map: the sample holds \(held)",
                hint: survey.records == 0
                    ? "give a sample with at least one record" : "records need a string or integer field, or an id inside; write the map by hand")
        }
        model.nameTables()
        let records = model.records.reduce(0) { $0 + $1.count }
        let formatName = jsonLines ? (documents > 0 ? "JSON and JSON Lines" : "JSON Lines") : "JSON"
        let from = sampleNames.isEmpty ? "a sample" : sampleNames.joined(separator: ", ")
        let checkSample = samples.count == 1 ? (samples[0].name ?? "FEED") : "EACH_SAMPLE"
        model.header =
            [
                "Drafted by `graphimport init` from \(from) (\(formatName), \(survey.records) value\(survey.records == 1 ? "" : "s") read).",
                "Every line is a guess from the data; comments say where the guess was a close call.",
                "Check it with `graphimport check --map THIS.map --sample \(checkSample)`, then import.",
            ] + leftOut(survey)
        let text = MapDraftPrinter(model: model).text
        try checkLimits(text)
        return MapDraft(text: text, records: records, entities: model.entities.map(\.name), recordsPaths: model.records.map(\.path))
    }

    /// What the survey did not walk, for the draft's header: every field the draft leaves out is
    /// named there, or counted where there are too many to name.
    static func leftOut(_ survey: ShapeSurvey) -> [String] {
        var lines: [String] = []
        for node in survey.nodes {
            if node.droppedKeys > 0, !DraftPlanner.isKeyedByData(node) {
                let named = node.droppedKeyExamples.map { DraftNames.quoted($0.count > 40 ? String($0.prefix(40)) + "…" : $0) }
                lines.append(
                    "Left out at \(node.placeText): keys past the first \(ShapeSurvey.maxKeysPerObject) of an object, met "
                        + "\(node.droppedKeys) time\(node.droppedKeys == 1 ? "" : "s") (\(named.joined(separator: ", "))\(node.droppedKeys > named.count ? ", …" : "")); "
                        + "a draft takes at most \(ShapeSurvey.maxKeysPerObject) keys of an object: add the ones you need by hand.")
            }
            if node.longKeys > 0 {
                lines.append(
                    "Left out at \(node.placeText): \(node.longKeys) key\(node.longKeys == 1 ? "" : "s") over \(ShapeSurvey.maxKeyBytes) bytes "
                        + "(the longest \(node.longestKeyBytes) bytes), too long to name a field.")
            }
        }
        if survey.tooDeep > 0 {
            lines.append(
                "Left out: the contents of \(survey.tooDeep) object\(survey.tooDeep == 1 ? "" : "s") or array\(survey.tooDeep == 1 ? "" : "s") "
                    + "nested more than \(ShapeSurvey.maxDepth) levels deep; a draft goes no deeper.")
        }
        return lines
    }

    /// A draft is a map `check` accepts: no larger than `ImportLimits.maxMapBytes`, and one that
    /// compiles (within the entity and member limits); otherwise no draft is given.
    static func checkLimits(_ text: String) throws(MapDraftFailure) {
        let bytes = text.utf8.count
        guard bytes <= ImportLimits.maxMapBytes else {
            throw MapDraftFailure(
                message: "cannot draft a map: the draft would be \(bytes) bytes, and a map may be at most \(ImportLimits.maxMapBytes) bytes",
                hint: "draft from a smaller sample, or from the part of the feed you mean to import")
        }
        do {
            _ = try ImportPlan.compile(text: text, fileName: "draft.map")
        } catch {
            let first = error.diagnostics.first.map { $0.headline.replacing(": error: ", with: ": ") } ?? "it has errors"
            throw MapDraftFailure(
                message: "cannot draft a map: the draft is not a map check accepts: \(first)",
                hint: "draft from a smaller sample, or write the map by hand")
        }
    }

    /// `tweets.json` -> `Tweet`: a sample named by one word names its records; others do not.
    static func nameFromSample(_ path: String) -> String? {
        let file = path.split(separator: "/").last.map(String.init) ?? path
        let base = file.split(separator: ".", omittingEmptySubsequences: false).dropLast().joined(separator: ".")
        guard !base.isEmpty, base.unicodeScalars.allSatisfy({ $0.properties.isAlphabetic && $0.isASCII }) else { return nil }
        return DraftNames.entity(DraftNames.singular(base))
    }
}

/// Why no draft was made: the sample is not JSON (`json` says where), or it holds nothing a map can key.
package struct MapDraftFailure: Error, Sendable {
    package var message: String
    package var hint: String?
    /// The reader's error, when the sample is not valid JSON (or could not be read).
    package var json: JSONError?

    init(message: String, hint: String?) {
        self.message = message
        self.hint = hint
    }

    /// The sample the reader's error is in, when several were given (nil for standard input).
    package var sample: String?

    init(json: JSONError, sample: String? = nil) {
        message = json.message
        hint = json.hint
        self.json = json
        self.sample = sample
    }
}
