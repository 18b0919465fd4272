/// Writes bytes (JSON, reports) the way Focal writes images: under a temporary name renamed into
/// place, with errors naming the path.
public enum TextOutput {
    /// Writes `bytes` to `path` under a temporary name and renames it into place (a device or a pipe is written directly).
    public static func writeAtomically(_ bytes: [UInt8], to path: String) throws(FocalError) {
        try FileAccess.writeAtomically(bytes, to: path, operation: "write")
    }
}
