#if canImport(Glibc)
    import Glibc
#endif

/// The two pieces of file reading the scan folder and the scanner page share: a folder's names,
/// and the whole of an open file.
enum FolderFiles {
    /// The names in `folder` (with `.` and `..`), or nil when it cannot be opened.
    static func names(in folder: String) -> [String]? {
        guard let directory = opendir(folder) else { return nil }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            names.append(withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) })
        }
        return names
    }

    /// The `size` bytes of an open file, or nil when it ends sooner or a read fails.
    static func readAll(_ descriptor: Int32, size: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: size)
        var done = 0
        let complete = bytes.withUnsafeMutableBytes { buffer in
            while done < buffer.count {
                let count = read(descriptor, buffer.baseAddress! + done, buffer.count - done)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return false }
                done += count
            }
            return true
        }
        return complete ? bytes : nil
    }
}
