import ArgumentParser
import Focal

#if canImport(Glibc)
    import Glibc
#endif

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The CLI's machine-readable outputs.
enum OutputFile {
    /// Writes value as JSON to standard output ("-") or, atomically, to a file.
    static func writeJSON<Value: Encodable>(_ value: Value, to destination: String, pretty: Bool = false) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys] : [.sortedKeys]
        let data = Array(try encoder.encode(value)) + [10]
        if destination == "-" {
            print(String(decoding: data, as: UTF8.self), terminator: "")
        } else {
            try TextOutput.writeAtomically(data, to: destination)
        }
    }
}

/// The folders the CLI writes into.
enum OutputFolder {
    /// Creates `path` and the folders above it that are missing (0755), as `mkdir -p` does, or
    /// throws a sentence naming the folder and the reason a user can act on.
    static func create(_ path: String) throws(OutputFolderError) {
        var built = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            built += "/" + component
            var info = stat()
            if stat(built, &info) == 0 {
                guard (info.st_mode & S_IFMT) == S_IFDIR else {
                    throw OutputFolderError(
                        "Cannot write into '\(path)': '\(built)' is a file, not a folder; give --out a folder")
                }
                continue
            }
            guard mkdir(built, 0o755) == 0 || errno == EEXIST else {
                let reason: String
                switch errno {
                case EROFS: reason = "the file system is read-only"
                case EACCES, EPERM: reason = "permission denied"
                case ENOSPC, EDQUOT: reason = "the disk is full"
                case ENOENT: reason = "folders cannot be made there (a pseudo file system such as /proc or /sys)"
                default: reason = String(cString: strerror(errno)).lowercased()
                }
                throw OutputFolderError("Cannot create the folder '\(path)': \(reason)")
            }
        }
    }
}

struct OutputFolderError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
