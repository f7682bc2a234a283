// swift-tools-version:6.1
// OpenQuartz: Core Animation's layer model, rendered headless on Linux by a GLES 3 backend and
// checked by an independent CPU reference rasterizer. Module order (each imports only those above
// it) is the one in DESIGN.md; docs/design.md names the additions (the C shims, SceneCatalog,
// SceneFormat) and why.
import Foundation
import PackageDescription

let package = Package(
    name: "OpenQuartz",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "OpenQuartzCore", targets: ["OpenQuartzCore"]),
        .library(name: "PixelDiff", targets: ["PixelDiff"]),
        .library(name: "SceneFormat", targets: ["SceneFormat"]),
        .library(name: "LottieImport", targets: ["LottieImport"]),
        // `import SnapshotTesting` in your tests: pointfreeco's swift-snapshot-testing with the
        // layer and image strategies Apple's platforms get (docs/testing.md).
        .library(name: "SnapshotTestingQuartz", targets: ["SnapshotTesting"]),
        // The stages below OpenQuartzCore, for the benchmarks package and for tools that inspect
        // render lists; applications import OpenQuartzCore.
        .library(name: "OpenQuartzStages", targets: ["Compositor", "RasterBackend", "GLBackend", "SceneCatalog"]),
        // What the command line parses from outside (shard manifests, bench reports), for the fuzz targets.
        .library(name: "QuartzTools", targets: ["FrameShards", "QuartzBench"]),
        .executable(name: "quartz", targets: ["quartz"]),
    ],
    // swift-snapshot-testing comes in only with this trait. Its module and ours are both named
    // SnapshotTesting (ours re-exports it, see the target), which SwiftPM allows only while its
    // module alias is applied, and it applies the alias only where the root package's products
    // reach ours: a package depending on OpenQuartz without using SnapshotTestingQuartz (fuzz/,
    // benchmarks/, most users) failed to load with "multiple packages declare targets with a
    // conflicting name". Off by default; a package that snapshot-tests enables it
    // (docs/testing.md), and this package's own builds pass `--traits SnapshotTesting` (Makefile).
    traits: [
        .trait(name: "SnapshotTesting", description: "The SnapshotTestingQuartz product: swift-snapshot-testing with OpenQuartz's layer and image strategies"),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/pointfreeco/swift-snapshot-testing", from: "1.19.7"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
    ],
    targets: [
        .systemLibrary(name: "CEGL", pkgConfig: "egl glesv2 gbm",
                       providers: [.apt(["libegl-dev", "libgles-dev", "libgbm-dev"])]),
        .systemLibrary(name: "CLibPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CImageCodecs", providers: [.apt(["libgif-dev", "libturbojpeg0-dev"])]),
        .systemLibrary(name: "CFontStack", pkgConfig: "freetype2 harfbuzz fontconfig",
                       providers: [.apt(["libfreetype-dev", "libharfbuzz-dev", "libfontconfig-dev"])]),
        // PNG rows one at a time through libpng's row API, whose errors longjmp (Sources/CPNGRows/include/CPNGRows.h says why C).
        .target(name: "CPNGRows", dependencies: ["CLibPNG"]),
        .target(name: "OpenCoreGraphics", dependencies: ["CLibPNG", "CPNGRows", "CImageCodecs", "CFontStack"]),
        .target(name: "LayerModel", dependencies: ["OpenCoreGraphics"]),
        // Lottie documents as Core Animation layer trees with their animations (docs/lottie.md).
        // ZIPFoundation reads dotLottie archives (.lottie: a ZIP of the animations and their images).
        .target(name: "LottieImport", dependencies: ["LayerModel", "OpenCoreGraphics", .product(name: "ZIPFoundation", package: "ZIPFoundation")]),
        // A closed-form shadow's rows and their blend, vectorized by C's compiler (docs/design.md, "The CPU's shadow kernels in C"),
        // and the CPU's other hot rows (rounded shapes, textures' and gradients' runs over, a blur's axis): CByteUnits gives
        // them each byte's value.
        .target(name: "CPixelKernels", dependencies: ["CByteUnits"]),
        .target(name: "Compositor", dependencies: ["LayerModel", "OpenCoreGraphics", "CPixelKernels"]),
        // Each byte over 255 as statically initialised data (Sources/RasterBackend/ByteUnits.swift says why C).
        .target(name: "CByteUnits"),
        .target(name: "RasterBackend", dependencies: ["Compositor", "OpenCoreGraphics", "CByteUnits", "CPixelKernels"]),
        .target(name: "OpenQuartzShaders", path: "Shaders",
                exclude: ["README.md"],
                resources: [.embedInCode("layer_quad.vert"), .embedInCode("layer_quad.frag"),
                            .embedInCode("gaussian_blur.frag"), .embedInCode("halve.frag"),
                            .embedInCode("solid_batch.vert"), .embedInCode("solid_batch.frag"),
                            .embedInCode("blurred_batch.vert"), .embedInCode("blurred_batch.frag"),
                            .embedInCode("blurred_rounded_rect.glsl"), .embedInCode("rounded_shape.glsl"), .embedInCode("pixel_centre.glsl"), .embedInCode("polygon_coverage.glsl"), .embedInCode("blend_modes.glsl"),
                            .embedInCode("rounded_batch.vert"), .embedInCode("rounded_batch.frag"),
                            .embedInCode("path_edges.vert"), .embedInCode("path_edges.frag"), .embedInCode("path_cover.frag"),
                            .embedInCode("path_stencil.frag"), .embedInCode("texture_batch.vert"), .embedInCode("texture_batch.frag"),
                            .embedInCode("turned_batch.vert"), .embedInCode("turned_batch.frag")]),
        // CPU affinity for llvmpipe's rasterizer threads (Sources/GLBackend/RasterizerThreads.swift says why C).
        .target(name: "CThreadAffinity"),
        .target(name: "GLBackend", dependencies: ["CEGL", "CThreadAffinity", "Compositor", "OpenCoreGraphics", "OpenQuartzShaders"]),
        .target(name: "OpenQuartzCore",
                dependencies: ["LayerModel", "OpenCoreGraphics", "Compositor", "RasterBackend", "GLBackend"]),
        .target(name: "PixelDiff", dependencies: ["OpenCoreGraphics"]),
        .target(name: "SceneCatalog", dependencies: ["OpenQuartzCore"]),
        // swift-snapshot-testing re-exported under its own module name, with the strategies it
        // declares only on Apple's platforms (Sources/SnapshotTesting/Exports.swift says why the name).
        .target(name: "SnapshotTesting", dependencies: [
            "OpenQuartzCore", "PixelDiff",
            .product(name: "SnapshotTesting", package: "swift-snapshot-testing",
                     moduleAliases: ["SnapshotTesting": "PointFreeSnapshotTesting"],
                     condition: .when(traits: ["SnapshotTesting"])),
        ]),
        // `quartz bench`: the workloads, the ramp controller, the frame loop and the reports.
        .target(name: "QuartzBench", dependencies: ["OpenQuartzCore", "Compositor", "GLBackend", "RasterBackend", "PixelDiff"]),
        .target(name: "SceneFormat", dependencies: ["OpenQuartzCore", "Compositor"]),
        // `quartz animate --shard`'s manifests and `quartz join`'s checks of shared folders (a library so the fuzz targets reach them).
        .target(name: "FrameShards", dependencies: ["OpenCoreGraphics", "PixelDiff"]),
        // The seeds' listings ported to Swift (the same scenes as Examples/*.json).
        .target(name: "SeedExamples", dependencies: ["OpenQuartzCore"]),
        .executableTarget(name: "seed-examples", dependencies: ["SeedExamples", "OpenQuartzCore"]),
        .executableTarget(name: "quartz", dependencies: [
            "OpenQuartzCore", "PixelDiff", "SceneCatalog", "SceneFormat", "LottieImport", "GLBackend", "Compositor", "RasterBackend", "QuartzBench", "FrameShards",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        .testTarget(name: "OpenCoreGraphicsTests", dependencies: ["OpenCoreGraphics"]),
        .testTarget(name: "LayerModelTests", dependencies: ["LayerModel"]),
        .testTarget(name: "CompositorTests", dependencies: ["Compositor", "LayerModel"]),
        .testTarget(name: "RasterBackendTests", dependencies: ["RasterBackend", "Compositor"]),
        .testTarget(name: "GLBackendTests", dependencies: ["GLBackend", "RasterBackend", "Compositor", "PixelDiff"]),
        // lottie-ios's samples in ../shared/lottie against the frames Apple's Core Animation drew.
        .testTarget(name: "LottieSampleTests", dependencies: ["LottieImport", "GLBackend", "RasterBackend", "Compositor", "PixelDiff", "OpenQuartzCore", "SnapshotTesting"],
                    exclude: ["Documents"]),
        .testTarget(name: "PixelDiffTests", dependencies: ["PixelDiff"], exclude: ["Pairs", "RowFixtures"]),
        .testTarget(name: "SnapshotStrategyTests", dependencies: ["SnapshotTesting", "OpenQuartzCore", "PixelDiff"],
                    exclude: ["__Snapshots__"]),
        .testTarget(name: "SceneCatalogTests", dependencies: ["SceneCatalog", "OpenQuartzCore", "SnapshotTesting", "PixelDiff", "Compositor", "GLBackend", "RasterBackend"],
                    exclude: ["Goldens"]),
        .testTarget(name: "SceneFormatTests", dependencies: ["SceneFormat", "SceneCatalog", "SeedExamples", "OpenQuartzCore", "SnapshotTesting", "PixelDiff"],
                    exclude: ["RenderLists", "Hostile"]),
        .testTarget(name: "QuartzCLITests", dependencies: ["OpenCoreGraphics"]),
        .testTarget(name: "QuartzBenchTests", dependencies: ["QuartzBench", "OpenQuartzCore", "GLBackend", "RasterBackend", "PixelDiff"]),
        // The README's and docs/' links and anchors resolve (no module of ours needed).
        .testTarget(name: "DocumentationTests"),
    ]
)

// `import QuartzCore` and `import CoreGraphics` on Linux: thin re-exports, so code written for
// Apple's platforms compiles with its imports untouched. Not declared elsewhere, where the
// system's own frameworks have these names.
#if os(Linux)
package.products += [
    .library(name: "QuartzCore", targets: ["QuartzCore"]),
    .library(name: "CoreGraphics", targets: ["CoreGraphics"]),
    .library(name: "CoreText", targets: ["CoreText"]),
]
package.targets += [
    .target(name: "CoreGraphics", dependencies: ["OpenCoreGraphics", "_Testing_CoreGraphics"]),
    // What Swift Testing's cross-import of CoreGraphics loads on Linux (see the file in it).
    .target(name: "_Testing_CoreGraphics"),
    .target(name: "QuartzCore", dependencies: ["CoreGraphics", "OpenQuartzCore"]),
    .target(name: "CoreText", dependencies: ["OpenCoreGraphics"]),
    // Apple's documented interface, member by member (AppleInterface.txt), used as Apple spells it.
    // Snapshot tests written for Apple's platforms, unchanged: `import SnapshotTesting` and
    // `import QuartzCore` (docs/testing.md).
    .testTarget(name: "AppleStyleSnapshotTests", dependencies: ["QuartzCore", "SnapshotTesting"], exclude: ["__Snapshots__"]),
    .testTarget(name: "QuartzCoreSurfaceTests", dependencies: ["QuartzCore", "CoreText"], exclude: ["AppleInterface.txt", "CoreGraphicsInterface.txt"]),
]
// The docs' Swift examples are compiled as written, `import QuartzCore` included.
package.targets.first { $0.name == "DocumentationTests" }?.dependencies += ["QuartzCore", "SnapshotTesting", "LottieImport"]
#endif

// CI (scripts/sanitizers.sh) builds the library and tool targets with warnings as errors. The test
// targets are left out: Swift Testing's own macro expansions warn under Swift 6.3.
if ProcessInfo.processInfo.environment["OPENQUARTZ_WARNINGS_AS_ERRORS"] == "1" {
    for target in package.targets where target.type == .regular || target.type == .executable {
        target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-warnings-as-errors"])]
    }
}

// The thread sanitizer's build (scripts/sanitizers.sh) compiles only the test targets it runs:
// OPENQUARTZ_TEST_TARGETS names them, and the package declares no other test target. Building the
// test product alone then leaves out the tools and the modules only they use (CI's time, docs/testing.md).
if let names = ProcessInfo.processInfo.environment["OPENQUARTZ_TEST_TARGETS"] {
    let kept = Set(names.split(separator: " ").map(String.init))
    package.targets.removeAll { $0.type == .test && !kept.contains($0.name) }
}
