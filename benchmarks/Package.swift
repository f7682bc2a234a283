// swift-tools-version:6.1
// OpenQuartz's benchmarks: their own package (as swift-collections' Benchmarks), so the main
// package builds and tests without package-benchmark. Run from this folder:
//
//     swift package --allow-writing-to-package-directory benchmark
//
// Ratios, not absolute times, are what to compare on these shared machines: each suite measures
// its cases in one process, side by side.
import PackageDescription

let package = Package(
    name: "OpenQuartzBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "OpenQuartz", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .target(
            name: "BenchmarkSupport",
            dependencies: [.product(name: "Benchmark", package: "benchmark")],
            path: "Benchmarks/Support"
        ),
        .executableTarget(
            name: "Animation",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                "BenchmarkSupport",
                .product(name: "OpenQuartzCore", package: "OpenQuartz"),
            ],
            path: "Benchmarks/Animation",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "Rendering",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                "BenchmarkSupport",
                .product(name: "OpenQuartzCore", package: "OpenQuartz"),
                .product(name: "OpenQuartzStages", package: "OpenQuartz"),
                .product(name: "PixelDiff", package: "OpenQuartz"),
            ],
            path: "Benchmarks/Rendering",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "Effects",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                "BenchmarkSupport",
                .product(name: "OpenQuartzCore", package: "OpenQuartz"),
                .product(name: "OpenQuartzStages", package: "OpenQuartz"),
            ],
            path: "Benchmarks/Effects",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "Drawing",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                "BenchmarkSupport",
                .product(name: "OpenQuartzCore", package: "OpenQuartz"),
            ],
            path: "Benchmarks/Drawing",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "Diff",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                "BenchmarkSupport",
                .product(name: "OpenQuartzCore", package: "OpenQuartz"),
                .product(name: "OpenQuartzStages", package: "OpenQuartz"),
                .product(name: "PixelDiff", package: "OpenQuartz"),
            ],
            path: "Benchmarks/Diff",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "Scenes",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                "BenchmarkSupport",
                .product(name: "OpenQuartzCore", package: "OpenQuartz"),
                .product(name: "OpenQuartzStages", package: "OpenQuartz"),
                .product(name: "SceneFormat", package: "OpenQuartz"),
            ],
            path: "Benchmarks/Scenes",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
