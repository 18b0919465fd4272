#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// File access through POSIX calls, so that each failure maps to a distinct ``FocalError``.
enum FileAccess {
    /// Reads a whole regular file.
    static func read(_ path: String, operation: String) throws(FocalError) -> [UInt8] {
        // O_NONBLOCK: opening a FIFO must not wait for a writer; the fstat below rejects it.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        if fd < 0 { throw error(errno, operation: operation, path: path) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw error(errno, operation: operation, path: path) }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            let what = (info.st_mode & S_IFMT) == S_IFDIR ? "it is a folder" : "it is not a regular file"
            throw FocalError(.notAFile, operation: operation, path: path, reason: what)
        }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var done = 0
        while done < bytes.count {
            let count = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + done, $0.count - done) }
            if count < 0 {
                if errno == EINTR { continue }
                throw error(errno, operation: operation, path: path)
            }
            if count == 0 { break }
            done += count
        }
        if done < bytes.count { bytes.removeSubrange(done...) }
        return bytes
    }

    /// Writes bytes under a temporary name beside path, then renames it into place: readers see the
    /// old file or the whole new one, never half of it.
    ///
    /// Only a regular file (or a new one) is replaced so. Where path names a device or a pipe
    /// (`/dev/null`, `/dev/stdout`, a FIFO) the bytes are written into it: a rename would put a file
    /// in the device's place (as root, over `/dev/null` itself). Where it is a symbolic link, the
    /// file it points to is replaced and the link stays.
    static func writeAtomically(_ bytes: [UInt8], to path: String, operation: String) throws(FocalError) {
        try requireFolder(of: path, operation: operation)
        var info = stat()
        let isStream = stat(path, &info) == 0 && (info.st_mode & S_IFMT) != S_IFREG
        let target = isStream ? path : try checkedDestination(of: path, operation: operation)
        let failure: FocalError? = bytes.withUnsafeBytes { raw in
            do throws(FocalError) {
                if isStream {
                    try writeInto(raw, path: path, operation: operation)
                } else {
                    let temporary = try writeTemporary(raw, beside: target, operation: operation)
                    try commit(temporary, to: target, operation: operation)
                }
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
    }

    /// The file a write to `path` replaces or creates: path itself, or where a symbolic link at
    /// path leads, also when that file does not exist yet (as a shell's `>` creates it). A link
    /// into a folder that does not exist is refused, naming the link: replacing the link with a
    /// file would break it silently.
    static func destination(of path: String, operation: String) throws(FocalError) -> String {
        var current = path
        for _ in 0..<16 {
            var info = stat()
            guard lstat(current, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK else { return current }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(current, &buffer, buffer.count - 1)
            guard count > 0 else { throw error(errno, operation: operation, path: path) }
            let target = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            current = target.hasPrefix("/") ? target : folderOf(current) + "/" + target
        }
        throw FocalError(.invalidArgument, operation: operation, path: path, reason: "its symbolic links go round in a loop")
    }

    /// Like ``destination(of:operation:)``, and the folder that will hold the file must exist.
    static func checkedDestination(of path: String, operation: String) throws(FocalError) -> String {
        let target = try destination(of: path, operation: operation)
        if target != path, !exists(folderOf(target)) {
            throw FocalError(
                .directoryNotFound, operation: operation, path: path,
                reason: "it is a symbolic link to '\(target)', whose folder does not exist")
        }
        return target
    }

    /// Writes bytes into an existing device or pipe, as a shell's `>` does.
    private static func writeInto(_ bytes: UnsafeRawBufferPointer, path: String, operation: String) throws(FocalError) {
        let fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY)
        if fd < 0 { throw error(errno, operation: operation, path: path) }
        defer { close(fd) }
        var done = 0
        while done < bytes.count {
            let count = Glibc.write(fd, bytes.baseAddress! + done, bytes.count - done)
            if count < 0 {
                if errno == EINTR { continue }
                throw error(errno, operation: operation, path: path)
            }
            done += count
        }
    }

    /// Writes bytes under a hidden temporary name beside path and returns that name; nothing is
    /// left behind on failure. ``commit(_:to:operation:)`` puts it in place.
    static func writeTemporary(_ bytes: [UInt8], beside path: String, operation: String) throws(FocalError) -> String {
        try requireFolder(of: path, operation: operation)
        let result: Result<String, FocalError> = bytes.withUnsafeBytes { raw in
            do throws(FocalError) {
                return .success(try writeTemporary(raw, beside: path, operation: operation))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    private static func writeTemporary(_ bytes: UnsafeRawBufferPointer, beside path: String, operation: String) throws(FocalError)
        -> String
    {
        let temporary = temporarySibling(of: path)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        if fd < 0 { throw error(errno, operation: operation, path: path) }
        var done = 0
        while done < bytes.count {
            let count = Glibc.write(fd, bytes.baseAddress! + done, bytes.count - done)
            if count < 0 {
                if errno == EINTR { continue }
                let code = errno
                close(fd)
                unlink(temporary)
                throw error(code, operation: operation, path: path)
            }
            done += count
        }
        if close(fd) != 0 {
            let code = errno
            unlink(temporary)
            throw error(code, operation: operation, path: path)
        }
        return temporary
    }

    /// Renames a temporary file into place (removing it if that fails).
    static func commit(_ temporary: String, to path: String, operation: String) throws(FocalError) {
        if rename(temporary, path) != 0 {
            let code = errno
            unlink(temporary)
            throw error(code, operation: operation, path: path)
        }
    }

    static func remove(_ path: String) { unlink(path) }

    /// Fails with `.directoryNotFound` (or `.notAFile`) unless the folder that would hold path exists.
    static func requireFolder(of path: String, operation: String) throws(FocalError) {
        let folder = folderOf(path)
        var info = stat()
        if stat(folder, &info) != 0 {
            throw FocalError(
                .directoryNotFound, operation: operation, path: path,
                reason: "the folder '\(folder)' does not exist")
        }
        if (info.st_mode & S_IFMT) != S_IFDIR {
            throw FocalError(.notAFile, operation: operation, path: path, reason: "'\(folder)' is not a folder")
        }
        var target = stat()
        if stat(path, &target) == 0, (target.st_mode & S_IFMT) == S_IFDIR {
            throw FocalError(.notAFile, operation: operation, path: path, reason: "it is a folder")
        }
    }

    /// A hidden name in the same folder, so that the final rename stays on one file system:
    /// `.NAME.focal-PID-TAG.partial`, which says whose it is and which process writes it.
    static func temporarySibling(of path: String) -> String {
        let tag = String(UInt32.random(in: 0...UInt32.max), radix: 36)
        return temporaryPrefix(of: path) + "focal-\(getpid())-\(tag).partial"
    }

    /// `.NAME.`: the start of every temporary name of path (in its folder).
    private static func temporaryNamePrefix(of path: String) -> String {
        ".\(path.split(separator: "/").last.map(String.init) ?? path)."
    }

    private static func temporaryPrefix(of path: String) -> String {
        folderPrefix(of: path) + temporaryNamePrefix(of: path)
    }

    /// path's folder with a slash, as path spells it ("" for a bare name).
    private static func folderPrefix(of path: String) -> String {
        let folder = folderOf(path)
        return folder == "." && !path.hasPrefix("./") ? "" : folder + "/"
    }

    /// Removes the temporary files that earlier writers of `path` left when they were killed
    /// (SIGKILL leaves no chance to clean up): each names its process, and one whose process is
    /// gone is stale. Files of a process still running, and names of any other form, are kept.
    /// Returns how many were removed.
    @discardableResult
    static func removeStaleTemporaries(of path: String) -> Int {
        let namePrefix = temporaryNamePrefix(of: path)
        guard let directory = opendir(folderOf(path)) else { return 0 }
        var stale: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard name.hasPrefix(namePrefix), name.hasSuffix(".partial") else { continue }
            // "focal-PID-TAG" (and "PID-TAG", as earlier versions named them).
            var middle = name.dropFirst(namePrefix.count).dropLast(".partial".count)
            if middle.hasPrefix("focal-") { middle = middle.dropFirst("focal-".count) }
            let parts = middle.split(separator: "-")
            guard parts.count == 2, let pid = Int32(parts[0]), pid > 0, parts[1].allSatisfy({ $0.isNumber || $0.isLowercase })
            else { continue }
            if pid != getpid(), kill(pid, 0) != 0, errno == ESRCH { stale.append(name) }
        }
        closedir(directory)
        let folder = folderPrefix(of: path)
        return stale.filter { unlink(folder + $0) == 0 }.count
    }

    static func folderOf(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let folder = String(path[..<slash])
        return folder.isEmpty ? "/" : folder
    }

    static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }

    static func error(_ code: Int32, operation: String, path: String) -> FocalError {
        let reason = String(cString: strerror(code)).lowercased()
        switch code {
        case ENOENT:
            return FocalError(.fileNotFound, operation: operation, path: path, reason: "no such file")
        case ENOTDIR:
            return FocalError(.directoryNotFound, operation: operation, path: path, reason: reason)
        case EACCES, EPERM, EROFS:
            return FocalError(.permissionDenied, operation: operation, path: path, reason: reason)
        case EISDIR:
            return FocalError(.notAFile, operation: operation, path: path, reason: "it is a folder")
        default:
            return FocalError(.ioFailed, operation: operation, path: path, reason: reason)
        }
    }
}
