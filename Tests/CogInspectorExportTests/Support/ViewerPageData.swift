import Foundation
import Testing

@testable import CogInspectorExport

/// The data a viewer page embeds, read back as the page reads it.
enum ViewerPageData {
    /// The page's `cog-data` element, parsed.
    static func embedded(in html: String) throws -> [String: Any] {
        let text = try #require(ViewerDataEncoding.json(inPage: html))
        let json = try JSONSerialization.jsonObject(with: Data(text.utf8))
        return try #require(json as? [String: Any])
    }
}
