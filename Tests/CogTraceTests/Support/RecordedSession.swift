import Cog
import CogTesting
import CogTrace

/// A small app exercising every kind of event the recorder sees: sources, automatic and keyed
/// states, an async state with controlled work, a mechanism with a watch and a scope, UI pins,
/// an export, a discard and a grace expiry.
struct Quote: Codable, Equatable, Sendable {
    var symbol: String
    var price: Int
}

private let _symbolCog = Cog<String>.Manual(name: "market.symbol") { "ACME" }
private let _sharesCogs = CogBox<Int, String>.Manual(name: "market.shares") { _ in 0 }
private let _noteCog = Cog<String>.Manual(name: "market.note", lifetime: .whileObserved(resetToInitial: true)) { "" }
private let _secretCog = Cog<String>.Manual(name: "auth.token") { "s3cret" }

let symbolCog = _symbolCog.readOnly
let sharesCogs = _sharesCogs.readOnly

let quoteCogs = CogBox<Quote?, String>.Async(default: nil, name: "market.quote") { _, symbol in
    SessionFixtures.work.run()
}
let positionCog = Cog<Int>(name: "market.position") { c in
    let symbol = c[symbolCog]
    let shares = c[sharesCogs[symbol]]
    let quote = c[quoteCogs[symbol]]
    return shares * (quote?.price ?? 0)
}
let isRichCog = Cog<Bool>(name: "market.isRich") { c in c[positionCog] > 1_000 }

/// Per-session controlled work; sessions run one at a time in these tests.
@MainActor
enum SessionFixtures {
    static var work = ControlledWork<Quote?>()
}

extension CogOps {
    func select(_ symbol: String) { turn(_symbolCog, to: symbol) }
    func buy(_ count: Int, of symbol: String) { turn { c in c[_sharesCogs[symbol]] += count } }
    func note(_ text: String) { turn(_noteCog, to: text) }
    func forgetNote() { discard(_noteCog) }
    func readNote() -> String { peek(_noteCog) }
    func rotateToken() { turn(_secretCog, to: "n3w-secret") }
}

struct MarketMechanism: Mechanism {
    func operate(_ m: MechanismController) {
        m.buy(10, of: "ACME")
        m.watch(isRichCog, name: "richAlert") { _, _ in }
        m.scope(isRichCog, name: "celebrate") { s in
            s.run(name: "position") { c in _ = c[positionCog] }
        }
    }
}

/// Runs the scripted session against `cogs` (already recording) and returns when it is done.
@MainActor
func runMarketSession(_ cogs: Cogs, clock: TestClock) async {
    let work = SessionFixtures.work
    _ = cogs[isRichCog]
    _ = cogs.status[quoteCogs["ACME"]].isLoading
    await work.nextStart().succeed(Quote(symbol: "ACME", price: 120))
    cogs.buy(5, of: "ACME")
    let values = cogs.values(of: positionCog)
    cogs.select("INIT")
    await work.nextStart().succeed(Quote(symbol: "INIT", price: 3))
    cogs.select("ACME")
    cogs.refresh(quoteCogs["ACME"])
    await work.nextStart().succeed(Quote(symbol: "ACME", price: 120))
    cogs.note("remember")
    _ = cogs.readNote()
    cogs.forgetNote()
    cogs.rotateToken()
    _ = cogs.peek(_secretCog)
    clock.advance(by: .seconds(5))
    cogs.expireGrace()
    _ = values
}
