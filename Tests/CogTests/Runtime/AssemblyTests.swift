import Cog
import CogTesting
import Testing

private let _themeCog = Cog<String>.Manual(name: "theme") { "light" }
private let _launchCountCog = Cog<Int>.Manual(name: "launchCount") { 0 }
private let themeLengthCog = Cog<Int>(name: "themeLength") { c in c[_themeCog].count }

extension CogOps {
    fileprivate func applyTheme(_ theme: String) {
        turn(_themeCog, to: theme)
    }

    fileprivate func recordLaunch() {
        turn { c in c[_launchCountCog] += 1 }
    }
}

extension CogSeeder {
    fileprivate func seedTheme(_ theme: String) {
        seed(_themeCog, to: theme)
    }
}

private struct ThemeMechanism: Mechanism {
    let theme: String

    func operate(_ m: MechanismController) {
        m.applyTheme(theme)
    }
}

private struct LaunchCounterMechanism: Mechanism {
    func operate(_ m: MechanismController) {
        let theme = m.peek(_themeCog)
        if theme == "dark" { m.recordLaunch() }
    }
}

private struct Plain: Mechanism {
    func operate(_ m: MechanismController) {}
}

@Suite("Assembly and seeding")
struct AssemblyTests {
    @Test func mechanismsRunInArrayOrderAndTheirWritesFinishBeforeReturn() {
        let cogs = Cogs.forTesting(mechanisms: [ThemeMechanism(theme: "dark"), LaunchCounterMechanism()])
        #expect(cogs.peek(_themeCog) == "dark")
        #expect(cogs.peek(_launchCountCog) == 1)
    }

    @Test func assemblyTurnsCarryTheAssemblyOrigin() {
        let cogs = Cogs.forTesting()
        let log = EventLog.attached(to: cogs)
        cogs.start([ThemeMechanism(theme: "dark")])
        cogs.applyTheme("sepia")
        #expect(
            log.lines(startingWith: "register", "turn") == [
                "register Theme mechanism", "turn 1 Theme.applyTheme(_:) assembly", "turn 2 applyTheme(_:) op",
            ])
    }

    @Test func mechanismNamesDefaultToTheTypeNameWithoutTheSuffix() {
        #expect(ThemeMechanism(theme: "x").name == "Theme")
        #expect(LaunchCounterMechanism().name == "LaunchCounter")
        #expect(Plain().name == "Plain")
    }

    @Test func twoMechanismsWithOneNameFail() {
        let cogs = Cogs.forTesting()
        let diagnostics = cogs.collectingDiagnostics {
            cogs.start([ThemeMechanism(theme: "a"), ThemeMechanism(theme: "b")])
        }
        #expect(
            diagnostics.map(\.message) == [
                "Two mechanisms in one assembly list are both named \"Theme\"; give one an explicit `name`"
            ])
        #expect(cogs.peek(_themeCog) == "a")
    }

    @Test func seedingPlacesValuesWithNoTurnNoticeOrReaction() {
        let cogs = Cogs.forTesting(seeding: { $0.seedTheme("solarized") })
        #expect(cogs.peek(_themeCog) == "solarized")
        #expect(cogs.peek(themeLengthCog) == 9)

        let spy = ObservationSpy { _ = cogs[themeLengthCog] }
        let log = EventLog.attached(to: cogs)
        CogSeeder(cogs: cogs).seedTheme("dark")
        #expect(log.lines.count == 1)
        #expect(log.lines.first?.hasPrefix("seed ") == true)
        #expect(spy.changes == 0)
        #expect(cogs.peek(themeLengthCog) == 4)
    }

    @Test func seedingRunsBeforeMechanismsStart() {
        let cogs = Cogs.forTesting(seeding: { $0.seedTheme("dark") }, mechanisms: [LaunchCounterMechanism()])
        #expect(cogs.peek(_launchCountCog) == 1)
    }

    @Test func assembleRunsTheRealAssemblyOnceInAScopedFixture() {
        withAssembledCogs(mechanisms: [ThemeMechanism(theme: "dark")]) { cogs in
            #expect(cogs.peek(_themeCog) == "dark")
        }
        withAssembledCogs { cogs in
            #expect(cogs.peek(_themeCog) == "light")
        }
    }

    @Test func twoMechanismsWithOneNameTrapNamingItInProduction() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            await MainActor.run {
                _ = Cogs.forTesting(mechanisms: [ThemeMechanism(theme: "a"), ThemeMechanism(theme: "b")])
            }
        }
        let text = result.standardErrorText
        #expect(text.contains("Two mechanisms in one assembly list are both named \"Theme\""), "stderr was: \(text)")
        #expect(text.contains("explicit `name`"), "stderr was: \(text)")
    }

    @Test func aSecondAssemblyTrapsInEveryBuild() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            await MainActor.run {
                _ = Cogs.assemble()
                _ = Cogs.assemble()
            }
        }
        #expect(result.standardErrorText.contains("Cog is already assembled"))
        #expect(result.standardErrorText.contains("Cogs.forTesting(seeding:mechanisms:)"))
    }
}

@Suite("Assembly as tests see it")
struct AssemblyIdentityTests {
    @Test func theAssembledRuntimeIsKnownOnlyWhileInstalled() {
        #expect(!Cogs.hasAssembledCogs)
        var wasTheOne = false
        var slotTaken = false
        var aTestRuntimeIsNot = true
        Cogs.withAssembledCogs { cogs in
            wasTheOne = Cogs.isAssembledCogs(cogs)
            slotTaken = Cogs.hasAssembledCogs
            aTestRuntimeIsNot = !Cogs.isAssembledCogs(Cogs.forTesting())
        }
        #expect(wasTheOne && slotTaken && aTestRuntimeIsNot)
        #expect(!Cogs.hasAssembledCogs, "the slot is free again")
    }
}
