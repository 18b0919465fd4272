import Focal
import Logging

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A request the service refuses, with the HTTP status and a reason meant for the client.
public struct ServiceError: Error, Sendable, Equatable {
    public var status: Int
    public var reason: String
    public var retryAfter: Int?

    public init(_ status: Int, _ reason: String, retryAfter: Int? = nil) {
        self.status = status
        self.reason = reason
        self.retryAfter = retryAfter
    }

    /// A Focal error from processing a request's upload: bad input is the client's (4xx), a
    /// missing model makes the feature unavailable (503), the rest is the server's (500).
    init(processing error: FocalError, what: String) {
        switch error.kind {
        case .decodeFailed, .emptyInput: self.init(422, "\(what) could not be decoded: \(error.reason)")
        case .unsupportedFormat, .unsupportedCodec: self.init(415, "\(what) is in a format Focal does not read: \(error.reason)")
        case .invalidArgument: self.init(400, "\(what): \(error.reason)")
        case .modelMissing:
            serviceLog.error("\(what): \(error)")
            self.init(503, "\(what) needs a model this server does not have; its log names the file")
        default: self.init(internal: error, what: what)
        }
    }

    /// A fault of the server's own: the details (which may name files) go to the log, never to
    /// the client.
    init(internal error: any Error, what: String) {
        serviceLog.error("\(what) failed: \(error)")
        self.init(500, "\(what) failed on the server; its log has the details")
    }
}

extension ServiceError {
    /// The JSON every error answer carries: `{"error":{"reason":"…","status":413}}` and a newline.
    static func jsonBody(status: Int, reason: String) -> [UInt8] {
        encodedJSON(Body(error: .init(status: status, reason: reason)))
    }

    struct Body: Encodable {
        struct Detail: Encodable {
            var status: Int
            var reason: String
        }
        var error: Detail
    }
}

/// Where the service reports its own faults and start-up checks.
let serviceLog = Logger(label: "focal.serve")

/// JSON as the service writes it: keys sorted, a newline at the end.
func encodedJSON(_ value: some Encodable) -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return Array((try? encoder.encode(value)) ?? Data("{}".utf8)) + [10]
}
