import Compositor
import Foundation
import LayerModel
import OpenCoreGraphics
import RasterBackend

/// Renders a layer tree offscreen, frame by frame, on the GPU (GLES 3 through EGL) or on the CPU
/// reference rasterizer. The Apple API's frame cycle is kept:
///
///     let renderer = CARenderer(backend: .gpu, scale: 2)
///     renderer.layer = root
///     renderer.bounds = CGRect(x: 0, y: 0, width: 320, height: 240)
///     renderer.beginFrame(atTime: 0)
///     renderer.render()
///     renderer.endFrame()
///     let image = try renderer.makeImage()
///
/// `render()` does not throw (as Apple's does not); a failure is kept and thrown by `makeImage()`.
public final class CARenderer {
    /// The root of the tree to render. Default: nil.
    public var layer: CALayer?
    /// The rectangle of the root layer's superlayer space that the image shows. Default: `.zero`.
    public var bounds: CGRect = .zero
    /// Which executor draws. Fixed at creation.
    public let backend: RenderBackend
    /// Device pixels per point. Fixed at creation. Default: 1.
    public let scale: CGFloat

    /// Whether every frame is drawn whole. Default: false: a frame is drawn over the one before
    /// it, only where the two can differ (`updateBounds()`), with the same bytes as drawn whole.
    public var redrawsWholeFrames = false

    private var frameTime: Double = 0
    private var nextChange: Double = .infinity
    private let presentationCache = PresentationCache()
    /// Shape outlines kept from one frame to the next (the same lists, made once per path).
    private let outlineCache = ShapeOutlineCache()
    private var outcome: Result<Bitmap, RenderError>?
    /// The last frame drawn, and the list it was drawn from: what the next frame's damage is
    /// worked out against and drawn over.
    private var drawn: (list: RenderList, frame: Bitmap)?
    /// The current frame's list, where `updateBounds()` made it before `render()`.
    private var prepared: RenderList?
    /// The current frame's update region in device pixels: its damage and what `addUpdate`
    /// added; `nil` where nothing is to be drawn, worked out once per frame.
    private var update: PixelRect??
    /// Rectangles `addUpdate` added this frame, in device pixels.
    private var added: PixelRect?
    /// The render list of the last frame, for inspection and tests.
    public private(set) var lastRenderList: RenderList?

    /// Rasterized layers kept across this renderer's frames on the CPU backend (the GL backend
    /// keeps its own on the device).
    public let rasterCache = RasterPassCache()

    public init(backend: RenderBackend = .cpu, scale: CGFloat = 1) {
        self.backend = backend
        self.scale = scale
    }

    /// Starts a frame at media time `t` (seconds), and sets the media clock
    /// (`CACurrentMediaTime()`) to it, so animations added now begin at `t`.
    public func beginFrame(atTime t: Double) {
        frameTime = t
        prepared = nil
        update = nil
        added = nil
        if t.isFinite { MediaClock.set(t) }
    }

    /// Apple's spelling, whose second argument is a Core Video time stamp (which does not exist
    /// here): the time stamp is ignored, `t` starts the frame.
    public func beginFrame(atTime t: CFTimeInterval, timeStamp ts: UnsafeMutableRawPointer?) {
        beginFrame(atTime: t)
    }

    /// Adds `r` (in the coordinates of `bounds`) to the current frame's update region: its
    /// pixels are drawn again by `render()` whether or not they changed.
    public func addUpdate(_ r: CGRect) {
        guard let pixels = devicePixels(of: r) else { return }
        added = added.map { $0.union(pixels) } ?? pixels
        if case .some(let region) = update { update = .some(region.map { $0.union(pixels) } ?? pixels) }
    }

    /// The bounds of the current frame's update region, in the coordinates of `bounds`: every
    /// pixel that can differ from the frame rendered before (worked out from the two frames'
    /// render lists: what moved, changed, came or went, with its shadow's and blur's reach), and
    /// what `addUpdate(_:)` added. All of `bounds` for a first frame, a new size, or with
    /// `redrawsWholeFrames`; `.null` where nothing changed. Call after `beginFrame(atTime:)`:
    /// it makes the frame's render list, which `render()` then draws.
    public func updateBounds() -> CGRect {
        // A frame that cannot be made is drawn whole (and fails in render()).
        let result = Result { try updateRegion() }
        guard case .success(let made) = result else { return bounds }
        guard let region = made else { return .null }
        let scale = Double(self.scale)
        return CGRect(x: bounds.minX + Double(region.minX) / scale, y: bounds.minY + Double(region.minY) / scale,
                      width: Double(region.width) / scale, height: Double(region.height) / scale)
    }

    /// The update region in device pixels (nil: nothing to draw), the frame's list made first
    /// where it is not yet.
    private func updateRegion() throws -> PixelRect? {
        if case .some(let region) = update { return region }
        let list = try prepared ?? makeRenderList()
        prepared = list
        let whole = PixelRect(minX: 0, minY: 0, maxX: list.width, maxY: list.height)
        var region: PixelRect?
        if redrawsWholeFrames || drawn == nil || drawn?.list.width != list.width || drawn?.list.height != list.height {
            region = list.width > 0 && list.height > 0 ? whole : nil
        } else if let drawn {
            region = list.damage(since: drawn.list)
        }
        if let added { region = (region.map { $0.union(added) } ?? added).intersection(whole) }
        update = .some(region)
        return region
    }

    /// The device pixels of `r` (in the coordinates of `bounds`), widened to whole pixels.
    private func devicePixels(of r: CGRect) -> PixelRect? {
        let scale = Double(self.scale)
        guard !r.isNull, !r.isEmpty, r.minX.isFinite, r.minY.isFinite, r.maxX.isFinite, r.maxY.isFinite else { return nil }
        func pixel(_ v: Double) -> Int { Int(max(min(v, 1e9), -1e9)) }
        return PixelRect(minX: pixel(((r.minX - bounds.minX) * scale).rounded(.down)),
                         minY: pixel(((r.minY - bounds.minY) * scale).rounded(.down)),
                         maxX: pixel(((r.maxX - bounds.minX) * scale).rounded(.up)),
                         maxY: pixel(((r.maxY - bounds.minY) * scale).rounded(.up)))
    }

    /// When anything changes next, after the last `render()`: the frame time while something
    /// animates, a later animation's start, or infinity when nothing will change.
    public func nextFrameTime() -> Double { nextChange }

    /// Composites the tree and executes the frame on the backend.
    public func render() {
        do {
            let region = try updateRegion()
            let list = prepared!
            // A second render() of the frame makes its list again.
            prepared = nil
            update = nil
            let frame: Bitmap
            if let drawn, drawn.list.width == list.width, drawn.list.height == list.height, !redrawsWholeFrames {
                // Only the damage, over the frame before; with none, that frame as it is.
                frame = try region.map { try backend.draw(list, cache: rasterCache, over: (drawn.frame, $0)) } ?? drawn.frame
            } else {
                frame = try backend.draw(list, cache: rasterCache)
            }
            drawn = (list, frame)
            outcome = .success(frame)
        } catch let error as RenderError {
            drawn = nil
            outcome = .failure(error)
        } catch {
            drawn = nil
            outcome = .failure(.gpu(.noContext("\(error)")))
        }
    }

    /// The frame's render list, made as `render()` makes it (the implicit transaction commits,
    /// animations advance to the frame time) but not drawn: for inspecting what a frame consists
    /// of, and for tests that hold render lists fixed. Kept as `lastRenderList`.
    public func makeRenderList() throws -> RenderList {
        guard let layer else { throw RenderError.noLayer }
        guard frameTime.isFinite else { throw RenderError.invalidTime(frameTime) }
        do {
            // Taking a frame commits the implicit transaction; delegates hear of starts and ends;
            // then the frame shows the tree at its time, and the layers drawn animate from now on.
            // The tree is read under the transaction lock, which every layer change takes, so
            // other threads may change layers while frames render; executing the list needs no lock.
            let list = try CATransaction.withLock { () throws -> RenderList in
                CATransaction.flush()
                layer.displayTreeIfNeeded()
                nextChange = layer.advanceAnimations(toMediaTime: frameTime)
                defer { layer.markLive() }
                let tree = layer.hasAnimationsInSubtree
                    ? layer.presentationTree(atMediaTime: frameTime, reusing: presentationCache) : layer
                var builder = RenderListBuilder(viewport: bounds, scale: scale)
                builder.outlineCache = outlineCache
                return try builder.build(root: tree)
            }
            lastRenderList = list
            return list
        } catch let error as CompositorError {
            throw RenderError.compositing(error)
        }
    }

    /// Ends the frame.
    public func endFrame() {}

    /// The last rendered frame.
    public func makeImage() throws -> CGImage {
        guard let outcome else { throw RenderError.noFrame }
        return CGImage(bitmap: try outcome.get())
    }

    /// The frame times from `t0` to `t1` (inclusive where it falls on a frame) at `fps`.
    public static func frameTimes(from t0: Double, to t1: Double, fps: Double) throws -> [Double] {
        guard t0.isFinite, t1.isFinite, t1 >= t0 else {
            throw RenderError.invalidFrameRange("from \(t0) to \(t1) is not a finite, ascending time range")
        }
        guard fps.isFinite, fps > 0 else { throw RenderError.invalidFrameRange("\(fps) frames per second is not a positive number") }
        let span = (t1 - t0) * fps
        guard span < Double(maxFrames) else {
            throw RenderError.invalidFrameRange("\(String(format: "%.0f", (span + 1).rounded(.down))) frames exceed the limit of \(maxFrames)")
        }
        // Frame i at t0 + i / fps, computed from i (never accumulated) so times do not drift.
        return (0...Int((span + 1e-9).rounded(.down))).map { t0 + Double($0) / fps }
    }

    /// Most frames one sequence may have. Default: 1,000,000.
    public static let maxFrames = 1_000_000

    /// Renders the frames from `t0` to `t1` at `fps`, handing each to `body` with its index and
    /// time as it is made (frames are not kept). Before each frame, scheduled `CADisplayLink`s
    /// are fired with its time and 1 / fps as their duration.
    public func renderFrames(from t0: Double, to t1: Double, fps: Double,
                             _ body: (_ index: Int, _ time: Double, _ image: CGImage) throws -> Void) throws {
        for (index, t) in try CARenderer.frameTimes(from: t0, to: t1, fps: fps).enumerated() {
            beginFrame(atTime: t)
            // Display links see the frame's time first, as on a screen they run before it is made.
            MediaClock.$scoped.withValue(t) { DisplayLinks.fire(frameAt: t, duration: 1 / fps) }
            render()
            endFrame()
            try body(index, t, try makeImage())
        }
    }

    /// One call: `layer` and its sublayers at time `t`, as an image of `bounds` (default: the
    /// layer's frame) at `scale`.
    public static func image(of layer: CALayer, bounds: CGRect? = nil, scale: CGFloat = 1,
                             backend: RenderBackend = .cpu, atTime t: Double = 0) throws -> CGImage {
        let renderer = CARenderer(backend: backend, scale: scale)
        renderer.layer = layer
        renderer.bounds = bounds ?? layer.frame
        renderer.beginFrame(atTime: t)
        renderer.render()
        renderer.endFrame()
        return try renderer.makeImage()
    }
}

extension CALayer {
    /// This layer and its sublayers as an image of its frame (or `bounds`, in the superlayer's
    /// space), at `scale`, on `backend`, at time `t`.
    public func renderedImage(bounds: CGRect? = nil, scale: CGFloat = 1, backend: RenderBackend = .cpu,
                              atTime t: Double = 0) throws -> CGImage {
        try CARenderer.image(of: self, bounds: bounds, scale: scale, backend: backend, atTime: t)
    }
}
