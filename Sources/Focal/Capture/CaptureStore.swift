#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// RAW + processed pairs on disk, as "Capturing Film on iPhone" saves a RAW frame beside its
/// filtered JPEG: for each capture, `<id>.raw` (the buffer exactly as the camera delivered it) and
/// `<id>.jpg` (the processed frame), listed together in `manifest.json`.
///
/// Both files are written under temporary names and renamed into place only when both are
/// complete; the manifest gains the entry last, so a capture interrupted at any point leaves no
/// half pair in it (and no stray file beside it).
///
/// A `.raw` file is one ASCII header line, then the buffer's bytes:
/// `FOCALRAW 1 <fourcc> <width> <height> <bytesPerLine> <byteCount> <timestamp>\n`.
public final class CaptureStore {
    /// The folder the pairs and the manifest are written to.
    public let folder: String
    /// Set by tests: fail after the first file of a pair is written.
    var failBetweenFiles = false

    /// One RAW + processed pair in the manifest.
    public struct Entry: Codable, Sendable, Equatable {
        /// The pair's identifier, also the stem of its file names.
        public var id: String
        /// The RAW file's name, in the folder.
        public var raw: String
        /// The processed JPEG's name, in the folder.
        public var processed: String
        /// The RAW file's pixel format, as a FourCC.
        public var pixelFormat: String
        /// Width in pixels.
        public var width: Int
        /// Height in pixels.
        public var height: Int
        /// Bytes per row of the RAW file.
        public var bytesPerLine: Int
        /// When the frame was captured, in seconds.
        public var timestamp: Double
        /// The driver's sequence number of the frame.
        public var sequence: Int
    }

    /// - Throws: `.directoryNotFound` if the folder does not exist.
    public init(folder: String) throws(FocalError) {
        self.folder = folder.hasSuffix("/") && folder.count > 1 ? String(folder.dropLast()) : folder
        try FileAccess.requireFolder(of: self.folder + "/manifest.json", operation: "open capture folder")
    }

    /// The manifest's path: every pair, as JSON.
    public var manifestPath: String { folder + "/manifest.json" }

    /// The pairs saved so far, oldest first.
    public func entries() throws(FocalError) -> [Entry] {
        guard FileAccess.exists(manifestPath) else { return [] }
        let bytes = try FileAccess.read(manifestPath, operation: "read capture manifest")
        do {
            return try JSONDecoder().decode([Entry].self, from: Data(bytes))
        } catch {
            throw FocalError(.decodeFailed, operation: "read capture manifest", path: manifestPath, reason: "\(error)")
        }
    }

    /// Saves a pair: the raw buffer and the processed frame as JPEG at `quality` (0…1).
    @discardableResult
    public func save(raw buffer: CameraBuffer, processed: Frame, quality: Double = 0.8, id: String? = nil) throws(FocalError)
        -> Entry
    {
        var existing = try entries()
        let number = String(existing.count + 1)
        let id = id ?? "capture-" + String(repeating: "0", count: max(0, 5 - number.count)) + number
        guard !existing.contains(where: { $0.id == id }) else {
            throw FocalError(.invalidArgument, operation: "save capture", path: folder, reason: "a capture '\(id)' exists")
        }
        let entry = Entry(
            id: id, raw: id + ".raw", processed: id + ".jpg", pixelFormat: buffer.format.pixelFormat.description,
            width: buffer.format.width, height: buffer.format.height, bytesPerLine: buffer.format.bytesPerLine,
            timestamp: buffer.timestamp, sequence: buffer.sequence)
        let header =
            "FOCALRAW 1 \(entry.pixelFormat) \(entry.width) \(entry.height) \(entry.bytesPerLine) \(buffer.bytes.count) \(buffer.timestamp)\n"
        let rawPath = folder + "/" + entry.raw, jpegPath = folder + "/" + entry.processed
        let jpeg = try processed.encoded(as: .jpeg, quality: quality)

        let rawTemporary = try FileAccess.writeTemporary(
            Array(header.utf8) + buffer.bytes, beside: rawPath, operation: "save capture")
        var committed: [String] = []
        func undo() {
            FileAccess.remove(rawTemporary)
            for path in committed { FileAccess.remove(path) }
        }
        let jpegTemporary: String
        do throws(FocalError) {
            if failBetweenFiles {
                throw FocalError(.ioFailed, operation: "save capture", path: jpegPath, reason: "injected failure")
            }
            jpegTemporary = try FileAccess.writeTemporary(jpeg, beside: jpegPath, operation: "save capture")
        } catch {
            undo()
            throw error
        }
        do throws(FocalError) {
            try FileAccess.commit(rawTemporary, to: rawPath, operation: "save capture")
            committed.append(rawPath)
            try FileAccess.commit(jpegTemporary, to: jpegPath, operation: "save capture")
            committed.append(jpegPath)
            existing.append(entry)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            let manifest: Data
            do { manifest = try encoder.encode(existing) } catch {
                throw FocalError(.internal, operation: "save capture", reason: "\(error)")
            }
            try FileAccess.writeAtomically(Array(manifest), to: manifestPath, operation: "update capture manifest")
        } catch {
            FileAccess.remove(jpegTemporary)
            undo()
            throw error
        }
        return entry
    }

    /// Reads a `.raw` file back into the buffer it holds.
    public static func readRaw(_ path: String) throws(FocalError) -> CameraBuffer {
        let bytes = try FileAccess.read(path, operation: "read raw capture")
        guard let newline = bytes.firstIndex(of: 10) else {
            throw FocalError(.decodeFailed, operation: "read raw capture", path: path, reason: "no header line")
        }
        let fields = String(decoding: bytes[..<newline], as: UTF8.self).split(separator: " ").map(String.init)
        guard fields.count == 8, fields[0] == "FOCALRAW", fields[1] == "1", let width = Int(fields[3]),
            let height = Int(fields[4]),
            let stride = Int(fields[5]), let count = Int(fields[6]), let timestamp = Double(fields[7]),
            bytes.count - newline - 1 == count
        else {
            throw FocalError(
                .decodeFailed, operation: "read raw capture", path: path, reason: "not a Focal raw file, or truncated")
        }
        return CameraBuffer(
            format: CameraFormat(pixelFormat: CameraPixelFormat(fields[2]), width: width, height: height, bytesPerLine: stride),
            bytes: Array(bytes[(newline + 1)...]), timestamp: timestamp, sequence: 0)
    }
}
