// swift-tools-version:6.1
// A package of its own that depends on Focal, as a Swift developer's would: by path here, or by
// URL and version (`.package(url: "https://github.com/…/Focal", from: "0.3.0")`). The models travel
// with the library as its resources; nothing needs to be set for them to be found.
import PackageDescription

let package = Package(
    name: "ScanAPhoto",
    dependencies: [.package(name: "Focal", path: "../..")],
    targets: [
        .executableTarget(name: "ScanAPhoto", dependencies: [.product(name: "Focal", package: "Focal")])
    ]
)
