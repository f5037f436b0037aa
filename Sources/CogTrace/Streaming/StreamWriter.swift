import CogTraceFormat
import Dispatch
import Foundation
import Synchronization

/// Writes a streamed trace's records on a thread of its own, in the order they were handed
/// over, so the app's thread spends a turn only on copying its packed events and rendering the
/// values only it may look at: converting events against the graph, encoding JSON and the write
/// system calls happen here. Turns handed over while the thread is busy are written together
/// once it gets to them, in one system call, so a crash still loses only what was in flight.
///
/// A write that fails, or finds the file removed or replaced, is kept as the fault; nothing is
/// written after it. The stream reads the fault on the app's thread and reports it there.
final class StreamWriter: Sendable {
    private let path: String
    private let file: StreamFile
    private let queue = DispatchQueue(label: "CogTrace.stream-writer")
    /// Whether records are written on `queue` (else at once, on the caller's thread).
    private let writesInBackground: Bool
    /// Batches handed over and not taken by the writer's thread yet, and the emptied ones it
    /// gave back (`PendingBatches`).
    private let pending = Mutex(PendingBatches())
    /// How far the writer may fall behind before the app's thread waits for it: a crash loses at
    /// most what was handed over and not written, so this bounds the loss whatever the load.
    static let maximumLag: Duration = .milliseconds(50)
    /// Batches waiting before the lag is checked at all, so a steady stream never reads a clock.
    private static let lagCheckThreshold = 32
    /// The graph the records describe and the bytes being built, touched only by whoever writes
    /// (the queue, or the caller when writing is immediate), so the lock is never contended.
    private let encoding: Mutex<StreamEncoding>
    /// Bytes built at most before a write, however long the backlog.
    static let burstLimit = 1 << 20
    /// States in a graph small enough to be freed on the app's thread when a stream ends.
    static let graphFreedHere = 256
    private let fault = Mutex<RecorderFault?>(nil)
    /// Whether `fault` is set: the app's thread asks before every turn, and a load costs less
    /// than taking the lock.
    private let hasFault = Atomic<Bool>(false)
    /// App threads waiting in `write` for a writer that fell behind: counted on that slow path
    /// only, so a test can wait for the bound to hold rather than guess it did from a pause.
    private let appThreadsHeldBack = Atomic<Int>(0)

    /// Starts a stream into the file at `path` (created, or truncated), for records describing
    /// a graph that starts as `snapshot`. Writing in the background, the file is opened by the
    /// writer's thread before it takes the first records (or by the app's, should the stream
    /// end first): creating a file costs the file system as much kernel time as many a run of
    /// turns (`StreamFile`; docs/performance.md, "Recorder and streaming"). What would make opening fail is looked for
    /// here first (`OpenedTrace.refusal(toWrite:)`); a failure it cannot foresee becomes the
    /// stream's fault, as a failed write does.
    /// - Throws: `RecorderFault` naming the path and the system's reason.
    init(
        path: String, writing: RecorderConfiguration.StreamWriting, startingFrom snapshot: SettledSnapshot
    ) throws(RecorderFault) {
        self.path = path
        file = StreamFile(path: path)
        writesInBackground = writing == .background
        if let reason = OpenedTrace.refusal(toWrite: path) { throw RecorderFault(path: path, reason: reason) }
        encoding = Mutex(StreamEncoding(encoder: StreamEncoder(from: snapshot.snapshot)))
        if !writesInBackground, case .failure(let fault)? = file.opened() { throw fault }
    }

    /// Whether an app thread is waiting for this writer to catch up (`maximumLag`).
    var isHoldingTheAppBack: Bool { appThreadsHeldBack.load(ordering: .relaxed) > 0 }

    /// What stopped writing, if anything has.
    var currentFault: RecorderFault? {
        guard hasFault.load(ordering: .acquiring) else { return nil }
        return fault.withLock { $0 }
    }

    /// Converts, encodes and writes `batch`: on the writer's thread, or now when writing is
    /// immediate. Returns an empty batch to fill next: one the writer's thread has written and
    /// emptied when there is one, so that a turn's hand-over reuses storage rather than
    /// allocating its arrays anew (and the writer's thread freeing them).
    func write(_ batch: consuming StreamBatch) -> StreamBatch {
        guard writesInBackground else {
            // Written here and now, so the same batch comes back emptied.
            var batches = [batch]
            encoding.withLock { write(batches, in: &$0) }
            var written = batches.removeLast()
            written.removeAll()
            return written
        }
        // Moved into the list, not copied there: a copy retained each of the batch's arrays,
        // and letting go of the original released them again.
        var handedOver = Optional(batch)
        let (mustSchedule, isBehind, spare) = pending.withLock { pending in
            pending.batches.append(handedOver.take()!)
            if pending.batches.count == 1 { pending.since = nil }
            var isBehind = false
            if pending.batches.count >= Self.lagCheckThreshold {
                let now = ContinuousClock.now
                let since = pending.since ?? now
                pending.since = since
                isBehind = since.duration(to: now) > Self.maximumLag
            }
            defer { pending.isScheduled = true }
            return (!pending.isScheduled, isBehind, pending.spares.popLast())
        }
        if mustSchedule { queue.async { [self] in writePending() } }
        if isBehind {
            appThreadsHeldBack.add(1, ordering: .relaxed)
            drain()
            appThreadsHeldBack.subtract(1, ordering: .relaxed)
        }
        return spare ?? StreamBatch()
    }

    /// Takes what was handed over, writes it, and comes back until nothing is left: after the
    /// last batch it looks again a few times, a short sleep apart, before it stops. An app whose
    /// turns (or parts of a long one) come faster than that hands them over without waking this
    /// thread each time: a wake-up is a system call on the app's thread.
    private func writePending() {
        // The file first, outside the records' lock: a stream that ends while it is being
        // created has the app's thread encode what is left meanwhile.
        if case .failure(let fault)? = file.opened() { keep(fault) }
        var quietLooks = 0
        // The batches last written, and the ones kept to give back. Both are made ready here,
        // outside the locks (releasing a batch's values and arrays is this thread's work), so
        // that the app's thread never waits on the hand-over's lock for them.
        var written: [StreamBatch] = []
        var spares: [StreamBatch] = []
        while true {
            let isDone = quietLooks == Self.lingeringLooks
            // Only the last look waits for the lock. Held by the app's thread, the lock means it
            // is writing everything handed over itself (a stream ending, a writer too far
            // behind); waiting on it had this thread spin in the kernel beside that work, and
            // the app's thread make a system call to hand the lock over when it let go.
            let wrote: Bool
            if isDone {
                wrote = encoding.withLock { encoding in
                    writeTaken(markingIdle: true, written: &written, spares: &spares, in: &encoding)
                }
            } else {
                wrote =
                    encoding.withLockIfAvailable { encoding in
                        writeTaken(markingIdle: false, written: &written, spares: &spares, in: &encoding)
                    } ?? false
            }
            // Emptied where they lie, while only `written` holds them, so no storage is copied.
            for index in written.indices
            where spares.count < Self.spareLimit && written[index].capacity <= Self.spareCapacity {
                written[index].removeAll()
                spares.append(written[index])
            }
            written.removeAll(keepingCapacity: true)
            if wrote {
                quietLooks = 0
            } else if isDone {
                return
            } else if isClosed.load(ordering: .acquiring) {
                quietLooks = Self.lingeringLooks
            } else {
                quietLooks += 1
                usleep(UInt32(Self.lingeringInterval))
            }
        }
    }

    /// Takes what was handed over (`takePending`) into `written` and writes it; whether there
    /// was any.
    private func writeTaken(
        markingIdle: Bool, written: inout [StreamBatch], spares: inout [StreamBatch],
        in encoding: inout StreamEncoding
    ) -> Bool {
        written = takePending(markingIdle: markingIdle, listStorage: &written, spares: &spares)
        write(written, in: &encoding)
        return !written.isEmpty
    }

    /// How many times the writer's thread looks for more after a batch before it stops, and
    /// how long it sleeps between looks (microseconds): 2 ms in all.
    static let lingeringLooks = 8
    static let lingeringInterval = 250
    /// Whether the stream has ended, so the writer's thread stops looking at its next look
    /// rather than hold a pool thread for nothing.
    private let isClosed = Atomic<Bool>(false)

    /// The batches handed over and not taken yet, all of them. Taken with the encoding lock
    /// held, by whichever thread then writes them, so batches are written in the order they
    /// came whoever takes them. `markingIdle`: the writer's thread, which stops coming when it
    /// finds none. The writer's thread also passes an emptied list, whose storage takes the next
    /// batches handed over rather than a list grown anew each burst, and emptied batches to
    /// give back when the app's thread has used up the last ones: swaps, so the lock is held
    /// no longer for them.
    private func takePending(
        markingIdle: Bool, listStorage: inout [StreamBatch], spares: inout [StreamBatch]
    ) -> [StreamBatch] {
        pending.withLock { pending in
            if markingIdle, pending.batches.isEmpty { pending.isScheduled = false }
            if pending.spares.isEmpty { swap(&pending.spares, &spares) }
            var taken: [StreamBatch] = []
            swap(&taken, &listStorage)
            swap(&taken, &pending.batches)
            return taken
        }
    }

    /// The batches handed over and not taken yet, for a thread that keeps none to give back.
    private func takePending() -> [StreamBatch] {
        var none: [StreamBatch] = []
        var noSpares: [StreamBatch] = []
        return takePending(markingIdle: false, listStorage: &none, spares: &noSpares)
    }

    /// Emptied batches kept for the app's thread at most, and the most records and events one
    /// may have room for: a big first read's batch is freed rather than kept.
    static let spareLimit = 64
    static let spareCapacity = 2_048

    /// Encodes and writes `batches`; the bytes wait for the file when it is still being
    /// created.
    private func write(_ batches: [StreamBatch], in encoding: inout StreamEncoding) {
        guard !batches.isEmpty, currentFault == nil else { return }
        encoding.lines.reserveCapacity(Self.burstLimit)
        for batch in batches {
            encoding.encoder.encode(batch, into: &encoding.lines) { lines, events in
                flush(&lines)
                writeOut(events, checkingReplacement: false)
            }
            if encoding.lines.bytes.count >= Self.burstLimit { flush(&encoding.lines) }
        }
        flush(&encoding.lines)
    }

    /// Writes the bytes built so far and empties them.
    private func flush(_ lines: inout TraceLines) {
        writeOut(lines.bytes, checkingReplacement: true)
        lines.removeAll()
    }

    /// Writes `bytes` unless writing has stopped; a failure becomes the fault, and so does the
    /// file being removed or replaced, when `checkingReplacement` (a system call, so once per
    /// burst rather than per piece of one).
    private func writeOut(_ bytes: borrowing ByteBuffer, checkingReplacement: Bool) {
        guard !bytes.isEmpty, currentFault == nil else { return }
        switch file.opened() {
        case .success(let opened)?:
            if let reason = opened.write(bytes) ?? (checkingReplacement ? opened.replacedReason(path) : nil) {
                keep(RecorderFault(path: path, reason: reason))
            }
        case .failure(let fault)?: keep(fault)
        case nil: break
        }
    }

    /// Keeps `fault` as what stopped writing, unless something already had.
    private func keep(_ fault: RecorderFault) {
        self.fault.withLock { $0 = $0 ?? fault }
        hasFault.store(true, ordering: .releasing)
    }

    /// Returns once everything handed over so far is written (or failed): the calling thread
    /// writes what the writer's has not taken, after whatever that thread is writing now,
    /// rather than wait for it to wake and come for it.
    func drain() {
        encoding.withLock { write(takePending(), in: &$0) }
    }

    /// Writes what is left and `last` on the caller's thread, once the writer's is done with
    /// what it took: a stream's end would otherwise pay a wake-up and a hand-back on top of its
    /// final records, or wait for a writer's thread not yet woken. The file is complete when
    /// this returns.
    func close(after last: StreamBatch? = nil) {
        let (graphSize, closing) = encoding.withLock { encoding in
            var batches = takePending()
            if let last { batches.append(last) }
            write(batches, in: &encoding)
            return (encoding.encoder.graphSize, file.takeForClosing())
        }
        // A writer's thread between looks sees this at its next one, at most
        // `lingeringInterval` on: waking it sooner was a system call on the app's thread.
        isClosed.store(true, ordering: .releasing)
        // A big graph the writer kept (a lattice's is thousands of states) and its buffer are
        // freed on its own thread, after the stream has ended: freed by the app's thread as the
        // stream went, when each state still had arrays of its own, they had cost it a large
        // part of a lattice run (a `PackedGraph` is a few arrays, but its buffer is not). The
        // descriptor goes with them, or whenever that thread is still about, since closing a
        // file costs ext4 time and, for one that was truncated, writing its data out. A small
        // graph, with no thread about, costs less to free here than waking one would.
        let writerIsAbout = writesInBackground && pending.withLock { $0.isScheduled }
        guard graphSize > Self.graphFreedHere || writerIsAbout else {
            closing?.close()
            return
        }
        queue.async { [self] in
            closing?.close()
            guard graphSize > Self.graphFreedHere else { return }
            encoding.withLock { encoding in
                encoding.encoder = StreamEncoder(from: GraphSnapshot())
                encoding.lines = TraceLines(capacity: 0)
            }
        }
    }
}

/// What the app's thread hands the writer's and what it gets back, under one lock: the batches
/// not taken yet, whether the writer's thread has been asked to come for them (one wake-up
/// serves every batch that arrives meanwhile), since when the backlog has been long enough to
/// watch, and emptied batches to fill again.
private struct PendingBatches {
    var batches: [StreamBatch] = []
    var isScheduled = false
    var since: ContinuousClock.Instant?
    var spares: [StreamBatch] = []
}

/// The writer's side of the stream and the bytes it is building, kept together under one lock.
private struct StreamEncoding: ~Copyable {
    var encoder: StreamEncoder
    /// Given as much room as a burst may fill on the writer's thread, before the first records:
    /// a stream that starts with a big graph would otherwise copy its first megabyte five times
    /// over while the buffer doubles, and the app's thread need not wait for the memory.
    var lines = TraceLines(capacity: 0)
}
