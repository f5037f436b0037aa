import Foundation
import Testing

@testable import CogTraceStore

/// The package's one way to write a file: never through a link, never into a directory or a
/// device, an existing file only when asked, and always whole (beside, flushed, renamed).
@Suite("Writing a file safely")
struct SafeFileTests {
    private func scratch() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("safefile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func aLinkADirectoryAndADeviceAreRefusedAndNothingIsLeft() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("target")
        try Data("keep".utf8).write(to: target)
        let link = folder.appendingPathComponent("link")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        #expect(throws: FileWriteError(path: link.path, reason: .symbolicLink)) {
            try SafeFile.write(Array("new".utf8), to: link.path, replacing: true)
        }
        #expect(throws: FileWriteError(path: folder.path, reason: .directory)) {
            try SafeFile.write([], to: folder.path, replacing: true)
        }
        #expect(throws: FileWriteError(path: "/dev/null", reason: .notRegularFile)) {
            try SafeFile.write([], to: "/dev/null", replacing: true)
        }
        #expect(throws: FileWriteError(path: target.path, reason: .exists)) {
            try SafeFile.write([], to: target.path, replacing: false)
        }
        #expect(try String(contentsOf: target, encoding: .utf8) == "keep")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["link", "target"])
    }

    @Test func aReplacedFileIsANewFileRenamedOverTheOld() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("f")
        try SafeFile.write(Array("one".utf8), to: file.path, replacing: false)
        var before = stat()
        stat(file.path, &before)
        try SafeFile.write(Array("two".utf8), to: file.path, replacing: true)
        var after = stat()
        stat(file.path, &after)
        #expect(before.st_ino != after.st_ino, "the old file was never written into")
        #expect(try String(contentsOf: file, encoding: .utf8) == "two")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["f"])
    }

    @Test func aMissingFolderAndAFullDiskSaySo() {
        #expect(
            throws: FileWriteError(
                path: "/nonexistent/f", reason: .system("its folder is missing or may not be written"))
        ) {
            try SafeFile.write([], to: "/nonexistent/f", replacing: true)
        }
        let full = FileWriteError(path: "out.html", code: ENOSPC)
        #expect(full.reason == .diskFull)
        #expect(full.description == "cannot write 'out.html': the disk is full; nothing was written")
        #expect(FileWriteError(path: "q", code: EDQUOT).reason == .diskFull)
    }
}
