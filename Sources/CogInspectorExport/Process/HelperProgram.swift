import CChildProcess
import CogInspector
import Foundation

/// A helper program (Graphviz's `dot`) run to its end with bounded cost: it is fed its input
/// and read from one thread without blocking, stopped at a time limit or when the command is
/// interrupted, and the kernel ends it if the inspector dies first, so no helper outlives the
/// inspector however it ends.
struct HelperProgram {
    /// How a run ended.
    enum Outcome: Equatable {
        /// The program exited with `status`, having written `output`.
        case finished(status: Int32, output: [UInt8])
        /// The time limit passed first; the program was killed.
        case timedOut
        /// The program could not be started (the reason, from the system).
        case notStarted(String)
    }

    let program: URL
    let arguments: [String]

    /// How often a run looks at its clock and at the interrupt check while the program works.
    static let pollInterval: Int32 = 20

    /// Runs the program with `input` on its standard input, its standard error discarded; kills
    /// it at `timeLimit`, or at once (throwing `.interrupted`) when `interruptRequested` says so.
    func run(
        input: [UInt8], timeLimit: Duration, interruptRequested: @Sendable () -> Bool
    ) throws(InspectorError) -> Outcome {
        var toChild: [Int32] = [-1, -1]
        var fromChild: [Int32] = [-1, -1]
        guard cog_pipe_closing_on_exec(&toChild) == 0 else { return .notStarted(String(cString: strerror(errno))) }
        guard cog_pipe_closing_on_exec(&fromChild) == 0 else {
            close(toChild[0])
            close(toChild[1])
            return .notStarted(String(cString: strerror(errno)))
        }
        let discard = open("/dev/null", O_WRONLY | O_CLOEXEC)
        let child = spawn(input: toChild[0], output: fromChild[1], error: discard >= 0 ? discard : fromChild[1])
        let startFailure = errno
        close(toChild[0])
        close(fromChild[1])
        if discard >= 0 { close(discard) }
        guard child > 0 else {
            close(toChild[1])
            close(fromChild[0])
            return .notStarted(String(cString: strerror(startFailure)))
        }
        let ending = exchange(
            with: child, writing: toChild[1], reading: fromChild[0], input: input,
            deadline: ContinuousClock.now + timeLimit, interruptRequested: interruptRequested)
        switch ending {
        case .interrupted:
            Self.kill(child)
            throw .interrupted
        case .timedOut:
            Self.kill(child)
            return .timedOut
        case .ended(let output):
            return .finished(status: Self.reap(child), output: output)
        }
    }

    private enum Ending {
        case ended([UInt8])
        case timedOut, interrupted
    }

    private func spawn(input: Int32, output: Int32, error: Int32) -> pid_t {
        let words = [program.path] + arguments
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        defer { for word in argv { free(word) } }
        return argv.withUnsafeBufferPointer { buffer in
            cog_spawn_bound_child(program.path, buffer.baseAddress, input, output, error)
        }
    }

    /// Feeds `input` and collects the output until the program closes its output, the deadline
    /// passes or an interrupt comes; closes both descriptors.
    private func exchange(
        with child: pid_t, writing: Int32, reading: Int32, input: [UInt8], deadline: ContinuousClock.Instant,
        interruptRequested: @Sendable () -> Bool
    ) -> Ending {
        var writing = writing
        defer {
            if writing >= 0 { close(writing) }
            close(reading)
        }
        _ = fcntl(writing, F_SETFL, fcntl(writing, F_GETFL) | O_NONBLOCK)
        _ = fcntl(reading, F_SETFL, fcntl(reading, F_GETFL) | O_NONBLOCK)
        var output: [UInt8] = []
        var written = 0
        var chunk = [UInt8](repeating: 0, count: 65536)
        if input.isEmpty {
            close(writing)
            writing = -1
        }
        while true {
            if interruptRequested() { return .interrupted }
            if ContinuousClock.now >= deadline { return .timedOut }
            var watched = [pollfd(fd: reading, events: Int16(POLLIN), revents: 0)]
            if writing >= 0 { watched.append(pollfd(fd: writing, events: Int16(POLLOUT), revents: 0)) }
            let ready = poll(&watched, nfds_t(watched.count), Self.pollInterval)
            if ready < 0, errno != EINTR { return .ended(output) }
            if ready <= 0 { continue }
            if writing >= 0, watched[1].revents != 0 {
                let count = input[written...].withUnsafeBytes { bytes in
                    cog_write_without_sigpipe(writing, bytes.baseAddress, bytes.count)
                }
                if count > 0 { written += count }
                if written == input.count || (count < 0 && errno != EAGAIN && errno != EINTR) {
                    close(writing)
                    writing = -1
                }
            }
            if watched[0].revents != 0 {
                let count = chunk.withUnsafeMutableBytes { read(reading, $0.baseAddress, $0.count) }
                if count > 0 {
                    output.append(contentsOf: chunk[0..<count])
                } else if count == 0 || (errno != EAGAIN && errno != EINTR) {
                    return .ended(output)
                }
            }
        }
    }

    /// Kills `child` and waits for it, so it leaves no zombie.
    private static func kill(_ child: pid_t) {
        _ = Glibc.kill(child, SIGKILL)
        _ = reap(child)
    }

    /// Waits for `child` to end; its exit status, or 128 plus the signal that ended it.
    private static func reap(_ child: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 {
            guard errno == EINTR else { return -1 }
        }
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }
}
