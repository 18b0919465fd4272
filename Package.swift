// swift-tools-version:6.1
import PackageDescription

// Only CFocal sees OpenCV, libav and libv4l2; only Focal sees CFocal.
// No target here uses unsafeFlags, so other packages can depend on Focal by version.
// Linux only, so no Apple platform is declared: CFocal links libv4l2 and Focal's cameras speak
// V4L2 (Debian bookworm is what CI builds on; see scripts/install-deps.sh).
let package = Package(
    name: "Focal",
    products: [
        .library(name: "Focal", targets: ["Focal"]),
        .library(name: "FocalSynthetic", targets: ["FocalSynthetic"]),
        .library(name: "FocalService", targets: ["FocalService"]),
        .library(name: "FocalPostgres", targets: ["FocalPostgres"]),
        .executable(name: "focal", targets: ["FocalCLI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // The HTTP service (focal serve). Hummingbird's default traits pull in swift-configuration
        // and full Foundation, which the service does not use.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        // Already Hummingbird's; named for the request-head guard, which works on NIO's HTTP parts.
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.25.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.3.0"),
        // Already Hummingbird's; the service logs its own faults and start-up checks.
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        // Already Hummingbird's; the service drains on SIGTERM through its service group.
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
        // The networked scan store (focal serve --scan-postgres), for replicas without a shared volume.
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // Already PostgresNIO's; its TLS context for the scan store's login check.
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.27.0"),
        // `swift package generate-documentation --target Focal` (Sources/Focal/Focal.docc).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
    ],
    targets: [
        // System libraries: pkg-config gives the header paths; CFocal names the libraries it links.
        .systemLibrary(
            name: "COpenCV",
            providers: [.apt(["libopencv-dev"])]
        ),
        .systemLibrary(
            name: "CFFmpeg",
            pkgConfig: "libavformat",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libswscale-dev", "libavutil-dev"])]
        ),
        .systemLibrary(
            name: "CV4L2",
            pkgConfig: "libv4l2",
            providers: [.apt(["libv4l-dev"])]
        ),
        .target(
            name: "CFocal",
            dependencies: ["COpenCV", "CFFmpeg"],
            cxxSettings: [.headerSearchPath("../COpenCV/include")],
            linkerSettings: [
                .linkedLibrary("opencv_core"),
                .linkedLibrary("opencv_imgproc"),
                .linkedLibrary("opencv_photo"),
                // opencv_imgcodecs is opened on first use: see image_codec.cpp.
                .linkedLibrary("opencv_objdetect"),
                .linkedLibrary("opencv_dnn"),
                .linkedLibrary("v4l2"),
                .linkedLibrary("opencv_wechat_qrcode"),
                // PDF output of scans (pdf_writer.cpp): Debian's libhpdf-dev.
                .linkedLibrary("hpdf"),
                .linkedLibrary("dl"),
                .linkedLibrary("avformat"),
                .linkedLibrary("avcodec"),
                .linkedLibrary("swscale"),
                .linkedLibrary("avutil"),
                .linkedLibrary("stdc++"),
            ]
        ),
        // The models travel with the library: SwiftPM copies them beside every program built with
        // Focal (Focal_Focal.resources), here or in a package that depends on it.
        .target(
            name: "Focal",
            dependencies: ["CFocal"],
            resources: [
                .copy("Models/page-detector.onnx"), .copy("Models/ppocr-v4-det.onnx"),
            ]
        ),
        .target(name: "FocalSynthetic", dependencies: ["Focal"]),
        .target(
            name: "FocalService",
            dependencies: [
                "Focal",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                // The request-head fuzz target runs the router on a channel of its own.
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            // The scanner page served at `/`: plain files, no build step (see ScannerPage).
            resources: [.copy("Scanner")]
        ),
        // Kept apart from FocalService so that only programs that keep scans in PostgreSQL build
        // its client (and TLS stack); the fuzz targets do not.
        .target(
            name: "FocalPostgres",
            dependencies: [
                "FocalService",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                // A login checked apart from the pool, to say why the pool cannot connect.
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .executableTarget(
            name: "FocalCLI",
            dependencies: [
                "Focal",
                "FocalService",
                "FocalPostgres",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "FocalTests", dependencies: ["Focal", "FocalSynthetic"], resources: [.copy("Resources")]),
        .testTarget(name: "FocalCLITests", dependencies: ["FocalCLI", "Focal", "FocalSynthetic"]),
        .testTarget(name: "FocalServiceTests", dependencies: ["FocalService", "Focal", "FocalSynthetic"]),

        // libFuzzer targets over the service's request path (see Fuzz/README.md). `make fuzz` builds
        // them with -sanitize=fuzzer,address; an ordinary build gives programs that say so.
        .executableTarget(name: "fuzz-request-body", dependencies: ["FocalService"], path: "Fuzz/RequestBody"),
        .executableTarget(name: "fuzz-image-upload", dependencies: ["FocalService"], path: "Fuzz/ImageUpload"),
        .executableTarget(name: "fuzz-video-upload", dependencies: ["FocalService"], path: "Fuzz/VideoUpload"),
        .executableTarget(name: "fuzz-request-head", dependencies: ["FocalService"], path: "Fuzz/RequestHead"),

        // Samples: small programs that show the library in use.
        // Benchmarks: ratios against OpenCV's idioms and ffmpeg, measured in the same run.
        .executableTarget(name: "FocalBenchmarks", dependencies: ["Focal", "FocalSynthetic"]),
        .executableTarget(name: "HelloSwift"),
        .executableTarget(name: "MakeSampleMedia", dependencies: ["Focal", "FocalSynthetic"], path: "Samples/MakeSampleMedia"),
        .executableTarget(name: "SharpnessOverlay", dependencies: ["Focal"], path: "Samples/SharpnessOverlay"),
        .executableTarget(name: "FeatureDetector", dependencies: ["Focal"], path: "Samples/FeatureDetector"),
        .executableTarget(name: "SharpestImage", dependencies: ["Focal", "FocalSynthetic"], path: "Samples/SharpestImage"),
        .executableTarget(name: "RawPlusProcessed", dependencies: ["Focal"], path: "Samples/RawPlusProcessed"),
    ],
    cxxLanguageStandard: .cxx17
)
