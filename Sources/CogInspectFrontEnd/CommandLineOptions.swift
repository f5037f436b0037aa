import CogCommandLine

/// The command line: `coginspect [TRACE|DIR]... [-c CMD]... [-f SCRIPT|-] [--json] [--keep-going]`, or
/// `coginspect --follow TRACE [--until EXPR]` with the same command options.
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
    /// `--follow`: read the trace as it is written.
    var follows = false
    /// `--until EXPR`: a batch follow ends when EXPR holds.
    var until: String?
    /// `--reopen`: a batch follow goes on with a file a restarted app truncated or replaced.
    var reopens = false
    /// `--no-index`: read a big trace whole, neither reading nor writing its sidecar index.
    var usesIndex = true
    var showHelp = false
    var showVersion = false
    /// `--completion-script SHELL`: print the shell's completion script instead of running.
    var completionShell: String?

    static let usage = """
        usage: coginspect [TRACE|DIR]... [-c COMMAND]... [-f SCRIPT|-] [--json] [--keep-going] [--no-index]
               coginspect --follow TRACE [-c COMMAND]... [--until EXPR] [--reopen] [--json]

        Opens a .cogtrace recording (by default Recordings/tour.cogtrace, the bundled Weather tour)
        and inspects it: interactively with line editing, history and completion when standard
        input is a terminal and no -c or -f is given, otherwise in batch. Given several traces, or
        a directory of them, it writes them into one database: -c 'export sqlite FILE'.

          -c COMMAND     run COMMAND (repeatable; in order)
          -f SCRIPT      run the commands in SCRIPT, one per line ('-' reads standard input)
          --json         print one JSON document per command
          --keep-going   in batch, carry on after a failing command
          --no-index     read a big trace whole: no sidecar index (TRACE.cogindex, written on
                         the first open of a trace of 32 MB or more) is read or written
          --follow       keep reading TRACE as a running app writes it (waiting for it to start);
                         at the prompt new turns arrive as you type; in batch, after the
                         commands ran, print what 'watch' sees until the trailer or Ctrl-C
          --until EXPR   with --follow in batch: stop when EXPR holds in an arriving turn
                         (exit 0), or exit 3 if the trailer comes first
          --reopen       with --follow in batch: when the app restarts (its file truncated or
                         replaced, or its writer dead), wait for the new recording, run the
                         commands again on it and go on following
          --completion-script bash|zsh|fish
                         print a completion script for the shell (command names and state
                         labels inside -c '…', options, trace files); docs/install.md says
                         where each shell wants it
          -h, --help     show this help
          --version      show the version

        \(ExitStatus.summary)
        Type 'help' at the prompt (or -c help) for the commands.
        """

    init(arguments: [String]) throws(UsageError) {
        var words = ArgumentList(arguments)
        while let argument = words.next() {
            switch argument {
            case "-c", "--command":
                commands.append(try words.value(after: argument, expected: "a command, e.g. -c info"))
            case "-f", "--file":
                let path = try words.value(after: argument, expected: "a script path, or - for standard input")
                guard scriptPath == nil else { throw UsageError("-f can be given once") }
                scriptPath = path
            case "--json": json = true
            case "--keep-going": keepGoing = true
            case "--follow": follows = true
            case "--reopen": reopens = true
            case "--no-index": usesIndex = false
            case "--until":
                until = try words.value(
                    after: argument, expected: "an expression, e.g. --until 'weather.isNiceHere == true'")
            case "--completion-script":
                let shell = try words.value(after: argument, expected: "a shell: bash, zsh or fish")
                guard ShellCompletion.shells.contains(shell) else {
                    throw UsageError("no completion script for '\(shell)'; expected bash, zsh or fish")
                }
                completionShell = shell
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
        if follows, tracePaths.count != 1 {
            throw UsageError("--follow needs exactly one trace file, e.g. --follow weather.cogtrace")
        }
        if until != nil, !follows { throw UsageError("--until works with --follow only") }
        if reopens, !follows { throw UsageError("--reopen works with --follow only") }
        if reopens, scriptPath == "-" {
            throw UsageError(
                "--reopen runs the commands again on each new recording; give them with -c or -f, not -f -")
        }
    }

    /// The batch script, if one was given.
    var script: Script? {
        if !commands.isEmpty { return .commands(commands) }
        if let scriptPath { return scriptPath == "-" ? .standardInput : .file(scriptPath) }
        return nil
    }
}
