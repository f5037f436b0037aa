import Dispatch
import Foundation
import Synchronization
import Testing

@testable import CogTrace
@testable import CogTraceFormat

/// The file a stream shares between the writer's thread and the app's: created once, whoever
/// asks first, and never created by closing.
@Suite("Stream file")
struct StreamFileTests {
    /// A new folder for one test's file, and the file's path in it; the test removes the folder.
    private func scratchPath(_ name: String) -> (folder: URL, path: String) {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("stream-file-tests-\(UUID().uuidString)", isDirectory: true)
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return (folder, folder.appendingPathComponent(name, isDirectory: false).path)
    }

    /// How many descriptors the process holds open on `path` (other tests' files are not
    /// counted, so tests running beside this one do not change the answer).
    private func descriptorCount(on path: String) -> Int {
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return descriptors.count { descriptor in
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + descriptor)) == resolved
        }
    }

    private func write(_ text: StaticString, to file: OpenedTrace) -> String? {
        var bytes = ByteBuffer()
        bytes.append(text)
        return file.write(bytes)
    }

    @Test func threadsAskingAtOnceShareOneCreation() throws {
        let (folder, path) = scratchPath("shared.cogtrace")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = StreamFile(path: path)
        let answers = Mutex<[Bool]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            let isOpen = if case .success? = file.opened() { true } else { false }
            answers.withLock { $0.append(isOpen) }
        }
        #expect(answers.withLock { $0 } == Array(repeating: true, count: 8))
        // One creation: one descriptor on the file, whichever thread made it.
        #expect(descriptorCount(on: path) == 1)
        guard case .success(let opened)? = file.opened() else {
            Issue.record("the file did not open")
            return
        }
        #expect(write("abc", to: opened) == nil)
        #expect(write("def", to: opened) == nil)
        file.takeForClosing()?.close()
        #expect(descriptorCount(on: path) == 0)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "abcdef")
        #expect(file.opened() == nil, "a closed file is no one's to write")
    }

    @Test func closingAFileNeverOpenedCreatesNothing() {
        let (folder, path) = scratchPath("never.cogtrace")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = StreamFile(path: path)
        #expect(file.takeForClosing() == nil)
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(file.opened() == nil)
    }

    @Test func aFailedCreationIsEveryCallersAnswer() {
        let file = StreamFile(path: "/nonexistent-folder-\(getpid())/trace.cogtrace")
        for _ in 0..<2 {
            guard case .failure(let fault)? = file.opened() else {
                Issue.record("a file in a missing folder opened")
                return
            }
            #expect(fault.description.contains("No such file or directory"))
        }
        #expect(file.takeForClosing() == nil)
    }

    /// Re-running a test rewrites its trace while an inspector may hold the last one open: the
    /// old file keeps its bytes (a reader never faults past a new end), the path names a new one.
    @Test func anExistingTraceIsReplacedNotEmptied() throws {
        let (folder, path) = scratchPath("rerun.cogtrace")
        defer { try? FileManager.default.removeItem(at: folder) }
        let previous = Array("{\"previous\":true}\n".utf8)
        #expect(FileManager.default.createFile(atPath: path, contents: Data(previous)))
        let reader = open(path, O_RDONLY)
        #expect(reader >= 0)
        defer { close(reader) }
        let file = try OpenedTrace.open(path).get()
        #expect(write("{\"next\":true}\n", to: file) == nil)
        file.close()
        var held = stat()
        #expect(fstat(reader, &held) == 0)
        #expect(Int(held.st_size) == previous.count)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "{\"next\":true}\n")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(leftovers == ["rerun.cogtrace"])
    }
}
