import Foundation
import Testing

/// A real full disk: a 64 KiB tmpfs, filled, under the writers of both executables. Each must
/// say the disk is full, exit 73 and leave the file that was there as it was (a write goes into
/// a new file beside it first, and only a complete one is renamed over it).
@Suite("Writing to a full disk", .serialized)
struct FullDiskTests {
    /// A small volume mounted for the suite, or nil where this process may not mount (not root,
    /// or no mount namespace permission): the suite is then skipped, which CI's log lists.
    private static let volume: URL? = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("full-disk-\(getpid())")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        guard run("/bin/mount", ["-t", "tmpfs", "-o", "size=64k,mode=0777", "tmpfs", folder.path]) else {
            try? FileManager.default.removeItem(at: folder)
            return nil
        }
        return folder
    }()

    private static func run(_ program: String, _ arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    /// Fills what `folder`'s volume has left with one file, written until the system says no.
    private func fill(_ folder: URL) throws {
        let descriptor = open(folder.appendingPathComponent("filler").path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let block = [UInt8](repeating: 0x2E, count: 4_096)
        var failure: Int32 = 0
        while failure == 0 {
            let written = block.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 { failure = errno } else if written < block.count { continue }
        }
        try #require(failure == ENOSPC, "filling the volume stopped with errno \(failure)")
    }

    @Test(.enabled(if: volume != nil, "needs to mount a 64 KiB tmpfs (root)"))
    func everyWriterSaysTheDiskIsFullAndLeavesTheOldFile() throws {
        let folder = try #require(Self.volume)
        defer {
            _ = Self.run("/bin/umount", [folder.path])
            try? FileManager.default.removeItem(at: folder)
        }
        let trace = folder.appendingPathComponent("tour.cogtrace")
        let page = folder.appendingPathComponent("tour.html")
        try Data("old trace".utf8).write(to: trace)
        try Data("old page".utf8).write(to: page)
        try fill(folder)

        let weather = Executables.productsDirectory.appendingPathComponent("weather")
        let record = try Executables.run(weather, ["record", "tour", "-o", trace.path])
        #expect(record.status == 73, "\(record.standardError)")
        #expect(record.standardError.contains("the disk is full"), "\(record.standardError)")
        let all = try Executables.run(weather, ["record", "--all", "-d", folder.path])
        #expect(all.status == 73, "\(all.standardError)")
        let export = try Executables.coginspect(["-c", "export html --to \(page.path) --force"])
        #expect(export.status == 73, "\(export.standardError)")
        #expect(export.standardError.contains("the disk is full; nothing was written"), "\(export.standardError)")
        let dot = try Executables.coginspect(["-c", "export dot --to \(folder.path)/new.dot"])
        #expect(dot.status == 73 && dot.standardError.contains("the disk is full"), "\(dot.standardError)")

        #expect(try String(contentsOf: trace, encoding: .utf8) == "old trace")
        #expect(try String(contentsOf: page, encoding: .utf8) == "old page")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(names == ["filler", "tour.cogtrace", "tour.html"], "no partial file is left")
    }
}
