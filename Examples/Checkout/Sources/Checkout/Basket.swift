import Cog

/// How many of each item (by SKU) the basket holds: one keyed source, zero for every SKU.
private let _quantityCogs = CogBox<Int, String>.Manual(name: "basket.quantity") { 0 }
/// The SKUs in the basket, in the order they were first added.
private let _skusCog = Cog<[String]>.Manual(name: "basket.skus") { [] }
/// A discount code, if one was entered.
private let _discountCodeCog = Cog<String?>.Manual(name: "basket.discountCode") { nil }

/// What the rest of the app reads.
public let quantityCogs = _quantityCogs.readOnly
public let skusCog = _skusCog.readOnly
public let discountCodeCog = _discountCodeCog.readOnly

/// The price of each SKU, in cents.
public let catalogue: [String: Int] = ["mug": 1_500, "tea": 800, "pot": 4_200]

/// One line of the basket, as a receipt prints it. It is `Codable`, so a trace keeps its
/// fields and the inspector shows them one per line.
public struct LineItem: Codable, Equatable, Sendable {
    public let sku: String
    public let quantity: Int
    public let unitCents: Int
}

/// The basket's lines, in the order their SKUs were first added.
public let linesCog = Cog<[LineItem]>(name: "basket.lines") { c in
    c[skusCog].map { LineItem(sku: $0, quantity: c[quantityCogs[$0]], unitCents: catalogue[$0] ?? 0) }
}

/// The basket's subtotal in cents, before any discount.
public let subtotalCentsCog = Cog<Int>(name: "basket.subtotalCents") { c in
    c[linesCog].reduce(0) { total, line in total + line.quantity * line.unitCents }
}

/// The discount in cents: `TEN` takes 10% off a subtotal of at least 20.00.
public let discountCentsCog = Cog<Int>(name: "basket.discountCents") { c in
    let subtotal = c[subtotalCentsCog]
    guard c[discountCodeCog] == "TEN", subtotal >= 2_000 else { return 0 }
    return subtotal / 10
}

/// What the customer pays.
public let totalCentsCog = Cog<Int>(name: "basket.totalCents") { c in
    c[subtotalCentsCog] - c[discountCentsCog]
}

extension CogOps {
    /// Adds `count` of `sku` to the basket.
    public func add(_ sku: String, count: Int = 1) {
        turn("add \(sku)") { w in
            if !w[_skusCog].contains(sku) { w[_skusCog].append(sku) }
            w[_quantityCogs[sku]] += count
        }
    }

    /// Enters a discount code.
    public func enterDiscountCode(_ code: String) {
        turn(_discountCodeCog, to: code)
    }
}
