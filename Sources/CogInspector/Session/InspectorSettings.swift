/// The settings `set` changes and `show settings` lists.
public struct InspectorSettings: Equatable, Sendable {
    /// Whether output uses color: `auto` (when a terminal), `on` or `off`.
    public enum ColorMode: String, Sendable, CaseIterable {
        case auto, on, off
    }

    /// How results are printed.
    public enum Format: String, Sendable, CaseIterable {
        case text, json
    }

    /// How many characters of a value text output shows.
    public var valueWidth = 60
    public var color = ColorMode.auto
    public var format = Format.text
    /// How wide a text line may be: nil (`auto`) for the terminal's width, or no limit when
    /// output is not a terminal; otherwise that many columns.
    public var columns: Int?

    /// The defaults: values cut at 60 characters, color on terminals, text, lines as wide as
    /// the terminal.
    public init() {}

    /// The names `set` accepts.
    public static let names = ["width", "color", "format", "columns"]

    /// Changes one setting.
    /// - Throws: `InspectorError` naming the setting or value and what is accepted.
    public mutating func set(_ name: String, to value: String) throws(InspectorError) {
        switch name {
        case "width":
            guard let width = Int(value), (10...1_000).contains(width) else {
                throw InspectorError("width must be a whole number from 10 to 1000, not '\(value)'")
            }
            valueWidth = width
        case "color":
            guard let mode = ColorMode(rawValue: value) else {
                throw InspectorError("color must be auto, on or off, not '\(value)'")
            }
            color = mode
        case "format":
            guard let format = Format(rawValue: value) else {
                throw InspectorError("format must be text or json, not '\(value)'")
            }
            self.format = format
        case "columns":
            if value == "auto" {
                columns = nil
                return
            }
            guard let columns = Int(value), (20...1_000).contains(columns) else {
                throw InspectorError("columns must be auto or a whole number from 20 to 1000, not '\(value)'")
            }
            self.columns = columns
        default:
            throw InspectorError("unknown setting '\(name)'; expected one of \(Self.names.joined(separator: ", "))")
        }
    }

    /// Every setting and its value.
    public var fields: [Field] {
        [
            Field("width", .integer(valueWidth)), Field("color", .text(color.rawValue)),
            Field("format", .text(format.rawValue)),
            Field("columns", columns.map { .integer($0) } ?? .text("auto")),
        ]
    }
}
