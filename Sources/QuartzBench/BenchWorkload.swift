import Foundation
import OpenQuartzCore

/// One workload of `quartz bench`: a family of animated layer trees with one complexity knob
/// (MotionMark's "stage"), such as the number of cards on screen. Every frame differs: the
/// layers animate, and a workload may change its model before each frame as an app would
/// (`update`: new image contents every frame).
public struct BenchWorkload: Sendable, CustomStringConvertible {
    /// Identifier on the command line and in reports (`[a-z0-9-]`).
    public let name: String
    /// One sentence: what the workload draws and what it stresses.
    public let summary: String
    /// What the complexity counts ("cards", "groups").
    public let unit: String
    /// The complexity of the fixed-complexity run: the same on every machine, so its frame times
    /// compare across machines and drivers.
    public let fixedComplexity: Int
    /// Where the ramp starts.
    public let startComplexity: Int
    private let builder: @Sendable (_ complexity: Int, _ root: CALayer) -> Void
    private let updater: (@Sendable (_ root: CALayer, _ frame: Int) -> Void)?

    /// The rendered area, in points at scale 1: every workload draws a 1280x720 frame.
    public static let size = CGSize(width: 1280, height: 720)

    public init(name: String, summary: String, unit: String, fixedComplexity: Int, startComplexity: Int = 8,
                build: @escaping @Sendable (_ complexity: Int, _ root: CALayer) -> Void,
                update: (@Sendable (_ root: CALayer, _ frame: Int) -> Void)? = nil) {
        self.name = name
        self.summary = summary
        self.unit = unit
        self.fixedComplexity = fixedComplexity
        self.startComplexity = startComplexity
        builder = build
        updater = update
    }

    /// A fresh tree at `complexity` (at least 1), built with the media clock at 0 so that its
    /// animations start at media time 0.
    public func build(complexity: Int) -> CALayer {
        MediaClock.$scoped.withValue(0) {
            let root = CALayer()
            root.frame = CGRect(origin: .zero, size: BenchWorkload.size)
            root.backgroundColor = CGColor(red: 0.95, green: 0.95, blue: 0.97, alpha: 1)
            builder(max(complexity, 1), root)
            return root
        }
    }

    /// The model changes an app makes before frame `frame`, if the workload has any.
    public func update(_ root: CALayer, frame: Int) {
        updater?(root, frame)
    }

    public var description: String { name }
}
