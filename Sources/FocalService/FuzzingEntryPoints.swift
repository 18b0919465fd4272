import Focal
import NIOCore

/// The stages of the request path that read untrusted bytes, exposed for the libFuzzer targets in
/// `Fuzz/` and for the test that replays their corpora. Each runs its stage exactly as a request
/// does and returns the refusal a client would get, if any. The fuzz targets stop on a crash and
/// on any server fault (5xx): malformed input must always be the client's error.
@_spi(Fuzzing) public enum FuzzingEntryPoints {
    /// The limits the targets run under: small enough that a decoded frame fits comfortably in
    /// libFuzzer's memory limit.
    static let limits: ServiceConfiguration = {
        var limits = ServiceConfiguration()
        limits.maximumImagePixels = 4_000_000
        limits.maximumFrames = 8
        return limits
    }()

    /// A request body and its Content-Type: the first line of `data` (up to a newline, at most
    /// 256 bytes) is the header's value, the rest is the body. Runs content-type and multipart
    /// parsing, then reads each image's header against the pixel limit.
    public static func requestBody(_ data: UnsafeRawBufferPointer) -> ServiceError? {
        let newline = data.prefix(256).firstIndex(of: 10)
        let contentType = newline.map { String(decoding: data[..<$0], as: UTF8.self) }
        let body = ByteBuffer(bytes: newline.map { data[($0 + 1)...] } ?? data[...])
        do {
            for upload in try Upload.parse(body: body, contentType: contentType) where !upload.isVideo {
                _ = try upload.checkedHeader(maximumPixels: limits.maximumImagePixels)
            }
        } catch {
            return error
        }
        return nil
    }

    /// The decoder held to the targets' pixel limit, as ``FocalServer`` holds it (the first call
    /// in a process that has decoded nothing yet sets it).
    private static let decoderLimited = Frame.limitDecodedPixels(to: limits.maximumImagePixels)

    /// An uploaded image: its header checked, then decoded and turned upright.
    public static func imageUpload(_ data: UnsafeRawBufferPointer) -> ServiceError? {
        _ = decoderLimited
        let upload = Upload(name: "upload", contentType: "image/jpeg", bytes: Array(data))
        do {
            _ = try upload.decodedImage(maximumPixels: limits.maximumImagePixels)
        } catch {
            return error
        }
        return nil
    }

    /// An uploaded video: opened from memory as one of the containers the API accepts, and its
    /// first frames decoded.
    public static func videoUpload(_ data: UnsafeRawBufferPointer) -> ServiceError? {
        let upload = Upload(name: "upload", contentType: "video/mp4", bytes: Array(data))
        var frames = 0
        do {
            try Processing.readVideo(upload, limits: limits) { (_: Frame) throws(ServiceError) in
                frames += 1
                guard frames <= limits.maximumFrames else {
                    throw ServiceError(413, "more than \(limits.maximumFrames) frames")
                }
            }
        } catch {
            return error
        }
        return nil
    }

    /// A fuzz target's `main`: libFuzzer's driver in a fuzzing build (`make fuzz`; SwiftPM names
    /// an executable's entry point itself, so libFuzzer's own `main` never links), and in an
    /// ordinary build a note saying how to run the target instead.
    public static func start(
        target: String, _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
    ) {
        #if FUZZING
            runLibFuzzer(arguments: CommandLine.arguments, callback)
        #else
            print("An ordinary build of a fuzz target does nothing; run it with:")
            print("  make fuzz FUZZ_TARGETS=\(target) FUZZ_SECONDS=60")
            print("The test suite replays Fuzz/Corpus/\(target) through the same entry point.")
        #endif
    }

    /// Stops the process when `refusal` is a server fault: libFuzzer records the input.
    public static func requireNoServerFault(_ refusal: ServiceError?) {
        if let refusal, refusal.status >= 500 {
            fatalError("answered \(refusal.status) to an upload: \(refusal.reason)")
        }
    }
}

#if FUZZING
    #if canImport(Glibc)
        import Glibc
    #endif

    // libFuzzer's driver (compiler-rt's FuzzerInterface.h), linked by -sanitize=fuzzer.
    @_silgen_name("LLVMFuzzerRunDriver")
    private func LLVMFuzzerRunDriver(
        _ argc: UnsafeMutablePointer<CInt>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
        _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
    ) -> CInt

    extension FuzzingEntryPoints {
        /// Runs libFuzzer's driver with the program's arguments and exits with its status.
        public static func runLibFuzzer(
            arguments: [String], _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
        ) -> Never {
            var argc = CInt(arguments.count)
            var pointers: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
            let status = pointers.withUnsafeMutableBufferPointer { buffer in
                var argv = buffer.baseAddress
                return LLVMFuzzerRunDriver(&argc, &argv, callback)
            }
            exit(status)
        }
    }
#endif
