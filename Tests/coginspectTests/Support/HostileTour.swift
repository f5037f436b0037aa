import Foundation

/// The tour with markup in place of recorded strings, for the viewer's tests: any script or
/// handler that ran would set `document.body.dataset.pwned`.
enum HostileTour {
    /// A value that closes the data's script element, opens one, and adds an image whose error
    /// handler runs script.
    static let markup =
        #"</script><script>document.body.dataset.pwned='script'</script><img src=x onerror="document.body.dataset.pwned='img'">"#

    /// Writes the tour to `url` with each recorded string in `replacing` (a JSON member as the
    /// trace spells it, e.g. `"t":"10001"`) made `markup`.
    static func write(to url: URL, replacing members: [String]) throws {
        let json = String(decoding: try JSONEncoder().encode(markup), as: UTF8.self)
        var text = try String(
            contentsOf: Executables.packageRoot.appendingPathComponent("Recordings/tour.cogtrace"), encoding: .utf8)
        for member in members {
            let name = member.prefix { $0 != ":" }
            text = text.replacingOccurrences(of: member, with: name + ":" + json)
        }
        try text.write(to: url, atomically: true, encoding: .utf8)
    }
}
