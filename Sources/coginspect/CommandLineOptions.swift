import CogCommandLine

/// The command line: `coginspect [TRACE|DIR]... [-c CMD]... [-f SCRIPT|-] [--json] [--keep-going]`.
struct CommandLineOptions {
    /// Where batch commands come from.
    enum Script {
        case commands([String])
        case file(String)
        case standardInput
    }

    /// The traces named, in order; a directory stands for the `.cogtrace` files in it.
    var tracePaths: [String] = []
    var commands: [String] = []
    var scriptPath: String?
    var json = false
    var keepGoing = false
    var showHelp = false
    var showVersion = false

    static let usage = """
        usage: coginspect [TRACE|DIR]... [-c COMMAND]... [-f SCRIPT|-] [--json] [--keep-going]

        Opens a .cogtrace recording (by default Recordings/tour.cogtrace, the bundled Weather tour)
        and inspects it: interactively with line editing, history and completion when standard
        input is a terminal and no -c or -f is given, otherwise in batch. Given several traces, or
        a directory of them, it writes them into one database: -c 'export sqlite FILE'.

          -c COMMAND     run COMMAND (repeatable; in order)
          -f SCRIPT      run the commands in SCRIPT, one per line ('-' reads standard input)
          --json         print one JSON document per command
          --keep-going   in batch, carry on after a failing command
          -h, --help     show this help
          --version      show the version

        \(ExitStatus.summary)
        Type 'help' at the prompt (or -c help) for the commands.
        """

    init(arguments: [String]) throws(UsageError) {
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "-c", "--command":
                guard let command = remaining.popFirst() else { throw UsageError("-c needs a command, e.g. -c info") }
                commands.append(command)
            case "-f", "--file":
                guard let path = remaining.popFirst() else {
                    throw UsageError("-f needs a script path, or - for standard input")
                }
                guard scriptPath == nil else { throw UsageError("-f can be given once") }
                scriptPath = path
            case "--json": json = true
            case "--keep-going": keepGoing = true
            case "-h", "--help": showHelp = true
            case "--version": showVersion = true
            default:
                guard !argument.hasPrefix("-") || argument == "-" else {
                    throw UsageError("unknown option '\(argument)'")
                }
                tracePaths.append(argument)
            }
        }
        guard commands.isEmpty || scriptPath == nil else { throw UsageError("use -c or -f, not both") }
    }

    /// The batch script, if one was given.
    var script: Script? {
        if !commands.isEmpty { return .commands(commands) }
        if let scriptPath { return scriptPath == "-" ? .standardInput : .file(scriptPath) }
        return nil
    }
}
