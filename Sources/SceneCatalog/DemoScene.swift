import Foundation
import OpenQuartzCore

/// A named layer tree of the built-in catalog: what `quartz demo` renders and what the scene
/// tests cross with every backend (after Skia's GM: a name, a size and a build function).
public struct DemoScene: Sendable, CustomStringConvertible {
    /// Identifier, also the file name of the scene's images (`[a-z0-9-]`).
    public let name: String
    /// One sentence: what a person should see.
    public let summary: String
    /// The rendered area, in points; the root layer's superlayer space from (0, 0).
    public let size: CGSize
    /// Device pixels per point.
    public let scale: CGFloat
    /// The media time the scene is shown at (animated scenes build their animations to start at
    /// media time 0).
    public let time: Double
    private let builder: @Sendable () -> CALayer

    public init(name: String, summary: String, size: CGSize, scale: CGFloat = 1, time: Double = 0,
                build: @escaping @Sendable () -> CALayer) {
        self.name = name
        self.summary = summary
        self.size = size
        self.scale = scale
        self.time = time
        builder = build
    }

    /// A fresh tree (layers are mutable; scenes must not share them), built with the media clock
    /// at 0 so that animations added with beginTime 0 start at media time 0.
    public func build() -> CALayer {
        MediaClock.$scoped.withValue(0) { builder() }
    }

    /// The scene as an image at `time` (default: the scene's own time).
    public func render(backend: RenderBackend, atTime t: Double? = nil) throws -> CGImage {
        try CARenderer.image(of: build(), bounds: bounds, scale: scale, backend: backend, atTime: t ?? time)
    }

    /// The rectangle a renderer shows.
    public var bounds: CGRect { CGRect(origin: .zero, size: size) }

    public var description: String { name }

    /// Every built-in scene, in the order the demo shows them.
    public static var all: [DemoScene] {
        GeometryScenes.all + ProjectionScenes.all + ContentsScenes.all + ContentsSamplingScenes.all + MaskScenes.all + RasterizationScenes.all + Scene3DScenes.all + ClipScenes.all + BlendModeScenes.all + EmitterScenes.all + TiledScenes.all + DrawingScenes.all + AnimationScenes.all
    }

    /// The scene called `name`.
    public static func named(_ name: String) -> DemoScene? { all.first { $0.name == name } }
}

/// Small helpers the scene files share.
enum SceneKit {
    static func color(_ r: CGFloat, _ g: CGFloat, _ b: CGFloat, _ a: CGFloat = 1) -> CGColor {
        CGColor(red: r, green: g, blue: b, alpha: a)
    }

    static let backdrop = CGColor(gray: 0.93, alpha: 1)

    /// A root layer filling the scene with the backdrop colour.
    static func root(_ size: CGSize, color: CGColor? = backdrop) -> CALayer {
        let root = CALayer()
        root.name = "root"
        root.bounds = CGRect(origin: .zero, size: size)
        root.position = CGPoint(x: size.width / 2, y: size.height / 2)
        root.backgroundColor = color
        return root
    }

    /// A small translucent square marking a point (start and end positions, keyframe values).
    static func marker(_ center: CGPoint, size: CGFloat = 6, color: CGColor = CGColor(gray: 0, alpha: 0.35)) -> CALayer {
        box("marker", CGRect(x: center.x - size / 2, y: center.y - size / 2, width: size, height: size), color)
    }

    /// A layer with a frame and a background colour.
    static func box(_ name: String, _ frame: CGRect, _ color: CGColor) -> CALayer {
        let layer = CALayer()
        layer.name = name
        layer.frame = frame
        layer.backgroundColor = color
        return layer
    }
}
