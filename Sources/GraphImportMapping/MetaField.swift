/// `meta sinceId <- search_metadata.max_id : Int`: one value read from the document's root and saved
/// to the store's metadata table, in the same transaction as the data.
package struct MetaField: Sendable, Equatable {
    package var name: String
    /// A path from the document's root (`[*]` is not allowed); the shorthand's path is the name.
    package var source: KeyPath
    package var type: ValueType
    /// `String?`: the value may be null or missing; a required one must be in the document.
    package var isOptional: Bool
    /// Applied left to right to the JSON value before it is checked against `type`.
    package var converters: [ConverterCall]
    package var location: SourceLocation
    /// Where `source` is written: after `<-`, or the name itself for the shorthand.
    package var pathLocation: SourceLocation

    package init(
        name: String, source: KeyPath, type: ValueType, isOptional: Bool, converters: [ConverterCall], location: SourceLocation,
        pathLocation: SourceLocation? = nil
    ) {
        self.pathLocation = pathLocation ?? location
        self.name = name
        self.source = source
        self.type = type
        self.isOptional = isOptional
        self.converters = converters
        self.location = location
    }
}
