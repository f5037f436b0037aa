import Dispatch
import Foundation
import Synchronization

/// A streamed trace's file as the writer's thread and the app's share it: opened once, by
/// whichever thread first needs it, and outside the lock that keeps the records in order, so the
/// other thread may go on encoding meanwhile.
///
/// Creating a file can take hundreds of microseconds, more the more files the volume removed
/// in the last minutes (docs/performance.md, "Recorder and streaming"). Opened under the
/// records' lock, a slow creation held the app's thread at the end of a short stream for as
/// long; now the app encodes what is left while the writer's thread waits for the kernel, and
/// waits itself only for what remains of the creation.
final class StreamFile: Sendable {
    private enum State: Sendable {
        case unopened
        case opening
        case open(OpenedTrace)
        case failed(RecorderFault)
        case closed
    }

    private let path: String
    private let state = Mutex<State>(.unopened)
    /// Signalled when the thread that opens the file is done; each thread that waited on it
    /// signals it again on its way out, for the next.
    private let openingEnded = DispatchSemaphore(value: 0)

    /// How many times a thread waiting for the file yields before it sleeps: a millisecond or two.
    static let yieldingLooks = 2_000

    init(path: String) {
        self.path = path
    }

    /// The file, open: opened here when no thread has begun to, else once the thread that began
    /// is done. A failure to open is every caller's answer; nil once the file is closed.
    func opened() -> Result<OpenedTrace, RecorderFault>? {
        let mustOpen = state.withLock { state in
            guard case .unopened = state else { return false }
            state = .opening
            return true
        }
        guard !mustOpen else {
            let result = OpenedTrace.open(path)
            state.withLock { state in
                switch result {
                case .success(let file): state = .open(file)
                case .failure(let fault): state = .failed(fault)
                }
            }
            openingEnded.signal()
            return result
        }
        var waited = false
        defer { if waited { openingEnded.signal() } }
        var looks = 0
        while true {
            switch state.withLock({ $0 }) {
            case .unopened, .opening:
                // A creation takes microseconds to a few hundred: the waiting thread yields
                // its CPU meanwhile rather than sleep, since a sleeping thread runs tens of
                // microseconds after it is woken. One that takes
                // longer (a slow network volume) is slept on.
                looks += 1
                if looks < Self.yieldingLooks {
                    sched_yield()
                } else {
                    openingEnded.wait()
                    waited = true
                }
            case .open(let file): return .success(file)
            case .failed(let fault): return .failure(fault)
            case .closed: return nil
            }
        }
    }

    /// Takes the open file for its caller to close, once it is open (waiting for a creation
    /// under way); nil when opening failed or never began, or the file is already taken.
    /// Nothing is written after.
    func takeForClosing() -> OpenedTrace? {
        let neverOpened = state.withLock { state in
            guard case .unopened = state else { return false }
            state = .closed
            return true
        }
        guard !neverOpened, case .success(let file)? = opened() else { return nil }
        return state.withLock { state in
            guard case .open = state else { return nil }
            state = .closed
            return file
        }
    }
}
