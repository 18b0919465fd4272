import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// What the C libraries under OpenCV write straight to standard error (libjpeg's "Corrupt JPEG
/// data", libpng's "libpng error", OpenCV's own `imdecode_` lines) is reworded as Focal's own
/// warning, naming the file being read: `focal: warning: 'photo.jpg': libjpeg: Corrupt JPEG …`.
///
/// Those libraries print with `fprintf(stderr, …)` and offer no hook through OpenCV, so standard
/// error becomes a pipe read by one thread: library lines are reworded, everything else passes
/// through unchanged and in order. The file a line belongs to travels through the same pipe (see
/// ``reading(_:)``), so a warning names the right file even when several are read in turn.
enum LibraryDiagnostics {
    /// Whether the real standard error is a terminal (fd 2 itself is the pipe once installed).
    static var standardErrorIsTerminal: Bool { isatty(original >= 0 ? original : STDERR_FILENO) == 1 }
    nonisolated(unsafe) private static var original: Int32 = -1
    nonisolated(unsafe) private static var reader = pthread_t()
    private static let contextMarker: UInt8 = 0x01

    /// Routes standard error through the rewriting thread until the process exits.
    static func install() {
        var ends: [Int32] = [0, 0]
        guard original < 0, pipe(&ends) == 0 else { return }
        let saved = dup(STDERR_FILENO)
        guard saved >= 0, dup2(ends[1], STDERR_FILENO) >= 0 else {
            close(ends[0])
            close(ends[1])
            return
        }
        close(ends[1])
        original = saved
        let readEnd = ends[0]
        let started = pthread_create(
            &reader, nil,
            { argument in
                LibraryDiagnostics.forward(from: Int32(Int(bitPattern: argument)))
                return nil
            }, UnsafeMutableRawPointer(bitPattern: Int(readEnd)))
        guard started == 0 else {
            dup2(saved, STDERR_FILENO)
            return
        }
        // At exit (ArgumentParser's and ours alike) the pipe is closed and drained, so that no
        // line is lost.
        atexit {
            guard LibraryDiagnostics.original >= 0 else { return }
            dup2(LibraryDiagnostics.original, STDERR_FILENO)
            pthread_join(LibraryDiagnostics.reader, nil)
        }
    }

    /// Names the file the next library lines are about.
    static func reading(_ path: String) {
        guard original >= 0 else { return }
        var line: [UInt8] = [contextMarker] + Array(path.utf8.prefix(4000)) + [10]
        line.withUnsafeMutableBytes { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }

    private static func forward(from descriptor: Int32) {
        var pending: [UInt8] = []
        var context: String?
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            pending += buffer[..<count]
            var output: [UInt8] = []
            while let newline = pending.firstIndex(of: 10) {
                let line = Array(pending[..<newline])
                pending.removeSubrange(...newline)
                if line.first == contextMarker {
                    context = String(decoding: line.dropFirst(), as: UTF8.self)
                } else if let warning = reworded(String(decoding: line, as: UTF8.self), context: context) {
                    output += Array(warning.utf8) + [10]
                } else {
                    output += line + [10]
                }
            }
            // What is not a whole line yet (a progress bar redrawn in place) goes out at once.
            if !pending.isEmpty, pending.first != contextMarker {
                output += pending
                pending = []
            }
            writeAll(output)
        }
        writeAll(pending)
    }

    /// The line as Focal's warning if a library wrote it, else nil.
    static func reworded(_ line: String, context: String?) -> String? {
        let text = line.drop(while: \.isWhitespace)
        guard !text.hasPrefix("focal") else { return nil }
        let library: String
        var message = String(text)
        if text.hasPrefix("libpng ") {
            library = "libpng"
            message = String(text.dropFirst("libpng ".count))
        } else if text.hasPrefix("imdecode_(") || text.hasPrefix("imread_(") || text.hasPrefix("[ WARN:")
            || text.hasPrefix("[ERROR:")
        {
            library = "OpenCV"
        } else if text.contains("JPEG") || text.hasPrefix("Invalid SOS") || text.hasPrefix("Bogus ") {
            library = "libjpeg"
        } else if text.hasPrefix("TIFF") {
            library = "libtiff"
        } else {
            return nil
        }
        let about = context.map { "'\($0)': " } ?? ""
        return "focal: warning: \(about)\(library): \(message)"
    }

    private static func writeAll(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = write(original, raw.baseAddress! + offset, raw.count - offset)
                if written < 0, errno == EINTR { continue }
                guard written > 0 else { return }
                offset += written
            }
        }
    }
}
