import Foundation
import OpenQuartzCore
import PixelDiff

/// The files a failed snapshot leaves for a person: the new snapshot, expected | picture | actual,
/// the comparator's picture and the differing pixels in red over gray, in
/// `SnapshotTestingConfiguration.artifactsFolder()/<TestFile>/`.
enum SnapshotArtifacts {
    /// Writes what there is to write and returns a sentence naming the files (or why not).
    static func write(to folder: URL, stem: String, actual: CGImage, verdict: ComparatorVerdict?, expected: CGImage?) -> String {
        var pictures: [(String, Bitmap)] = [("actual", actual.bitmap)]
        if let verdict, let expected {
            pictures.append(("triptych", verdict.triptych(expected: expected.bitmap, actual: actual.bitmap)))
            pictures.append(("diff", verdict.diffImage))
            pictures.append(("mask", verdict.diffMask))
        }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            var written: [String] = []
            for (kind, bitmap) in pictures {
                let url = folder.appendingPathComponent("\(stem).\(kind).png")
                try CGImage(bitmap: bitmap).writePNG(to: url, links: .refused)
                written.append(url.path)
            }
            return "Artifacts: " + written.joined(separator: ", ")
        } catch {
            return "(the artifacts could not be written to \(folder.path): \(error))"
        }
    }
}
