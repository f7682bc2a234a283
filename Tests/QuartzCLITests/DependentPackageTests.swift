// OpenQuartz as another package's dependency: SwiftPM loads the package graph of a package that
// uses its libraries without snapshot tests, and of one that turns the SnapshotTesting trait on
// for a test target (docs/testing.md's two lines). Without the trait's gate the first failed with
// "multiple packages declare targets with a conflicting name: 'SnapshotTesting'" (Package.swift
// says why). The dependency is reached through a link named OpenQuartz, so its identity is the
// name the products are asked by, as a package fetched from its repository has; the graph is
// loaded by building one C file of the dependent package, nothing of OpenQuartz's.
import Foundation
import Testing

@Suite("OpenQuartz as a dependency")
struct DependentPackageTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Builds the dependent package's C target Probe, whose manifest depends on OpenQuartz with
    /// `dependency` and declares `targets`; returns what SwiftPM said.
    static func loadGraph(dependency: String, targets: String) throws -> Run {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent("OpenQuartz"), withDestinationURL: root)
        let package = folder.appendingPathComponent("Dependent")
        for path in ["Sources/Probe/include", "Sources/Badges", "Tests/BadgesTests"] {
            try FileManager.default.createDirectory(at: package.appendingPathComponent(path), withIntermediateDirectories: true)
        }
        let manifest = """
        // swift-tools-version:6.1
        import PackageDescription
        let package = Package(
            name: "Dependent",
            dependencies: [\(dependency)],
            targets: [
                .target(name: "Probe"),
                \(targets)
            ]
        )
        """
        try Data(manifest.utf8).write(to: package.appendingPathComponent("Package.swift"))
        try Data("int probe(void) { return 1; }\n".utf8).write(to: package.appendingPathComponent("Sources/Probe/probe.c"))
        try Data("int probe(void);\n".utf8).write(to: package.appendingPathComponent("Sources/Probe/include/probe.h"))
        try Data("import QuartzCore\npublic let badge = CALayer()\n".utf8).write(to: package.appendingPathComponent("Sources/Badges/Badges.swift"))
        try Data("import SnapshotTesting\n".utf8).write(to: package.appendingPathComponent("Tests/BadgesTests/BadgeTests.swift"))
        return try shell("cd '\(package.path)' && swift build --scratch-path '\(folder.path)/build' --target Probe 2>&1")
    }

    @Test("a package using OpenQuartz's libraries, without the SnapshotTesting trait, loads")
    func withoutSnapshotTesting() throws {
        let run = try Self.loadGraph(
            dependency: #".package(path: "../OpenQuartz")"#,
            targets: #".target(name: "Badges", dependencies: [.product(name: "QuartzCore", package: "OpenQuartz"), .product(name: "LottieImport", package: "OpenQuartz")]),"#)
        #expect(run.status == 0, "\(run.output)")
        #expect(!run.output.contains("conflicting name"), "\(run.output)")
    }

    @Test("a package whose test target adds SnapshotTestingQuartz with the trait on, as docs/testing.md says, loads")
    func withSnapshotTesting() throws {
        let run = try Self.loadGraph(
            dependency: #".package(path: "../OpenQuartz", traits: ["SnapshotTesting"])"#,
            targets: #"""
            .target(name: "Badges", dependencies: [.product(name: "QuartzCore", package: "OpenQuartz")]),
            .testTarget(name: "BadgesTests", dependencies: ["Badges", .product(name: "SnapshotTestingQuartz", package: "OpenQuartz")]),
            """#)
        #expect(run.status == 0, "\(run.output)")
        #expect(!run.output.contains("module alias"), "\(run.output)")
    }
}
