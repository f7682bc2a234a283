import Foundation

// An ImageIO-style API over ImageDecoder, so ports of Apple code (seed 000's GIF flip book)
// compile: sources made from a URL or data, a frame count, frames by index, per-frame delays.
// Apple's functions return nil on failure; `CGImageSource.error` says why.

/// Keys of image properties, with ImageIO's names.
public let kCGImagePropertyPixelWidth = "PixelWidth"
public let kCGImagePropertyPixelHeight = "PixelHeight"
public let kCGImagePropertyGIFDictionary = "{GIF}"
public let kCGImagePropertyGIFDelayTime = "DelayTime"

/// Decoded frames of one file or buffer.
public final class CGImageSource: @unchecked Sendable {
    /// The frames, or nil when decoding failed.
    public let frames: [DecodedFrame]?
    /// Why decoding failed, naming the source.
    public let error: ImageIOError?

    init(data: Data, source: String) {
        do {
            frames = try ImageDecoder.decode(data, source: source)
            error = nil
        } catch let failure as ImageIOError {
            frames = nil
            error = failure
        } catch {
            frames = nil
            self.error = .undecodable(source: source, reason: "\(error)")
        }
    }

    init(error: ImageIOError) {
        frames = nil
        self.error = error
    }
}

/// A source for the file at `url`, or nil when it cannot be read.
public func CGImageSourceCreateWithURL(_ url: URL, _ options: [String: Any]?) -> CGImageSource? {
    guard let data = try? Data(contentsOf: url) else { return nil }
    return CGImageSource(data: data, source: url.path)
}

/// A source for image bytes.
public func CGImageSourceCreateWithData(_ data: Data, _ options: [String: Any]?) -> CGImageSource? {
    CGImageSource(data: data, source: "<data>")
}

/// The number of frames (0 when the source could not be decoded).
public func CGImageSourceGetCount(_ source: CGImageSource) -> Int { source.frames?.count ?? 0 }

/// Frame `index` as composited for display, or nil past the last frame.
public func CGImageSourceCreateImageAtIndex(_ source: CGImageSource, _ index: Int, _ options: [String: Any]?) -> CGImage? {
    guard let frames = source.frames, frames.indices.contains(index) else { return nil }
    return frames[index].image
}

/// Size and, for animations, the delay of frame `index`.
public func CGImageSourceCopyPropertiesAtIndex(_ source: CGImageSource, _ index: Int, _ options: [String: Any]?) -> [String: Any]? {
    guard let frames = source.frames, frames.indices.contains(index) else { return nil }
    let frame = frames[index]
    var properties: [String: Any] = [kCGImagePropertyPixelWidth: frame.image.width,
                                     kCGImagePropertyPixelHeight: frame.image.height]
    if frames.count > 1 || frame.delay > 0 {
        properties[kCGImagePropertyGIFDictionary] = [kCGImagePropertyGIFDelayTime: frame.delay]
    }
    return properties
}

/// Collects images to write; PNG only ("public.png"), one image.
public final class CGImageDestination: @unchecked Sendable {
    let url: URL
    var image: CGImage?
    init(url: URL) { self.url = url }
}

/// A destination writing PNG to `url`; nil for other types.
public func CGImageDestinationCreateWithURL(_ url: URL, _ type: String, _ count: Int, _ options: [String: Any]?) -> CGImageDestination? {
    guard type == "public.png", count == 1 else { return nil }
    return CGImageDestination(url: url)
}

public func CGImageDestinationAddImage(_ destination: CGImageDestination, _ image: CGImage, _ properties: [String: Any]?) {
    destination.image = image
}

/// Writes the image (atomically); false when there is none or writing failed.
public func CGImageDestinationFinalize(_ destination: CGImageDestination) -> Bool {
    guard let image = destination.image else { return false }
    return (try? image.writePNG(to: destination.url)) != nil
}
