import HTTPTypes
import Hummingbird
import NIOCore

#if canImport(Glibc)
    import Glibc
#endif

/// The scanner page (`Sources/FocalService/Scanner`): plain HTML, CSS and JavaScript modules that
/// `focal serve` answers at `/` and `/scanner/<file>`, read into memory once at start-up. Only the
/// files found then are served, by name, so no request can name another file.
///
/// The folder is looked for in ``ServiceConfiguration/scannerPageFolder``, then
/// `$FOCAL_SCANNER_PAGE`, then the resources SwiftPM copies beside the program
/// (`Focal_FocalService.resources/Scanner`), then an install prefix's
/// `share/focal/scanner` (`scripts/build-release.sh`), `/usr/local/share/focal/scanner` and
/// `/usr/share/focal/scanner`.
struct ScannerPage: Sendable {
    struct File: Sendable {
        var bytes: ByteBuffer
        var contentType: String
    }

    let folder: String
    let files: [String: File]

    /// What each kind of file is served as; files of other kinds are not served.
    static let contentTypes = [
        "html": "text/html; charset=utf-8", "css": "text/css; charset=utf-8", "js": "text/javascript; charset=utf-8",
        "svg": "image/svg+xml", "png": "image/png",
    ]
    /// The page may load only its own files, talk only to this server, and show images it made
    /// itself (blob URLs of the API's answers) or the camera.
    static let headers: HTTPFields = [
        .contentSecurityPolicy:
            "default-src 'self'; img-src 'self' blob: data:; media-src 'self' blob: mediastream:; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
        .xContentTypeOptions: "nosniff", .cacheControl: "no-cache", HTTPField.Name("Referrer-Policy")!: "no-referrer",
    ]

    /// Reads the first folder that holds `index.html`; nil when there is none.
    static func load(from explicitFolder: String?) -> ScannerPage? {
        for folder in candidates(explicitFolder) {
            guard let index = read(folder + "/index.html") else { continue }
            var files = ["index.html": File(bytes: ByteBuffer(bytes: index), contentType: contentTypes["html"]!)]
            for name in names(in: folder) {
                guard let type = name.split(separator: ".").last.flatMap({ contentTypes[String($0)] }),
                    let bytes = read(folder + "/" + name)
                else { continue }
                files[name] = File(bytes: ByteBuffer(bytes: bytes), contentType: type)
            }
            return ScannerPage(folder: folder, files: files)
        }
        return nil
    }

    static func candidates(_ explicitFolder: String?) -> [String] {
        if let explicitFolder { return [explicitFolder] }
        var folders: [String] = []
        if let value = getenv("FOCAL_SCANNER_PAGE"), value.pointee != 0 { folders.append(String(cString: value)) }
        var path = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &path, path.count - 1)
        if length > 0 {
            let executable = String(decoding: path[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let binFolder = String(executable[..<(executable.lastIndex(of: "/") ?? executable.endIndex)])
            folders.append(binFolder + "/Focal_FocalService.resources/Scanner")
            let prefix = String(binFolder[..<(binFolder.lastIndex(of: "/") ?? binFolder.endIndex)])
            folders.append(prefix + "/share/focal/scanner")
        }
        return folders + ["/usr/local/share/focal/scanner", "/usr/share/focal/scanner"]
    }

    /// The plainly named files of a folder (letters, digits, '-', '_' and one '.').
    private static func names(in folder: String) -> [String] {
        (FolderFiles.names(in: folder) ?? []).filter { name in
            let plain = name.utf8.allSatisfy {
                $0 == 46 || $0 == 45 || $0 == 95 || (48...57).contains($0) || (97...122).contains($0)
            }
            return plain && name.utf8.filter({ $0 == 46 }).count == 1 && !name.hasPrefix(".")
        }
    }

    /// A regular file's bytes (at most 2 MiB), or nil.
    private static func read(_ path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size <= 2 << 20 else { return nil }
        return FolderFiles.readAll(descriptor, size: Int(info.st_size))
    }

    /// The file's answer, or nil when the page has no such file.
    func response(for name: String, head: Bool) -> Response? {
        guard let file = files[name] else { return nil }
        var headers = Self.headers
        headers[.contentType] = file.contentType
        headers[.contentLength] = String(file.bytes.readableBytes)
        return Response(status: .ok, headers: headers, body: head ? .init() : .init(byteBuffer: file.bytes))
    }
}
