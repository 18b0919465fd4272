import CFocal

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where Focal's model files are found: `$FOCAL_MODELS`, then the library's resource bundle
/// (`Focal_Focal.resources`, which SwiftPM copies beside every program built with Focal, so a
/// package that depends on Focal finds the models from any working directory), then an install
/// prefix's `share/focal/models`, `/usr/local/share/focal/models` and `/usr/share/focal/models`.
enum ModelFile {
    /// The folder SwiftPM names for the Focal target's resources. `Bundle.module` looks for it
    /// beside the program first, but stops the program when it is absent (an installed `focal`
    /// copied without it), so Focal looks there itself and goes on to the other folders.
    static let resourceBundleName = "Focal_Focal.resources"

    /// Where `fileName` is expected, in search order.
    static func candidates(_ fileName: String) -> [String] {
        var folders: [String] = []
        if let fromEnvironment = getenv("FOCAL_MODELS"), fromEnvironment.pointee != 0 {
            folders.append(String(cString: fromEnvironment))
        }
        // An installed one (PREFIX/bin/focal, see scripts/build-release.sh) has PREFIX/share/focal/models.
        if let folder = executableFolder() {
            folders.append(folder + "/" + resourceBundleName)
            folders.append(FileAccess.folderOf(folder) + "/share/focal/models")
        }
        folders += ["/usr/local/share/focal/models", "/usr/share/focal/models"]
        return folders.map { $0 + "/" + fileName }
    }

    /// `explicitPath` when the caller names a file, else the first candidate that exists; `what`
    /// ("text model") and `option` (the setting that names a file instead) go into the error when
    /// there is none.
    static func locate(
        _ fileName: String, unless explicitPath: String?, what: String, option: String
    ) throws(FocalError) -> String {
        if let explicitPath { return explicitPath }
        let paths = candidates(fileName)
        if let found = paths.first(where: FileAccess.exists) { return found }
        throw FocalError(
            .modelMissing, operation: "find the \(what)", path: fileName,
            reason: "not found in " + paths.map(FileAccess.folderOf).joined(separator: ", ")
                + "; set FOCAL_MODELS or \(option)")
    }

    /// A model's handle from the shim's `opener`, for the file at `path`; `what` ("text model")
    /// names it in the errors: `.modelMissing` for a missing file, the shim's error for one it
    /// cannot read.
    static func open(
        _ path: String, what: String, with opener: (String, UnsafeMutablePointer<OpaquePointer?>) -> cfocal_status
    ) throws(FocalError) -> OpaquePointer {
        guard FileAccess.exists(path) else {
            throw FocalError(
                .modelMissing, operation: "load the \(what)", path: path,
                reason: "the file is missing; Focal ships it as a resource of the library (Sources/Focal/Models)")
        }
        var handle: OpaquePointer?
        try check(opener(path, &handle), "load the \(what)", path: path)
        guard let handle else {
            throw FocalError(.internal, operation: "load the \(what)", path: path, reason: "no model returned")
        }
        return handle
    }

    private static func executableFolder() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        return FileAccess.folderOf(String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }
}
