// One `import GraphImport` is all a library user and a hook author write. GraphImport's public
// declarations name types of the modules below (`JSONValue` and `BytesSource` in a run and a key
// handler, `ConverterSignature` and `Literal` in a converter, `SQLValue` and `MetaValue` in hooks,
// objects and options, `StoreError`, `PostgresError` and `ConnectionString` in errors and
// `StoreLocation`), so they are re-exported here rather than imported by every caller. Only those
// types, where a module has more: a whole GraphImportMapping would bring its `SourceLocation`,
// which clashes with Swift Testing's in a user's tests. What the engine alone uses of these
// modules is `package`: visible to this package's targets and tests, not to a user.
@_exported import GraphImportJSON
@_exported import GraphImportSchema
@_exported import struct GraphImportMapping.ConverterSignature
@_exported import struct GraphImportMapping.Diagnostic
@_exported import enum GraphImportMapping.ImportMode
@_exported import struct GraphImportMapping.IncludeFailure
@_exported import struct GraphImportMapping.IncludeResolver
@_exported import enum GraphImportMapping.Literal
@_exported import struct GraphImportMapping.Mapping
@_exported import struct GraphImportMapping.MappingErrors
@_exported import enum GraphImportMapping.ValueType
@_exported import struct GraphImportPostgres.ConnectionString
@_exported import struct GraphImportPostgres.PostgresError
@_exported import struct GraphImportStore.StoreError
