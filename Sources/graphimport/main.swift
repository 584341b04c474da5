import GraphImportCLI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

exit(GraphImportCommand.main(arguments: Array(CommandLine.arguments.dropFirst()), io: .standard))
