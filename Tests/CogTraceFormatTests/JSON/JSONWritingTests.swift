import Testing

@testable import CogTraceFormat

@Suite("JSON writing")
struct JSONWritingTests {
    @Test(arguments: [
        (JSONValue.int(0), "0"),
        (.int(-42), "-42"),
        (.int(Int.max), "9223372036854775807"),
        (.int(Int.min), "-9223372036854775808"),
        (.double(72), "72"),
        (.double(-0.5), "-0.5"),
        (.double(.infinity), "null"),
        (.bool(true), "true"),
        (.null, "null"),
        (.string("plain"), "\"plain\""),
        (.string("quote \" backslash \\ newline \n tab \t"), "\"quote \\\" backslash \\\\ newline \\n tab \\t\""),
        (
            .string("bell \u{7} delete \u{7F} c1 \u{85} separator \u{2028}"),
            "\"bell \\u0007 delete \\u007f c1 \\u0085 separator \\u2028\""
        ),
        (.string("café ☀︎ 𝄞"), "\"café ☀︎ 𝄞\""),
        (.array([.int(1), .string("a"), .object([("k", .null)])]), "[1,\"a\",{\"k\":null}]"),
    ])
    func valuesWriteAsCompactJSON(value: JSONValue, expected: String) throws {
        #expect(value.jsonText == expected)
        var bytes: [UInt8] = []
        value.write(to: &bytes)
        #expect(bytes == Array(expected.utf8))
        // What is written parses back to the same value (infinity aside, which JSON cannot hold).
        if case .double(let number) = value, !number.isFinite { return }
        #expect(try JSONParser.parse(expected) == value)
    }
}
