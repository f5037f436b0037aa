/// Builds `.cogtrace` text: one JSON record per line.
struct TraceLines {
    private(set) var text = ""

    mutating func append(_ record: JSONValue) {
        record.write(to: &text)
        text += "\n"
    }

    mutating func removeAll() {
        text.removeAll(keepingCapacity: true)
    }
}
