#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The one error type Focal throws: what failed, on which file, and why.
///
/// Match on ``kind`` to react to a class of failure; show ``description`` to a person. It reads as
/// a sentence naming the operation, the path and the reason OpenCV, libav or the system gave.
public struct FocalError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// What went wrong, for a program to act on.
    public enum Kind: String, Sendable, Equatable, Codable {
        /// The file or device does not exist.
        case fileNotFound
        /// The folder a file should be written into does not exist.
        case directoryNotFound
        /// The system refused access (permissions, read-only file system).
        case permissionDenied
        /// The path names a folder or a device, not a regular file.
        case notAFile
        /// The input holds nothing: zero bytes, zero pixels, no video stream.
        case emptyInput
        /// The bytes are not a valid image or video (corrupt, truncated, or another kind of file).
        case decodeFailed
        /// A file format or container this build cannot read or write.
        case unsupportedFormat
        /// A video codec this build has no encoder for, or that the container cannot hold.
        case unsupportedCodec
        /// An argument out of range, or images of mismatched size or format.
        case invalidArgument
        /// Reading or writing failed part-way (disk full, I/O error).
        case ioFailed
        /// A model file is missing or unreadable.
        case modelMissing
        /// A camera is in use by another program.
        case deviceBusy
        /// A camera went away while streaming (unplugged, or its driver reset).
        case deviceDisconnected
        /// A feature that is not available yet, or not in this build.
        case unavailable
        /// The work was stopped on request (Ctrl-C, or a caller's cancellation check) before it
        /// finished; nothing was written.
        case interrupted
        /// OpenCV raised an exception.
        case openCV
        /// Something Focal did not expect; please report it.
        case `internal`
    }

    /// What went wrong.
    public let kind: Kind
    /// What Focal was doing, as a verb phrase: "read image", "open video", "write video".
    public let operation: String
    /// The file or device involved, if any.
    public let path: String?
    /// Why it failed, in the words of the layer that failed (OpenCV, libav, the system).
    public let reason: String

    /// An error of `kind` while doing `operation` (a verb phrase: "read image") on `path`, because of `reason`.
    public init(_ kind: Kind, operation: String, path: String? = nil, reason: String) {
        self.kind = kind
        self.operation = operation
        self.path = path
        self.reason = reason
    }

    /// The same error about `path`, when it names no file of its own: for a step that works on
    /// pixels already read, so that the message still says which file they came from.
    public func about(_ path: String) -> FocalError {
        self.path == nil ? FocalError(kind, operation: operation, path: path, reason: reason) : self
    }

    public var description: String {
        var text = "Cannot \(operation)"
        if let path { text += " '\(path)'" }
        let why = String(reason.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
        return why.isEmpty ? text + "." : text + ": " + why + (why.hasSuffix(".") ? "" : ".")
    }

    public var errorDescription: String? { description }
}
