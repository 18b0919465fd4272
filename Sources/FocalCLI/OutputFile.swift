import Focal

/// Writes the CLI's own text outputs through Focal's atomic file writing.
enum OutputFile {
    static func write(_ bytes: [UInt8], to path: String) throws(FocalError) {
        try TextOutput.writeAtomically(bytes, to: path)
    }
}
