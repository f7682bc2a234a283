import Foundation
import OpenQuartzCore

/// A scene document (format "openquartz-scene", version 1): a layer tree with its animations, and
/// transactions that change it at given times, with the size, scale and times to render at.
/// Loading checks everything and reports every mistake at once; `makePlayer()` builds a fresh
/// tree each time, so one document renders any number of times, in any order, identically.
///
/// ```json
/// {
///   "format": "openquartz-scene", "version": 1, "size": [320, 240],
///   "root": {"backgroundColor": "#ffffff", "sublayers": [
///     {"name": "card", "frame": [60, 40, 200, 160], "backgroundColor": "#3366cc", "cornerRadius": 12,
///      "animations": [{"keyPath": "transform.rotation.z", "fromValue": 0, "toValue": 6.283, "duration": 2}]}
///   ]},
///   "transactions": [{"time": 1, "duration": 0.5, "changes": [{"layer": "card", "set": {"opacity": 0.3}}]}]
/// }
/// ```
public struct SceneDocument: Sendable {
    public static let format = "openquartz-scene"
    public static let version = 1

    /// The area rendered, in points: the root layer's superlayer space from (0, 0).
    public let size: CGSize
    /// Device pixels per point.
    public let scale: CGFloat
    /// The time a still is rendered at, in seconds.
    public let time: Double
    /// How long the scene runs, for animations rendered without an explicit end (0: a still).
    public let duration: Double
    /// Frames per second for animations rendered without an explicit rate.
    public let fps: Double

    let json: JSONValue
    /// Where the document's images are read from, and nothing outside it.
    let assets: AssetFolder?
    let limits: SceneLimits
    /// The images read, by the path the document names them with: every player shares them, so
    /// each is decoded (and uploaded to the GPU) once.
    let images: [String: CGImage]

    /// Reads and checks the document at `url` (a link is followed). Its images are read from
    /// inside `assets`, by default the folder the document is in (its real folder, when `url` is
    /// a link): a path that is absolute, climbs out with `..` or leads out through a link is
    /// refused like a missing file.
    public static func load(contentsOf url: URL, assets: URL? = nil, limits: SceneLimits = .standard) throws(SceneError) -> SceneDocument {
        let file = try readFile(url, maxBytes: limits.maxFileBytes)
        return try SceneDocument(data: file.data, baseDirectory: assets ?? file.folder, limits: limits)
    }

    /// Reads and checks a document from an open file (standard input, a pipe), at most
    /// `limits.maxFileBytes` of it; images are read from inside `assets`.
    public static func read(fileDescriptor: Int32, name: String, assets: URL?, limits: SceneLimits = .standard) throws(SceneError) -> SceneDocument {
        try SceneDocument(data: try readAll(fileDescriptor: fileDescriptor, name: name, maxBytes: limits.maxFileBytes),
                          baseDirectory: assets, limits: limits)
    }

    /// The bytes of the regular file at `url` (a link is followed), at most `maxBytes`, and the
    /// real folder it is in. Also what reads documents of other formats (`quartz` reads Lottie
    /// files through it) with a scene document's errors.
    public static func readFile(_ url: URL, maxBytes: Int) throws(SceneError) -> (data: Data, folder: URL) {
        guard let real = AssetFolder.realPath(url.path) else {
            throw SceneError.unreadable(path: url.path, reason: "no such file (\(String(cString: strerror(errno))))")
        }
        var info = stat()
        guard stat(real, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            throw SceneError.unreadable(path: url.path, reason: "not a regular file")
        }
        guard Int(info.st_size) <= maxBytes else {
            throw SceneError.unreadable(path: url.path, reason: "the file is \(info.st_size) bytes, more than the limit of \(maxBytes)")
        }
        guard let data = FileManager.default.contents(atPath: real) else {
            throw SceneError.unreadable(path: url.path, reason: "the file could not be read")
        }
        return (data, URL(fileURLWithPath: real).deletingLastPathComponent())
    }

    /// Everything an open file (standard input, a pipe) holds, at most `maxBytes`.
    public static func readAll(fileDescriptor: Int32, name: String, maxBytes: Int) throws(SceneError) -> Data {
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fileDescriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw SceneError.unreadable(path: name, reason: String(cString: strerror(errno))) }
            if count == 0 { break }
            data.append(contentsOf: chunk[0..<count])
            guard data.count <= maxBytes else {
                throw SceneError.unreadable(path: name, reason: "more than the limit of \(maxBytes) bytes")
            }
        }
        return data
    }

    /// Checks the document in `data`; images are read from inside `baseDirectory` (none without it).
    public init(data: Data, baseDirectory: URL? = nil, limits: SceneLimits = .standard) throws(SceneError) {
        guard data.count <= limits.maxFileBytes else {
            throw SceneError.unreadable(path: "document", reason: "\(data.count) bytes, more than the limit of \(limits.maxFileBytes)")
        }
        let json = try JSONReader.read(data)
        self.json = json
        let assets = baseDirectory.flatMap(AssetFolder.init)
        if let baseDirectory, assets == nil {
            throw SceneError.unreadable(path: baseDirectory.path, reason: "the assets folder does not exist")
        }
        self.assets = assets
        self.limits = limits
        var ctx = DecodeContext(assets: assets, limits: limits)
        let header = SceneDocument.header(json, &ctx)
        size = header.size
        scale = header.scale
        time = header.time
        duration = header.duration
        fps = header.fps
        // A first full decode finds every mistake in the tree and the transactions; its tree is
        // thrown away, and its animations with it (not left in this thread's open transaction).
        var decoder = SceneDecoder(assets: assets, limits: limits)
        decoder.ctx.take(ctx)
        _ = CATransaction.discardingAnimations { decoder.scene(json) }
        if decoder.ctx.issueCount > 0 { throw SceneError.invalid(decoder.ctx.allIssues) }
        images = decoder.ctx.images
    }

    private struct Header {
        var size = CGSize(width: 320, height: 240), scale: CGFloat = 1, time = 0.0, duration = 0.0, fps = 30.0
    }

    private static func header(_ json: JSONValue, _ ctx: inout DecodeContext) -> Header {
        var header = Header()
        guard case .object = json else { return header }
        let limits = ctx.limits
        if let value = json["size"], let size = SceneValueCodec.decode(value, as: .size, at: "size", &ctx) as? CGSize {
            if size.width > 0, size.height > 0, size.width <= CGFloat(limits.maxSide), size.height <= CGFloat(limits.maxSide) {
                header.size = size
            } else {
                ctx.fail("size", "expected a width and height from 1 to \(limits.maxSide), got [\(SceneValueKind.format(size.width)), \(SceneValueKind.format(size.height))]")
            }
        }
        if let value = json["scale"], let s = SceneValueCodec.decode(value, as: .bounded(min: 0.01, max: 16, integral: false), at: "scale", &ctx) as? CGFloat {
            header.scale = s
        }
        if let value = json["time"], let t = SceneValueCodec.decode(value, as: .bounded(min: 0, max: limits.maxDuration, integral: false), at: "time", &ctx) as? CGFloat {
            header.time = Double(t)
        }
        if let value = json["duration"], let d = SceneValueCodec.decode(value, as: .bounded(min: 0, max: limits.maxDuration, integral: false), at: "duration", &ctx) as? CGFloat {
            header.duration = Double(d)
        }
        if let value = json["fps"], let f = SceneValueCodec.decode(value, as: .bounded(min: 0.1, max: 240, integral: false), at: "fps", &ctx) as? CGFloat {
            header.fps = Double(f)
        }
        let pixels = Double(header.size.width * header.scale) * Double(header.size.height * header.scale)
        if pixels > Double(limits.maxPixels) {
            ctx.fail("size", "the scene is \(Int(pixels)) pixels at scale \(SceneValueKind.format(header.scale)), more than the limit of \(limits.maxPixels)")
        }
        return header
    }

    /// A fresh layer tree for this document, with its transactions ready to run.
    public func makePlayer() -> ScenePlayer {
        var decoder = SceneDecoder(assets: assets, limits: limits)
        decoder.ctx.images = images
        for (path, image) in images { decoder.ctx.imagePaths[image.identifier] = path }
        let scene = decoder.scene(json)!
        return ScenePlayer(scene: scene, imagePaths: decoder.ctx.imagePaths, latestTime: limits.maxDuration)
    }
}

extension SceneDecoder {
    /// The whole document: its header members checked, the tree and the transactions decoded.
    mutating func scene(_ json: JSONValue) -> DecodedScene? {
        guard case .object(let members) = json else {
            ctx.fail("document", "expected a scene object {\"format\": \"\(SceneDocument.format)\", \"version\": 1, ...}, got \(json.kindName)")
            return nil
        }
        checkKeys(members, known: SceneDecoder.documentKeys, at: "", what: "a scene document")
        if let format = json["format"], format != .string(SceneDocument.format) {
            ctx.fail("format", "expected \"\(SceneDocument.format)\", got \(format.stringValue.map { "\"\($0)\"" } ?? format.kindName)")
        }
        switch json["version"] {
        case .number(let v)? where v == Double(SceneDocument.version): break
        case .number(let v)?: ctx.fail("version", "this is version \(SceneValueKind.format(v)); OpenQuartz reads version \(SceneDocument.version)")
        case let other?: ctx.expected(.number, at: "version", got: other)
        case nil: ctx.fail("version", "a scene document says its version: \"version\": \(SceneDocument.version)")
        }
        guard let rootJSON = json["root"] else {
            ctx.fail("root", "a scene document needs a root layer")
            return nil
        }
        let root = layer(rootJSON, at: "root", depth: 0) ?? CALayer()
        var transactions: [(time: Double, transaction: SceneTransaction)] = []
        if let value = json["transactions"] {
            if case .array(let items) = value {
                let limits = ctx.limits
                if items.count > ctx.limits.maxTransactions {
                    ctx.fail("transactions", "\(items.count) transactions, more than the limit of \(limits.maxTransactions)")
                } else {
                    for (i, item) in items.enumerated() {
                        if let (time, transaction) = transaction(item, at: "transactions[\(i)]", timed: true) {
                            transactions.append((time, transaction))
                        }
                    }
                }
            } else { ctx.fail("transactions", "expected an array of transactions, got \(value.kindName)") }
        }
        // Transactions at the same time run in document order.
        let ordered = transactions.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
        return DecodedScene(root: root, transactions: ordered)
    }
}
