// Our pixelmatch and FLIP against the reference packages on the image pairs checked in under
// Pairs/ (renders of the scene documents beside them, and the layer gallery on both backends):
// pixelmatch 0.3.0 (the Python port of mapbox's pixelmatch) must give the same counts at every
// threshold with and without anti-aliasing detection, and flip-evaluator 1.7 (NVIDIA's FLIP)
// the same mean within 1e-3 and the same error map within 1e-3 at 500 sampled pixels. Both are
// installed from PyPI into a virtual environment by the test (python3-venv; Pillow and numpy
// come from the system or with them).
import Foundation
import OpenCoreGraphics
import PixelDiff
import Testing

@Suite("Reference packages")
struct ReferencePackageTests {
    static let names = ["edge", "glyph", "shift", "backends"]
    static let thresholds = [0.0, 0.05, 0.1, 0.3]

    struct Reference: Decodable {
        let pixelmatch: [Int]
        let flipMean: Double
        let flipMax: Double
        let flipMap: [Double]
    }

    static func referenceFigures() throws -> [Reference] {
        let venv = FileManager.default.temporaryDirectory.appendingPathComponent("openquartz-pixelmatch-venv")
        let files = names.flatMap { [pairs.appendingPathComponent("\($0)-a.png").path, pairs.appendingPathComponent("\($0)-b.png").path] }
        let script = """
        set -e
        [ -x "\(venv.path)/bin/python" ] || python3 -m venv --system-site-packages "\(venv.path)"
        "\(venv.path)/bin/python" -c 'import numpy, PIL' 2>/dev/null || "\(venv.path)/bin/pip" install -q numpy pillow
        "\(venv.path)/bin/python" -c 'import pixelmatch' 2>/dev/null || "\(venv.path)/bin/pip" install -q pixelmatch==0.3.0
        "\(venv.path)/bin/python" -c 'import flip_evaluator' 2>/dev/null || "\(venv.path)/bin/pip" install -q flip-evaluator==1.7
        "\(venv.path)/bin/python" "\(pairs.appendingPathComponent("reference_metrics.py").path)" "$@"
        """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", script, "reference-metrics"] + files
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let output = out.fileHandleForReading.readDataToEndOfFile(), errors = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let message = "the reference packages could not run (python3-venv and PyPI are needed): " + String(decoding: errors, as: UTF8.self)
        try #require(process.terminationStatus == 0, Comment(rawValue: message))
        return try String(decoding: output, as: UTF8.self).split(separator: "\n")
            .map { try JSONDecoder().decode(Reference.self, from: Data($0.utf8)) }
    }

    @Test("pixelmatch counts equal the package's and FLIP's mean and map are within 1e-3 of flip-evaluator's")
    func matchReferencePackages() throws {
        let references = try Self.referenceFigures()
        try #require(references.count == Self.names.count)
        var means: [Double] = []
        for (name, reference) in zip(Self.names, references) {
            let (a, b) = try pair(name)
            var counts: [Int] = []
            for t in Self.thresholds {
                for aa in [false, true] { counts.append(try Pixelmatch.compare(a, b, threshold: t, includeAntialiasing: aa).differingPixels) }
            }
            #expect(counts == reference.pixelmatch, "\(name): ours \(counts), pixelmatch \(reference.pixelmatch)")
            let flip = try FLIP.evaluate(a, b)
            #expect(abs(flip.mean - reference.flipMean) < 1e-3, "\(name): FLIP mean ours \(flip.mean), flip-evaluator \(reference.flipMean)")
            #expect(abs(Double(flip.maximum) - reference.flipMax) < 1e-3, "\(name): FLIP max ours \(flip.maximum), reference \(reference.flipMax)")
            let step = max(1, flip.errorMap.count / 500)
            let sampled = stride(from: 0, to: flip.errorMap.count, by: step).map { Double(flip.errorMap[$0]) }
            #expect(sampled.count == reference.flipMap.count)
            let worst = zip(sampled, reference.flipMap).map { abs($0 - $1) }.max() ?? 1
            #expect(worst < 1e-3, "\(name): FLIP map differs by up to \(worst)")
            means.append(flip.mean)
        }
        // The pairs really differ, and differently.
        #expect(Set(means.map { ($0 * 1000).rounded() }).count == means.count, "\(means)")
    }
}
