import Foundation
import Testing

/// A client's `Encodable` value (an array of structs) reads as a structure: `get` prints a field
/// per line, `--description` the one-line Swift description, and `history STATE.FIELD` only the
/// turns where that field changed.
@Suite("Structured values")
struct StructuredValueTests {
    static let trace = "Tests/coginspectTests/Fixtures/ShopTests.theOrderButtonEnables.cogtrace"

    @Test func getPrintsOneFieldPerLine() throws {
        let outcome = try Executables.coginspect([Self.trace, "-c", "get shop.basket.lineItems"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(
            outcome.standardOutput == """
                state:   shop.basket.lineItems
                value:   2 items
                  [0]:
                    sku:        "mug"
                    name:       "Stoneware mug"
                    priceCents: 1500
                    quantity:   2
                  [1]:
                    sku:        "tea"
                    name:       "Breakfast tea"
                    priceCents: 800
                    quantity:   1
                shape:   manual
                version: 3
                settle:  clean

                """)
    }

    @Test func aFieldThatIsAStructureIsATreeToo() throws {
        let outcome = try Executables.coginspect([Self.trace, "-c", "get shop.basket.lineItems[1]"])
        #expect(
            outcome.standardOutput.contains("value: 4 fields\n  sku:        \"tea\"\n"), "\(outcome.standardOutput)")
    }

    @Test func theDescriptionOnRequest() throws {
        let outcome = try Executables.coginspect([Self.trace, "-c", "get shop.basket.lineItems --description"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(
            outcome.standardOutput.contains(
                #"value:   [Shop.LineItem(sku: "mug", name: "Stoneware mug", priceCents: 1500, quantity: 2), "#),
            "\(outcome.standardOutput)")
        #expect(!outcome.standardOutput.contains("[0]:"))
    }

    /// JSON keeps the value's shape whether text shows a tree or not: a program reads the
    /// fields from `json`.
    @Test func jsonIsTheSameEitherWay() throws {
        let outcome = try Executables.coginspect([Self.trace, "--json", "-c", "get shop.basket.lineItems"])
        #expect(
            outcome.standardOutput.contains(
                #""json":[{"sku":"mug","name":"Stoneware mug","priceCents":1500,"quantity":2},"#))
    }

    /// Turn 4 adds a second line item and leaves the first one's quantity alone: it is not listed.
    @Test func historyOfAFieldListsOnlyTheTurnsThatChangedIt() throws {
        let outcome = try Executables.coginspect([
            Self.trace, "--json", "-c", "history shop.basket.lineItems[0].quantity",
        ])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let turns = try Self.turns(in: outcome.standardOutput)
        #expect(turns == [1, 2, 3], "\(outcome.standardOutput)")
        let all = try Self.turns(
            in: try Executables.coginspect([Self.trace, "--json", "-c", "history shop.basket.lineItems"]).standardOutput
        )
        #expect(all == [1, 2, 3, 4])
    }

    /// The turn numbers of a `history` document's rows.
    static func turns(in document: String) throws -> [Int] {
        let object = try JSONSerialization.jsonObject(with: Data(document.utf8)) as? [String: Any]
        let table = (object?["result"] as? [[String: Any]])?.first
        let rows = table?["rows"] as? [[String: Any]] ?? []
        return rows.compactMap { ($0["turn"] as? [String: Any])?["turn"] as? Int }
    }
}
