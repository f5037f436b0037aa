import Cog

/// The bill before the tip, in cents: a source only this file's ops write.
private let _billCentsCog = Cog<Int>.Manual(name: "tipJar.billCents") { 0 }
/// The tip as a percentage of the bill.
private let _tipPercentCog = Cog<Int>.Manual(name: "tipJar.tipPercent") { 15 }

/// What the rest of the app reads.
public let billCentsCog = _billCentsCog.readOnly
public let tipPercentCog = _tipPercentCog.readOnly

/// The tip in cents, rounded to the nearest cent.
public let tipCentsCog = Cog<Int>(name: "tipJar.tipCents") { c in
    let billCents = c[billCentsCog]
    let tipPercent = c[tipPercentCog]
    return roundedToCent(billCents * tipPercent)
}

/// Hundredths of a cent to the nearest cent, half a cent rounding up.
private func roundedToCent(_ hundredths: Int) -> Int {
    (hundredths + 50) / 100
}

/// The bill and the tip together.
public let totalCentsCog = Cog<Int>(name: "tipJar.totalCents") { c in
    c[billCentsCog] + c[tipCentsCog]
}

extension CogOps {
    /// Enters the bill.
    public func enterBill(cents: Int) {
        turn(_billCentsCog, to: cents)
    }

    /// Chooses the tip percentage.
    public func chooseTip(percent: Int) {
        turn(_tipPercentCog, to: percent)
    }
}
