import CogInspector
import Foundation

/// Runs commands without a prompt: from `-c`, a script file or standard input. Stops at the first
/// failing command unless told to keep going; errors go to standard error as `SOURCE:LINE: error:`.
struct BatchRunner {
    let session: InspectorSession
    let json: Bool
    let keepGoing: Bool

    func run(_ script: CommandLineOptions.Script) -> CogInspect.ExitStatus {
        let lines: [(source: String, line: Int, text: String)]
        switch script {
        case .commands(let commands):
            lines = commands.enumerated().map { ("-c", $0.offset + 1, $0.element) }
        case .file(let path):
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                CogInspect.fail("cannot read script '\(path)'", status: .cannotOpen)
            }
            lines = text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
                .map { (path, $0.offset + 1, String($0.element)) }
        case .standardInput:
            var read: [(String, Int, String)] = []
            while let line = Swift.readLine() { read.append(("<stdin>", read.count + 1, line)) }
            lines = read
        }
        var status = CogInspect.ExitStatus.ok
        let renderer = OutputPrinter(session: session, json: json)
        for (source, number, text) in lines {
            do {
                guard let result = try session.execute(text) else { continue }
                renderer.print(result)
                if session.wantsToQuit { break }
            } catch {
                FileHandle.standardError.write(Data("\(source):\(number): error: \(error)\n".utf8))
                if status == .ok { status = error.kind == .expectation ? .expectFailed : .commandFailed }
                if !keepGoing { break }
            }
        }
        return status
    }
}

/// Prints results as the session's settings say (text or JSON).
struct OutputPrinter {
    let session: InspectorSession
    let json: Bool

    func print(_ result: CommandResult) {
        guard !result.report.isEmpty else { return }
        let renderer = ReportRenderer(valueWidth: session.settings.valueWidth)
        if json || session.settings.format == .json {
            Swift.print(renderer.json(result))
        } else {
            Swift.print(renderer.text(result))
        }
    }
}
