import CogTesting
import Testing

@testable import Cog

/// What a probe learns of a declaration is made once: naming its value type takes reflection,
/// which a traced runtime used to pay for every state it made, and every runtime again.
@Suite("Declaration info")
struct DeclarationInfoTests {
    private func createdInfo(_ log: EventLog, label: String) -> CogDeclarationInfo? {
        for event in log.events {
            if case .stateCreated(let info, _) = event, info.label == label { return info.declarationInfo }
        }
        return nil
    }

    @Test func everyStateAndRuntimeOfADeclarationSharesOneInfo() throws {
        let rows = CogBox<Int, Int>(name: "info.row") { _, key in key }
        let total = Cog<Int>(name: "info.total") { c in c[rows[1]] + c[rows[2]] }
        let first = Cogs.forTesting()
        let firstLog = EventLog.attached(to: first)
        #expect(first.peek(total) == 3)
        let second = Cogs.forTesting()
        let secondLog = EventLog.attached(to: second)
        #expect(second.peek(total) == 3)

        let row1 = try #require(createdInfo(firstLog, label: "info.row[1]"))
        let row2 = try #require(createdInfo(firstLog, label: "info.row[2]"))
        let again = try #require(createdInfo(secondLog, label: "info.row[1]"))
        #expect(row1 === row2)
        #expect(row1 === again)
        #expect(row1.valueType == "Int")
        #expect(row1.lifetime == "whileObserved(30.0 seconds)")
        let totalInfo = try #require(createdInfo(firstLog, label: "info.total"))
        #expect(createdInfo(secondLog, label: "info.total") === totalInfo)
    }

    @Test func aRuntimeOfAnotherGraceGetsInfoOfItsOwn() throws {
        let reading = Cog<Double>(name: "info.reading") { _ in 1.5 }
        let usual = Cogs.forTesting()
        let usualLog = EventLog.attached(to: usual)
        _ = usual.peek(reading)
        let brief = Cogs.forTesting(whileObservedGrace: .seconds(2))
        let briefLog = EventLog.attached(to: brief)
        _ = brief.peek(reading)

        let usualInfo = try #require(createdInfo(usualLog, label: "info.reading"))
        let briefInfo = try #require(createdInfo(briefLog, label: "info.reading"))
        #expect(usualInfo.lifetime == "whileObserved(30.0 seconds)")
        #expect(briefInfo.lifetime == "whileObserved(2.0 seconds)")
        #expect(briefInfo.valueType == "Double")
    }
}
