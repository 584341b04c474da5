import GraphImportCLI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

ProcessSignals.install()
exit(GraphImportCommand.main(arguments: Array(CommandLine.arguments.dropFirst()), io: .standard))
