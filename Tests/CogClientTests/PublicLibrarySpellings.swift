import Cog
import CogTesting
import Testing

// Declarations spelled as the public Cog library spells them: closure first, labels after.

struct TrailScreenID: Hashable, Sendable {
    let raw: Int
}

let draftNoteCogs = CogBox<String, TrailScreenID>.Manual({ "" }, lifetime: .whileObserved(resetToInitial: true))
let visitCountCog = Cog<Int>.Manual({ 0 }, equals: { $0 == $1 }, lifetime: .app, name: "spelling.visits")
let visitLabelCog = Cog<String>({ c in "visited \(c[visitCountCog]) times" }, name: "spelling.label")
let noteLengthCogs = CogBox<Int, TrailScreenID>({ c, id in c[draftNoteCogs[id]].count }, name: "spelling.length")
let trailTitleCogs = CogBox<String, TrailScreenID>.Manual({ id in "trail \(id.raw)" }, name: "spelling.title")

/// A value that is not `Equatable`: every write of it is a change.
struct Opaque {
    let token: Int
}

let opaqueCog = Cog<Opaque>.Manual({ Opaque(token: 0) }, name: "spelling.opaque")
let opaqueTokenCog = Cog<Int>({ c in c[opaqueCog].token }, name: "spelling.opaqueToken")
let legacyAsyncCog = AsyncCog<Int>(default: 0, name: "spelling.legacyAsync") { _ in .run { 42 } }

extension CogOps {
    func visit(_ id: TrailScreenID, note: String) {
        turn("visit") { w in
            w[visitCountCog] += 1
            w[draftNoteCogs[id]] = note
        }
    }
}

@Suite("The public library's spellings")
struct PublicLibrarySpellingsTests {
    @Test @MainActor func closureFirstDeclarationsBehaveLikeLabelsFirstOnes() {
        let cogs = Cogs.forTesting(clock: TestClock(), whileObservedGrace: .seconds(5), seeding: { _ in })
        let trail = TrailScreenID(raw: 7)
        #expect(cogs[visitLabelCog] == "visited 0 times")
        #expect(cogs[trailTitleCogs[trail]] == "trail 7")
        cogs.visit(trail, note: "muddy")
        #expect(cogs[visitLabelCog] == "visited 1 times")
        #expect(cogs[noteLengthCogs[trail]] == 5)
        #expect(cogs.peek(opaqueTokenCog) == 0)
    }

    @Test @MainActor func anOlderTypeAliasNamesTheSameDeclaration() async {
        let cogs = Cogs.forTesting()
        #expect(cogs.peek(legacyAsyncCog) == 0)
        let refresh = cogs.refresh(legacyAsyncCog)
        _ = await refresh.outcome
        #expect(cogs.peek(legacyAsyncCog) == 42)
    }
}
