/// The one reading of a request target that routing and the API-key check share.
///
/// A router and a prefix check that read a path differently are an authentication bypass:
/// `//v1/detect` does not start with `/v1/`, yet a router that skips empty segments serves it.
/// So a target is served only in its canonical spelling, and every other spelling is refused
/// with 400 before any route or key is looked at: no empty segments (`//`, a trailing `/`), no
/// dot segments (`.`, `..`), no percent-encoding (no route or scan ID needs it), no backslash,
/// no control characters or spaces, and an origin-form target (`/path?query`, RFC 9112 §3.2.1).
/// nginx merges and decodes such spellings instead; refusing them keeps one reading with no
/// decoder to get wrong, and no client of this API sends them.
public enum RequestPath {
    /// The paths anyone may ask without a key: health, the probes, metrics (which belong behind
    /// the internal network), and the scanner page at `/` (which asks for a key itself).
    /// Every other path, known route or not, needs a key when keys are on.
    public static let open: Set<String> = ["/v1/health", "/v1/health/live", "/v1/health/ready", "/metrics", "/"]
    /// Where the scanner page's own files are: open too, since a browser loads them without a key.
    public static let openFolder = "/scanner/"

    /// Why `target` is not a canonical origin-form target, or nil when it is.
    public static func refusal(of target: String) -> String? {
        let path = target.utf8.prefix { $0 != UInt8(ascii: "?") }
        guard path.first == UInt8(ascii: "/") else {
            return "the request target must be a path starting with '/' (origin form)"
        }
        for byte in target.utf8 where byte <= 0x20 || byte >= 0x7F || byte == UInt8(ascii: "#") {
            return "the request target holds a space, a control character, '#' or a byte outside ASCII"
        }
        for byte in path {
            switch byte {
            case UInt8(ascii: "%"): return "the path is percent-encoded: send it as plain characters"
            case UInt8(ascii: "\\"): return "the path holds a backslash"
            default: continue
            }
        }
        guard path.count > 1 else { return nil }
        for segment in path.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
            if segment.isEmpty { return "the path has an empty segment ('//' or a trailing '/')" }
            if segment.elementsEqual(".".utf8) || segment.elementsEqual("..".utf8) {
                return "the path has a '.' or '..' segment"
            }
        }
        return nil
    }

    /// The path of a canonical target, without its query.
    public static func path(of target: String) -> Substring {
        target.prefix { $0 != "?" }
    }

    /// Whether a canonical `target` is one of the ``open`` paths (its query aside).
    public static func isOpen(_ target: String) -> Bool {
        let path = path(of: target)
        return open.contains(String(path))
            || (path.hasPrefix(openFolder) && !path.dropFirst(openFolder.count).contains("/") && path.count > openFolder.count)
    }

    /// Whether a request for `target` needs a key when keys are on: every target but the open
    /// paths, and every target that is not canonical (it is refused anyway).
    public static func needsKey(_ target: String) -> Bool { refusal(of: target) != nil || !isOpen(target) }
}
