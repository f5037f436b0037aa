/// What an async selector returns: the work that produces its value away from the selector.
///
/// The selector runs synchronously and tracked, reading every dependency first; the work runs
/// afterwards and may suspend. `.run` produces one value, `.stream` publishes each element.
///
/// ```swift
/// return .run { @concurrent in
///     try await weatherService.forecast(for: zip)
/// }
/// ```
public struct Work<Value> {
    let body: WorkBody<Value>

    /// One value: the result of `operation`, or its error as a failure.
    public static func run(_ operation: @escaping () async throws -> Value) -> Work {
        Work(body: .run(operation))
    }

    /// A sequence of values: each element publishes a success (equal elements publish nothing),
    /// natural end publishes nothing, and an error publishes a failure that keeps the last value.
    /// Streams take only the `.latest` policy.
    public static func stream<Elements: AsyncSequence>(
        _ makeElements: @escaping () -> Elements
    ) -> Work where Elements.Element == Value {
        Work(
            body: .stream { sink in
                for try await element in makeElements() {
                    sink.accept(element)
                }
            })
    }
}

extension Work {
    /// A sequence already made: each element publishes a success, as `stream { elements }` does.
    public static func stream<Elements: AsyncSequence>(_ elements: Elements) -> Work where Elements.Element == Value {
        stream { elements }
    }
}

/// The work an ordered policy (`.queue`, `.exhaustLatest`, `.merged`) accepts: one value only,
/// because a queued infinite stream would block its queue forever.
public struct RunWork<Value> {
    let body: WorkBody<Value>

    /// One value: the result of `operation`, or its error as a failure.
    public static func run(_ operation: @escaping () async throws -> Value) -> RunWork {
        RunWork(body: .run(operation))
    }
}

/// The runtime's form of both kinds of work.
@usableFromInline
enum WorkBody<Value> {
    case run(() async throws -> Value)
    case stream((ElementSink<Value>) async throws -> Void)
}

/// Where a running stream hands its elements to the runtime, on the MainActor.
@usableFromInline
final class ElementSink<Value> {
    let accept: (Value) -> Void

    init(accept: @escaping (Value) -> Void) {
        self.accept = accept
    }

    func accept(_ element: Value) {
        accept(element)
    }
}
