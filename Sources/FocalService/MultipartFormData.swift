#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A `multipart/form-data` body (RFC 7578, on RFC 2046's multipart syntax), parsed strictly.
///
/// It is written here because the multipart parser in the package set (MultipartKit 4.7) stops the
/// process on a byte ≥ 0x80 in a part's header name: one request could kill the service. This one
/// answers every malformed body with a ``Malformed`` reason, bounds what it keeps (parts, header
/// lines, header bytes), and copies each part's bytes once.
struct MultipartFormData: Sendable {
    struct Part: Sendable, Equatable {
        /// Header names in lower case, values as sent (decoded as UTF-8, invalid bytes replaced).
        var headers: [String: String]
        var body: [UInt8]

        /// A parameter of the Content-Disposition header, such as `name` or `filename`.
        func disposition(_ parameter: String) -> String? {
            guard let header = headers["content-disposition"] else { return nil }
            return MultipartFormData.parameter(parameter, in: header)
        }
    }

    /// Why a body is not multipart/form-data; the text is meant for the client.
    struct Malformed: Error, Equatable, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// Limits on what one body may hold. Raising one lets stranger bodies through at the cost of
    /// memory and time per request.
    struct Limits: Sendable {
        /// Parts in one body.
        var parts = 1_000
        /// Header lines in one part.
        var headerLines = 16
        /// Bytes of one part's header section.
        var headerBytes = 8 * 1024
    }

    var parts: [Part]

    /// The boundary parameter of a `multipart/form-data` content type: 1–70 characters of
    /// RFC 2046's set, quoted or not.
    static func boundary(ofContentType contentType: String) throws(Malformed) -> String {
        let parameters = contentType.split(separator: ";").dropFirst()
        guard let parameter = parameters.first(where: { $0.trimmingSpaces.lowercased().hasPrefix("boundary=") }) else {
            throw Malformed("multipart/form-data without a boundary parameter")
        }
        var boundary = Substring(parameter.trimmingSpaces.dropFirst("boundary=".count))
        if boundary.count >= 2, boundary.hasPrefix("\""), boundary.hasSuffix("\"") { boundary = boundary.dropFirst().dropLast() }
        guard (1...70).contains(boundary.utf8.count) else { throw Malformed("the multipart boundary is empty or too long") }
        // RFC 2046's bchars: digits, letters and '()+_,-./:=? and space (not last).
        let allowed = Set("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'()+_,-./:=? ".utf8)
        guard boundary.utf8.allSatisfy(allowed.contains), boundary.utf8.last != UInt8(ascii: " ") else {
            throw Malformed("the multipart boundary has characters RFC 2046 does not allow")
        }
        return String(boundary)
    }

    /// Parses `body` delimited by `boundary`. The preamble before the first delimiter and the
    /// epilogue after the last are ignored, as RFC 2046 says.
    init(parsing body: UnsafeRawBufferPointer, boundary: String, limits: Limits = Limits()) throws(Malformed) {
        let delimiter = Array("--\(boundary)".utf8)
        let bytes = body
        var parts: [Part] = []
        // The first delimiter: at the very start, or after a CRLF in the preamble.
        var position: Int
        if Self.matches(bytes, at: 0, delimiter) {
            position = delimiter.count
        } else if let found = Self.find(bytes, [13, 10] + delimiter, from: 0) {
            position = found + 2 + delimiter.count
        } else {
            throw Malformed("the multipart body has no boundary line '--\(boundary)'")
        }
        while true {
            // After a delimiter: "--" closes the body; otherwise optional padding and a CRLF.
            if Self.matches(bytes, at: position, [45, 45]) { break }
            while position < bytes.count, bytes[position] == 32 || bytes[position] == 9 { position += 1 }
            guard Self.matches(bytes, at: position, [13, 10]) else {
                throw Malformed("a multipart boundary line does not end with CRLF")
            }
            position += 2
            guard parts.count < limits.parts else { throw Malformed("more than \(limits.parts) parts") }
            let (headers, bodyStart) = try Self.headers(bytes, from: position, limits: limits)
            guard let end = Self.find(bytes, [13, 10] + delimiter, from: bodyStart) else {
                throw Malformed("the multipart body ends without its closing boundary '--\(boundary)--'")
            }
            parts.append(Part(headers: headers, body: Array(bytes[bodyStart..<end])))
            position = end + 2 + delimiter.count
        }
        self.parts = parts
    }

    /// Header lines from `start` to the empty line; returns them and where the part's body starts.
    private static func headers(_ bytes: UnsafeRawBufferPointer, from start: Int, limits: Limits) throws(Malformed) -> (
        [String: String], Int
    ) {
        var headers: [String: String] = [:]
        var position = start
        var lines = 0
        while true {
            guard let lineEnd = find(bytes, [13, 10], from: position), lineEnd - start <= limits.headerBytes else {
                throw Malformed("a part's headers are longer than \(limits.headerBytes) bytes, or do not end")
            }
            if lineEnd == position { return (headers, lineEnd + 2) }
            lines += 1
            guard lines <= limits.headerLines else { throw Malformed("a part has more than \(limits.headerLines) header lines") }
            let line = bytes[position..<lineEnd]
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > position else {
                throw Malformed("a part's header line has no name")
            }
            let name = line[position..<colon]
            guard name.allSatisfy(isTokenCharacter) else {
                throw Malformed("a part's header name has a character HTTP does not allow in a token")
            }
            let value = line[(colon + 1)...]
            // Field values: visible characters, spaces and tabs, and bytes ≥ 0x80 (UTF-8 file names).
            guard value.allSatisfy({ $0 == 9 || ($0 >= 32 && $0 != 127) }) else {
                throw Malformed("a part's header value has a control character")
            }
            let key = String(decoding: name, as: UTF8.self).lowercased()
            headers[key] = String(decoding: value, as: UTF8.self).trimmingSpaces
            position = lineEnd + 2
        }
    }

    /// RFC 9110's tchar: letters, digits and !#$%&'*+-.^_`|~.
    private static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default: Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }

    private static func matches(_ bytes: UnsafeRawBufferPointer, at position: Int, _ pattern: [UInt8]) -> Bool {
        guard position >= 0, position <= bytes.count - pattern.count else { return false }
        return pattern.withUnsafeBytes { memcmp(bytes.baseAddress! + position, $0.baseAddress!, pattern.count) == 0 }
    }

    /// The first place at or after `start` where `pattern` (which starts with CR) occurs.
    private static func find(_ bytes: UnsafeRawBufferPointer, _ pattern: [UInt8], from start: Int) -> Int? {
        guard let base = bytes.baseAddress, let first = pattern.first else { return nil }
        var position = start
        while position <= bytes.count - pattern.count {
            guard let hit = memchr(base + position, Int32(first), bytes.count - position) else { return nil }
            let index = base.distance(to: UnsafeRawPointer(hit))
            if matches(bytes, at: index, pattern) { return index }
            position = index + 1
        }
        return nil
    }

    /// A parameter of a header value such as `form-data; name="file"; filename="a.jpg"`.
    static func parameter(_ key: String, in header: String) -> String? {
        for piece in header.split(separator: ";").map({ $0.trimmingSpaces }) where piece.lowercased().hasPrefix(key + "=") {
            var value = Substring(piece.dropFirst(key.count + 1))
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = value.dropFirst().dropLast() }
            return String(value)
        }
        return nil
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        String(drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\t" }).reversed())
    }
}
