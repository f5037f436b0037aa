import CogInspector

/// The viewer page's style sheet and script, kept as files beside this one (`Assets/viewer.css`,
/// `Assets/viewer.js`) so that tools for those languages can check them, and embedded in the
/// library when it is built: an `export html` page needs nothing installed.
///
/// The script reads the page's embedded data, rebuilds the graph at a turn from the keyframe
/// before it, and draws it as SVG; every recorded string reaches the page through
/// `textContent` or an attribute, never as markup. docs/viewer.md describes the page.
enum ViewerScript {
    /// The style sheet.
    static let styles = text(of: PackageResources.viewer_css)

    /// The whole script: helpers, the recording and its pane, the panels, and the page's wiring.
    static let source = text(of: PackageResources.viewer_js)

    /// A file's text without the line feed that ends it.
    private static func text(of bytes: [UInt8]) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        return text.hasSuffix("\n") ? String(text.dropLast()) : text
    }
}
