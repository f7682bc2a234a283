import Foundation

/// Why an image could not be read or written. Every case names the file or source it concerns.
public enum ImageIOError: Error, Equatable, CustomStringConvertible {
    /// The file could not be opened or read.
    case unreadable(source: String, reason: String)
    /// The bytes are not a decodable image; `reason` is the decoder's own message.
    case undecodable(source: String, reason: String)
    /// The image's declared size is beyond `ImageLimits`.
    case tooLarge(source: String, reason: String)
    /// The image could not be encoded or written.
    case unwritable(destination: String, reason: String)

    public var description: String {
        switch self {
        case let .unreadable(source, reason): "cannot read image \(source): \(reason)"
        case let .undecodable(source, reason): "cannot decode image \(source): \(reason)"
        case let .tooLarge(source, reason): "image \(source) is too large: \(reason)"
        case let .unwritable(destination, reason): "cannot write image \(destination): \(reason)"
        }
    }
}

extension ImageLimits {
    /// Throws when a decoder's declared size is refused: an empty one as damage (`undecodable`),
    /// one past the limits as `tooLarge` — before any pixel memory is allocated. `what` names
    /// the part ("logical screen", "frame 3: ").
    static func check(width: Int, height: Int, source: String, what: String = "") throws {
        guard let violation = violation(width: width, height: height) else { return }
        if width <= 0 || height <= 0 { throw ImageIOError.undecodable(source: source, reason: what + violation) }
        throw ImageIOError.tooLarge(source: source, reason: what + violation)
    }
}
