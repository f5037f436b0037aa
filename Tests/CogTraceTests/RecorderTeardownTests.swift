import Cog
import Foundation
import Testing

@testable import CogTrace

/// Dropping a recorder lets go of every declaration description it held: at once for a small
/// state table, on a background queue for a big one, and in neither case kept alive.
@Suite("Recorder teardown", .timeLimit(.minutes(5)))
@MainActor
struct RecorderTeardownTests {
    /// A recorder told of `count` states, each of a declaration of its own, and weak references
    /// to those declarations' descriptions.
    private func recorder(withStates count: Int) -> (CogRecorder, [WeakDeclaration]) {
        let recorder = CogRecorder()
        var declarations: [WeakDeclaration] = []
        for index in 1...count {
            let declaration = CogDeclarationInfo(
                label: "lattice.\(index)", shape: .automatic, valueType: "Int", lifetime: "app", policy: nil)
            declarations.append(WeakDeclaration(declaration))
            var value = index
            recorder.recordStateCreated(
                CogStateInfo(id: CogStateID(index), declarationInfo: declaration, key: nil), value: &value)
        }
        return (recorder, declarations)
    }

    @Test func aSmallTableIsReleasedWithTheRecorder() {
        var (recorder, declarations): (CogRecorder?, [WeakDeclaration]) = recorder(
            withStates: CogRecorder.stateTableReleasedHere)
        #expect(declarations.allSatisfy { $0.isAlive })
        #expect(recorder?.stateInfos.count == CogRecorder.stateTableReleasedHere)
        recorder = nil
        #expect(declarations.allSatisfy { !$0.isAlive })
    }

    @Test func aBigTableIsReleasedSoonAfterTheRecorder() async throws {
        var (recorder, declarations): (CogRecorder?, [WeakDeclaration]) = recorder(
            withStates: CogRecorder.stateTableReleasedHere + 1)
        #expect(declarations.allSatisfy { $0.isAlive })
        recorder = nil
        let deadline = ContinuousClock.now + .seconds(10)
        while declarations.contains(where: { $0.isAlive }), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(declarations.allSatisfy { !$0.isAlive })
        _ = recorder
    }
}

/// A declaration description held weakly, to see when the last holder lets it go.
private final class WeakDeclaration {
    weak var declaration: CogDeclarationInfo?

    init(_ declaration: CogDeclarationInfo) {
        self.declaration = declaration
    }

    var isAlive: Bool { declaration != nil }
}
