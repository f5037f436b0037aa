import CZlib
import Foundation

/// How a page carries its data: as JSON text while it is small enough to read in the page's
/// source, and past `compressionThreshold` bytes as gzip in base64, which the page inflates
/// with the browser's own `DecompressionStream`. A wide recording's page holds mostly repeated
/// labels and sentences, which gzip shrinks about six times.
enum ViewerDataEncoding {
    /// JSON text up to this many bytes stays JSON.
    static let compressionThreshold = 1 << 20

    /// The opening tag of the element holding JSON text.
    static let jsonTag = #"<script id="cog-data" type="application/json">"#
    /// The opening tag of the element holding gzip in base64.
    static let gzipTag = #"<script id="cog-data" type="application/gzip" data-encoding="base64">"#

    /// The element's opening tag and content for `json`, already made safe for a script element.
    static func element(for json: String) -> (tag: String, content: String) {
        guard json.utf8.count > compressionThreshold, let packed = gzip(Array(json.utf8)) else {
            return (jsonTag, json)
        }
        return (gzipTag, Data(packed).base64EncodedString())
    }

    /// The JSON text of a page's data element, whichever way it is carried; nil when the page
    /// has no such element or its data does not decode.
    package static func json(inPage html: String) -> String? {
        for (tag, isPacked) in [(jsonTag, false), (gzipTag, true)] {
            guard let start = html.range(of: tag),
                let end = html.range(of: "</script>", range: start.upperBound..<html.endIndex)
            else { continue }
            let content = String(html[start.upperBound..<end.lowerBound])
            guard isPacked else { return content }
            guard let bytes = Data(base64Encoded: content), let text = gunzip(Array(bytes)) else { return nil }
            return String(decoding: text, as: UTF8.self)
        }
        return nil
    }

    /// `bytes` as one gzip member; nil if zlib refuses (it only does when out of memory).
    static func gzip(_ bytes: [UInt8]) -> [UInt8]? {
        var stream = z_stream()
        // 15 window bits, plus 16 for a gzip header and trailer rather than zlib's.
        guard deflateInit2_(&stream, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, zlibVersion(), streamSize) == Z_OK
        else { return nil }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(bytes.count))))
        let status = bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.avail_in = uInt(input.count)
                stream.next_out = out.baseAddress
                stream.avail_out = uInt(out.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { return nil }
        return Array(output.prefix(Int(stream.total_out)))
    }

    /// The bytes one gzip member holds; nil when `bytes` is not gzip or is cut short.
    static func gunzip(_ bytes: [UInt8]) -> [UInt8]? {
        var stream = z_stream()
        guard inflateInit2_(&stream, 15 + 16, zlibVersion(), streamSize) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        return bytes.withUnsafeBufferPointer { input -> [UInt8]? in
            stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
            stream.avail_in = uInt(input.count)
            while true {
                let status = chunk.withUnsafeMutableBufferPointer { out in
                    stream.next_out = out.baseAddress
                    stream.avail_out = uInt(out.count)
                    return inflate(&stream, Z_NO_FLUSH)
                }
                result += chunk.prefix(chunk.count - Int(stream.avail_out))
                if status == Z_STREAM_END { return result }
                // No progress with input left, or a corrupt stream: not a whole gzip member.
                guard status == Z_OK else { return nil }
            }
        }
    }

    private static let streamSize = Int32(MemoryLayout<z_stream>.size)
}
