import Foundation
internal import ZIPFoundation

/// A dotLottie archive (`.lottie`): a ZIP holding `manifest.json`, its animations as Lottie JSON
/// (`animations/<id>.json`; dotLottie 2 writes `a/<id>.json`) and their images (`images/`, or
/// `i/`). Its files are read whole into memory, within the limits a Lottie document has: an archive that
/// inflates past `LottieDocument.maxBytes` in all, or holds over `maxEntries` entries, is refused
/// before or while inflating, so a ZIP bomb costs no more than a large document.
public struct DotLottieArchive {
    /// The animations the manifest lists, in its order (the first is the one shown by default).
    public let animationIDs: [String]
    /// Each file of the archive by its path, inflated.
    let files: [String: Data]

    public static let maxEntries = 10_000

    /// Whether `data` starts as a ZIP archive does (a local file header).
    public static func isArchive(_ data: Data) -> Bool { data.starts(with: [0x50, 0x4B, 0x03, 0x04]) }

    public init(data: Data) throws {
        guard data.count <= LottieDocument.maxBytes else {
            throw LottieError(path: "archive", reason: "the archive is over \(LottieDocument.maxBytes >> 20) MiB")
        }
        // Read from a file, not from memory: ZIPFoundation's in-memory reader traps on an
        // archive whose directory points past its end (found by FuzzLottieDocument), where its
        // file reader reads short and throws.
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("openquartz-\(UUID().uuidString).lottie")
        do { try data.write(to: file) } catch {
            throw LottieError(path: "archive", reason: "could not be written to a temporary file to read (\(error))")
        }
        defer { try? FileManager.default.removeItem(at: file) }
        let archive: Archive
        do { archive = try Archive(url: file, accessMode: .read) } catch {
            throw LottieError(path: "archive", reason: "not a ZIP archive (\(error))")
        }
        var files: [String: Data] = [:]
        var total = 0, count = 0
        for entry in archive where entry.type == .file {
            count += 1
            guard count <= Self.maxEntries else {
                throw LottieError(path: "archive", reason: "more than \(Self.maxEntries) files")
            }
            let path = entry.path.hasPrefix("/") ? String(entry.path.dropFirst()) : entry.path
            guard entry.uncompressedSize <= UInt64(LottieDocument.maxBytes - total) else {
                throw LottieError(path: "archive:\(path)", reason: "the archive inflates to more than \(LottieDocument.maxBytes >> 20) MiB")
            }
            var contents = Data()
            do {
                _ = try archive.extract(entry) { chunk in
                    total += chunk.count
                    // The sizes an archive declares may lie: the bytes inflated are what count.
                    guard total <= LottieDocument.maxBytes else { throw LottieError(path: "archive:\(path)", reason: "inflates past the limit") }
                    contents.append(chunk)
                }
            } catch let error as LottieError {
                throw LottieError(path: error.path, reason: "the archive inflates to more than \(LottieDocument.maxBytes >> 20) MiB")
            } catch {
                throw LottieError(path: "archive:\(path)", reason: "could not be inflated (\(error))")
            }
            files[path] = contents
        }
        self.files = files
        guard let manifestData = files["manifest.json"] else {
            throw LottieError(path: "archive", reason: "a dotLottie archive holds manifest.json, and this one has none")
        }
        let tape = try LottieJSONTape(data: manifestData, rootName: "manifest.json")
        let manifest = LottieNode(tape: tape)
        guard manifest.isObject, let list = try? manifest["animations"]?.array(), !list.isEmpty else {
            throw manifest.fail("the manifest lists no animations (\"animations\": [{\"id\": ...}])")
        }
        animationIDs = try list.map { try $0.optionalString("id") ?? "" }
    }

    /// The animation `id` (default: the manifest's first), with the archive's images.
    public func document(id: String? = nil) throws -> LottieDocument {
        let id = id ?? animationIDs[0]
        guard animationIDs.contains(id) else {
            throw LottieError(path: "manifest.json", reason: "no animation \"\(id)\" (it lists \(animationIDs.joined(separator: ", ")))")
        }
        guard let data = files["animations/\(id).json"] ?? files["a/\(id).json"] else {
            throw LottieError(path: "archive", reason: "the manifest lists \"\(id)\" but neither animations/\(id).json nor a/\(id).json is in it")
        }
        return try LottieDocument(data: data, images: .archive(files))
    }
}
