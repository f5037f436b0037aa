import CogCommandLine
import Foundation
import Weather

/// The texts `weather help` prints: one overview and one page per command.
enum WeatherHelp {
    static let commandNames = ["scenarios", "record", "replay", "run"]

    static let general = """
        usage: weather <command> [options]

        commands:
          scenarios                      list the scripted scenarios
          record SCENARIO [-o FILE] [--change NAME]
                                         record one scenario (default FILE: SCENARIO.cogtrace),
                                         with the shipped rules or one small logic change
          record --all [-d DIRECTORY]    record every scenario into DIRECTORY (default: Recordings)
          replay FILE                    re-run a scripted recording against the current code
          run [--trace FILE] [--interval SECONDS] [--visit ZIP,...]
                                         run the app on the real clock with a live dashboard
          help [COMMAND]                 show this help, or one command's

          -h, --help                     show this help
          --version                      show the version

        \(ExitStatus.summary)

        """

    /// The help of one command, or nil when there is no such command.
    static func command(_ name: String) -> String? {
        switch name {
        case "scenarios":
            """
            usage: weather scenarios

            Lists the scripted scenarios, each with what it shows. Every one can be recorded
            (weather record NAME) and is committed under Recordings/.

            """
        case "record":
            """
            usage: weather record SCENARIO [-o FILE] [--change NAME]
                   weather record --all [-d DIRECTORY] [--change NAME]

            Runs a scripted scenario on a virtual clock and writes its trace. The output is the
            same bytes on every machine, which is how CI checks Recordings/ are current.

              -o, --output FILE            where to write (default: SCENARIO.cogtrace)
              -d, --output-directory DIR   with --all, where to write (default: Recordings)
              --change NAME                run the app with one small logic change, to try
                                           'coginspect -c "diff --trace OTHER"' or 'weather
                                           replay' on a real regression:
            \(WeatherLogicChange.all.map { "    \($0.name.padding(toLength: 25, withPad: " ", startingAt: 0))\($0.summary)" }.joined(separator: "\n"))

            """
        case "replay":
            """
            usage: weather replay FILE

            Feeds a scripted recording's inputs (writes, service results) to a fresh app and
            compares its turns with the recorded ones. Exits 0 when the current code does what
            was recorded, 1 when it differs (naming the first turn that does), 65 for a file
            replay cannot use and 66 for one that cannot be opened. Recordings of 'weather run'
            ran on the real clock and are refused: their timing cannot be repeated.

            """
        case "run":
            """
            usage: weather run [--trace FILE] [--interval SECONDS] [--visit ZIP,...]

            Runs the app on the real clock with the demo service, redrawing a dashboard after
            every change; Ctrl-C (or SIGTERM) ends it and finishes the trace.

              --trace FILE          stream the trace to FILE as the app runs
              --interval SECONDS    how often the forecast refreshes (default: 10)
              --visit ZIP,...       look at each ZIP in turn, one per interval, round and
                                    round (e.g. 94105,98101,10001)

            """
        default: nil
        }
    }
}
