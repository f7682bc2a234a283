import Foundation
import LayerModel
import OpenCoreGraphics

/// A Lottie (Bodymovin) animation, read from its JSON, made into a Core Animation layer tree with
/// animations (`makeLayer()`), as lottie-ios's Core Animation engine makes one: the same layers
/// and properties, so Core Animation's own rules draw it.
public final class LottieDocument {
    /// The composition's size in points.
    public let width: Double, height: Double
    /// Frames a second, and the first and end frame of the animation (Lottie's ip and op).
    public let frameRate: Double, inFrame: Double, outFrame: Double
    /// What was read and not drawn (text layers, repeaters, expressions, ...), by JSON path.
    public private(set) var warnings: [String] = []

    let root: LottieNode
    let assets: [String: LottieNode]
    /// Where image files come from (images embedded as data URLs need none).
    let images: LottieImages

    /// Largest document read, in bytes, and deepest nesting of precompositions.
    public static let maxBytes = 64 << 20
    public static let maxPrecompDepth = 16
    public static let maxLayers = 20_000
    /// Most sampled values one `makeLayer()` may work out (LottieSampleBudget.swift); lottie-ios's
    /// samples take at most 205,155.
    public static let maxSamples = 5_000_000

    /// Reads the document in `data`; image files it names are read from inside `assets` (an
    /// absolute path, one climbing out with `..` or leading out through a link is refused like a
    /// missing file), and without it only images embedded as data URLs are drawn.
    public convenience init(data: Data, assets: URL? = nil) throws {
        try self.init(json: try Self.parse(data), assets: assets)
    }

    /// The document as `parse(_:)` read it (a caller that parsed the file to tell what it is need
    /// not parse it again); see `init(data:assets:)`.
    public convenience init(json: LottieJSONTape, assets: URL? = nil) throws {
        var images = LottieImages.none
        if let assets {
            guard let folder = AssetFolder(assets) else { throw LottieError(path: assets.path, reason: "the assets folder does not exist") }
            images = .folder(folder)
        }
        try self.init(json: json, images: images)
    }

    /// `data` as JSON, within the size limit.
    public static func parse(_ data: Data) throws -> LottieJSONTape {
        guard data.count <= Self.maxBytes else { throw LottieError(path: "$", reason: "the document is over \(Self.maxBytes >> 20) MiB") }
        return try LottieJSONTape(data: data)
    }

    convenience init(data: Data, images: LottieImages) throws {
        try self.init(json: try Self.parse(data), images: images)
    }

    init(json: LottieJSONTape, images: LottieImages) throws {
        root = LottieNode(tape: json)
        guard root.isObject else { throw root.fail("a Lottie document is a JSON object") }
        width = try root["w"]?.number() ?? 0
        height = try root["h"]?.number() ?? 0
        frameRate = try root["fr"]?.number() ?? 0
        inFrame = try root["ip"]?.number() ?? 0
        outFrame = try root["op"]?.number() ?? 0
        guard width > 0, height > 0, width <= 100_000, height <= 100_000 else {
            throw root.fail("\"w\" and \"h\" must be sizes between 0 and 100,000 points")
        }
        guard frameRate > 0, frameRate <= 1000 else { throw root.fail("\"fr\" must be a frame rate between 0 and 1,000") }
        guard outFrame >= inFrame else { throw root.fail("\"op\" comes before \"ip\"") }
        guard root["layers"] != nil else { throw root.fail("a Lottie document needs \"layers\"") }
        var table: [String: LottieNode] = [:]
        for asset in try root["assets"]?.array() ?? [] {
            if let id = try asset.optionalString("id") { table[id] = asset }
        }
        self.assets = table
        self.images = images
    }

    /// Reads the document at `url`; its image files are read from inside `assets`, by default the
    /// document's own folder.
    public convenience init(contentsOf url: URL, assets: URL? = nil) throws {
        try self.init(data: try Data(contentsOf: url), assets: assets ?? url.deletingLastPathComponent())
    }

    /// The frame shown at `progress` (0...1) of the animation, as lottie-ios's progress.
    public func frame(atProgress progress: Double) -> Double { inFrame + progress * (outFrame - inFrame) }

    /// The root layer (bounds `width` x `height`) with every animation attached, in frames over
    /// the frame rate from frame 0. Pause it at a frame as lottie-ios does: `speed = 0`,
    /// `timeOffset = frame / frameRate`. `maxSamples` bounds the values worked out for sampled
    /// animations (a server may lower it); a document that needs more is refused.
    public func makeLayer(maxSamples: Int = LottieDocument.maxSamples) throws -> CALayer {
        warnings = []
        let layer = CALayer()
        layer.bounds = CGRect(x: 0, y: 0, width: width, height: height)
        layer.anchorPoint = .zero
        layer.masksToBounds = true
        let budget = LottieSampleBudget(limit: maxSamples)
        var builder = LottieAnimationBuilder(frameRate: frameRate, budget: budget)
        builder.timeline = inFrame...max(inFrame, outFrame)
        try LottieCompositionBuilder(document: self, builder: builder, layersBuilt: .init(),
                                     depth: 0).build(try root["layers"]!.array(), size: CGSize(width: width, height: height), into: layer)
        if let place = budget.exhaustedAt {
            throw LottieError(path: "$.layers", reason: "the animation needs more than \(maxSamples) sampled values "
                + "(layers x animated properties x frames); the budget ran out at the \(place)")
        }
        return layer
    }

    /// The glyph outlines of `$.chars`, read on first use (only text in a missing font needs them).
    private(set) lazy var glyphTable = LottieGlyphTable(document: self)

    func warn(_ message: String) {
        if !warnings.contains(message) { warnings.append(message) }
    }
}

/// Where a document's image files are read from.
enum LottieImages {
    /// Nowhere: only images embedded as data URLs are drawn.
    case none
    /// A folder, and nothing outside it (AssetFolder).
    case folder(AssetFolder)
    /// A dotLottie archive's files, by path.
    case archive([String: Data])

    /// The bytes of the image an asset names by folder `u` and file `p` (Bodymovin writes
    /// "images/" and "img_0.png"; dotLottie archives "/images/"), at most `maxBytes`.
    func data(folder u: String, file p: String, maxBytes: Int) -> Data? {
        var directory = u.hasPrefix("/") ? String(u.dropFirst()) : u
        if !directory.isEmpty, !directory.hasSuffix("/") { directory += "/" }
        switch self {
        case .none: return nil
        case .folder(let folder):
            guard let file = folder.file(directory + p), file.bytes <= maxBytes else { return nil }
            return FileManager.default.contents(atPath: file.url.path)
        case .archive(let files):
            // An archive's animation names its images as the folder it was made in had them.
            return files[directory + p] ?? files["images/" + p] ?? files["i/" + p]
        }
    }
}
