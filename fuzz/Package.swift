// swift-tools-version:6.1
// OpenQuartz's fuzz targets: libFuzzer programs built with Swift's -sanitize=fuzzer and the
// address sanitizer, in their own package (like benchmarks/) so the main package builds without
// them. Each main hands its target to LLVMFuzzerRunDriver: SwiftPM links an executable's main to
// <Module>_main, which -parse-as-library would leave undefined. Build and run: `make fuzz`.
import PackageDescription

let fuzzer = ["FuzzSceneDocument", "FuzzImageDecoder", "FuzzPathRaster", "FuzzLayerTree", "FuzzShardManifest", "FuzzBenchReport", "FuzzLottieDocument"]

let package = Package(
    name: "OpenQuartzFuzz",
    platforms: [.macOS(.v14)],
    dependencies: [.package(name: "OpenQuartz", path: "..")],
    targets: [
        .target(name: "CFuzzerDriver"),
        .target(name: "FuzzSupport", dependencies: ["CFuzzerDriver"]),
    ] + fuzzer.map { name in
        .executableTarget(
            name: name,
            dependencies: [
                "FuzzSupport",
                .product(name: "OpenQuartzCore", package: "OpenQuartz"),
                .product(name: "SceneFormat", package: "OpenQuartz"),
                .product(name: "OpenQuartzStages", package: "OpenQuartz"),
                .product(name: "QuartzTools", package: "OpenQuartz"),
                .product(name: "LottieImport", package: "OpenQuartz"),
            ]
        )
    }
)
