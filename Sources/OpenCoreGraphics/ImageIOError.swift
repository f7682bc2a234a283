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
