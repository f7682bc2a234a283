#if os(Linux)
import Foundation
import OpenQuartzCore
import PixelDiff
import Testing

/// What a failed image snapshot leaves for a person: the library's three attachments
/// (`reference.png`, `failure.png`, `difference.png`) and OpenQuartz's two (`triptych.png`:
/// expected | difference | actual; `mask.png`: the differing pixels in red over gray). The library
/// attaches nothing on Linux (XCTest there has no attachments), so they are also recorded as Swift
/// Testing attachments when a Swift Testing test is running (`swift test --attachments-path`
/// keeps them) and written to the artifacts folder, where the library writes the failed snapshot
/// itself: `SNAPSHOT_ARTIFACTS` or the temporary folder, then the test file's name.
struct FailurePictures {
    let attachments: [DiffAttachment]
    private let written: Result<[String], any Error>

    init(reference: CGImage, new: CGImage, verdict: ComparatorVerdict?) {
        var pictures: [(String, Bitmap)] = [("reference", reference.bitmap), ("failure", new.bitmap)]
        if let verdict {
            pictures.append(("difference", verdict.diffImage))
            pictures.append(("triptych", verdict.triptych(expected: reference.bitmap, actual: new.bitmap)))
            pictures.append(("mask", verdict.diffMask))
        }
        let encoded = pictures.compactMap { name, bitmap -> (String, Data)? in
            guard bitmap.width > 0, bitmap.height > 0, let data = try? CGImage(bitmap: bitmap).pngData() else { return nil }
            return (name, data)
        }
        attachments = encoded.map { DiffAttachment.data($0.1, name: "\($0.0).png") }
        for (name, data) in encoded where Test.current != nil {
            Attachment.record([UInt8](data), named: "\(name).png")
        }
        written = Result { try Self.write(encoded) }
    }

    /// A line naming where the pictures were written (or why they were not), for the message.
    func writtenNote() -> String {
        switch written {
        case .success(let paths): paths.isEmpty ? "" : "\n\nPictures: " + paths.joined(separator: ", ")
        case .failure(let error): "\n\n(the failure pictures could not be written: \(error))"
        }
    }

    private static let counter = Counter()

    /// `<artifacts>/<TestFile>/<test>.<n>.<picture>.png`, n counting this test's failures.
    private static func write(_ pictures: [(String, Data)]) throws -> [String] {
        let environment = ProcessInfo.processInfo.environment
        let base = URL(fileURLWithPath: environment["SNAPSHOT_ARTIFACTS"] ?? NSTemporaryDirectory(), isDirectory: true)
        let test = Test.current
        let file = test.map { URL(fileURLWithPath: $0.sourceLocation.fileName).deletingPathExtension().lastPathComponent } ?? "SnapshotTesting"
        let stem = sanitized(test?.name ?? "snapshot")
        let folder = base.appendingPathComponent(file, isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let n = counter.next("\(file)/\(stem)")
        return try pictures.map { name, data in
            let url = folder.appendingPathComponent("\(stem).\(n).\(name).png")
            try data.write(to: url)
            return url.path
        }
    }

    /// The library's file-name rule: runs of non-word characters become one '-', none at the ends.
    static func sanitized(_ name: String) -> String {
        name.replacingOccurrences(of: "\\W+", with: "-", options: .regularExpression)
            .replacingOccurrences(of: "^-|-$", with: "", options: .regularExpression)
    }

    /// Numbers per key, shared by every test of the process.
    private final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var counts: [String: Int] = [:]

        func next(_ key: String) -> Int {
            lock.lock()
            defer { lock.unlock() }
            counts[key, default: 0] += 1
            return counts[key]!
        }
    }
}
#endif
