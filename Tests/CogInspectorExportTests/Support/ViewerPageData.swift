import Foundation
import Testing

/// The data a viewer page embeds, read back as the page reads it.
enum ViewerPageData {
    /// The page's `cog-data` element, parsed.
    static func embedded(in html: String) throws -> [String: Any] {
        let start = try #require(html.range(of: #"<script id="cog-data" type="application/json">"#))
        let end = try #require(html.range(of: "</script>", range: start.upperBound..<html.endIndex))
        let json = try JSONSerialization.jsonObject(with: Data(html[start.upperBound..<end.lowerBound].utf8))
        return try #require(json as? [String: Any])
    }
}
