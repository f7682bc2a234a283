import Compositor
import Foundation
import OpenCoreGraphics

/// A render list written out completely and canonically, and its 64-bit digest: two lists have
/// the same text exactly when they draw the same thing with the same numbers, in one process or
/// another. What differs between processes is renamed in order of first use: image ids (a
/// process-wide counter; the image's size and pixel digest stand for it) and pass cache keys
/// (seeded hashes; which passes share a key is what counts); the layer numbers in op sources
/// (`CALayer <44841>`) are left out. Every floating-point number is
/// written as its bit pattern, so a change in the last bit shows.
struct RenderListFingerprint {
    private(set) var text = ""
    private var images: [UInt64: Int] = [:]
    private var imageOrder: [UInt64] = []
    private var cacheKeys: [Int: Int] = [:]

    init(_ list: RenderList) {
        text += "frame \(list.width)x\(list.height)\n"
        for pass in list.passes {
            let key = pass.cacheKey.map { "key#\(ordinal(ofKey: $0))" } ?? "-"
            text += "pass \(pass.id) \(pass.width)x\(pass.height) \(key)\n"
            for op in pass.ops {
                write(op)
                text += "\n"
            }
        }
        for (index, id) in imageOrder.enumerated() {
            let bitmap = list.textures[id]
            text += "image#\(index) " + (bitmap.map { "\($0.width)x\($0.height) \(Self.digest($0.pixels))" } ?? "missing") + "\n"
        }
        for note in list.diagnostics { text += "note \(note)\n" }
    }

    /// FNV-1a over the text: stable across processes and machines, unlike `Hasher`.
    var digest: String { Self.digest(Array(text.utf8)) }

    static func digest(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    private mutating func ordinal(ofKey key: Int) -> Int {
        if let known = cacheKeys[key] { return known }
        cacheKeys[key] = cacheKeys.count
        return cacheKeys.count - 1
    }

    private mutating func ordinal(ofImage id: UInt64) -> Int {
        if let known = images[id] { return known }
        images[id] = imageOrder.count
        imageOrder.append(id)
        return imageOrder.count - 1
    }

    /// `<digits>` in a source string (a layer's number, which can repeat once a layer is freed)
    /// becomes `<>`.
    private func withoutLayerNumbers(_ string: String) -> String {
        string.replacing(/<[0-9]+>/, with: "<>")
    }

    private mutating func write(_ value: Any) {
        switch value {
        case let number as Double: text += "d" + String(number.bitPattern, radix: 16)
        case let number as Float: text += "f" + String(number.bitPattern, radix: 16)
        case let number as CGFloat: text += "d" + String(Double(number).bitPattern, radix: 16)
        case let source as TextureSource:
            switch source {
            case .image(let id): text += "image#\(ordinal(ofImage: id))"
            case .pass(let id): text += "pass#\(id)"
            }
        // A draw's source as its text: the layer's identity is a process's address.
        case let source as DrawSource: text += withoutLayerNumbers(source.description).debugDescription
        case let scalar as any BinaryInteger: text += "\(scalar)"
        case let flag as Bool: text += flag ? "true" : "false"
        case let string as String: text += withoutLayerNumbers(string).debugDescription
        default:
            let mirror = Mirror(reflecting: value)
            switch mirror.displayStyle {
            case .enum where mirror.children.isEmpty:
                text += "\(mirror.subjectType).\(value)"
            case .dictionary, .set:
                // Unordered: each element on its own, then sorted.
                var elements: [String] = []
                for child in mirror.children {
                    var element = RenderListFingerprint(partOf: self)
                    element.write(child.value)
                    elements.append(element.text)
                    adopt(element)
                }
                text += "{" + elements.sorted().joined(separator: ",") + "}"
            default:
                text += "\(mirror.subjectType)("
                for child in mirror.children {
                    text += (child.label ?? "") + ":"
                    write(child.value)
                    text += " "
                }
                text += ")"
            }
        }
    }

    /// A fingerprint for one element of an unordered collection that shares the renamings.
    private init(partOf other: RenderListFingerprint) {
        images = other.images
        imageOrder = other.imageOrder
        cacheKeys = other.cacheKeys
    }

    private mutating func adopt(_ element: RenderListFingerprint) {
        images = element.images
        imageOrder = element.imageOrder
        cacheKeys = element.cacheKeys
    }
}
