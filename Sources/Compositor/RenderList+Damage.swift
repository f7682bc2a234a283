// Damage: the pixels of a frame that can differ from the frame before, worked out from the two
// render lists alone (Chromium's compositor does the same from its draw quads' damage rects).
//
// Why it is exact: a frame pixel's value is its draws' outcome, each draw of the frame pass
// reading the pixel under it and its own inputs (an image, an earlier pass) and nothing beside
// it. The two frame passes are aligned as sequences (common prefix and suffix, then a shortest
// edit script over the middle); every draw left unmatched, old or new, adds its pixel bounds. A
// pixel outside that union is touched in both frames by matched draws only, equal and in the
// same order, so it comes out with the same bytes, and need not be drawn again.
//
// Draws are matched by value, their sources left out (which layer made a draw is for people and
// the builder; a presentation tree's copies are new objects every frame), so a draw that samples
// an offscreen pass matches only where that pass, and every pass it reads, is the same in both
// lists (same id, size and ops). A frame pass that reads its whole target (a blur or a halving of
// the frame itself), or a changed mask path in it (which clears every pixel outside its bounds),
// makes every pixel damaged.

extension RenderList {
    /// The pixels of this frame that may differ from `previous`'s, as one rectangle in this
    /// frame's pixels (clamped to it), or nil where none can: the region a renderer that keeps
    /// `previous`'s pixels has to draw again to make this frame's, byte for byte. Every pixel
    /// where the two lists' sizes differ.
    ///
    /// `margin` pixels are added around each changed draw: a GPU may touch a pixel or so outside
    /// a draw's pixel bounds (its geometry widened for anti-aliasing), which the CPU never does.
    public func damage(since previous: RenderList, margin: Int = RenderList.damageMargin) -> PixelRect? {
        let whole = PixelRect(minX: 0, minY: 0, maxX: width, maxY: height)
        guard width > 0, height > 0 else { return nil }
        guard previous.width == width, previous.height == height,
              let frame = passes.last, let old = previous.passes.last else { return whole }
        let same = samePasses(as: previous)
        if frame.id == old.id, same.contains(frame.id) { return nil }
        func matched(_ pass: RenderPass) -> [MatchedDraw] {
            let pairs = RenderPass.borderPairs(in: pass.ops)
            return pass.ops.indices.map { i in
                MatchedDraw(op: pass.ops[i].withoutSource, readsSamePasses: RenderPass.input(of: pass.ops[i]).map(same.contains) ?? true,
                            paired: pairs.contains(i) || pairs.contains(i - 1))
            }
        }
        let new = matched(frame), before = matched(old)
        guard !new.contains(where: { $0.readsWholeTarget }), !before.contains(where: { $0.readsWholeTarget }) else { return whole }
        var prefix = 0
        while prefix < new.count, prefix < before.count, new[prefix] == before[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < new.count - prefix, suffix < before.count - prefix,
              new[new.count - 1 - suffix] == before[before.count - 1 - suffix] { suffix += 1 }
        let newMiddle = new[prefix..<(new.count - suffix)], oldMiddle = before[prefix..<(before.count - suffix)]
        var changed: [MatchedDraw] = []
        // Equal draws have equal bounds: where no draw of one middle has a draw of the other with
        // its bounds, nothing matches and every draw is damage, which the edit script would find
        // at the cost of the middles' product (every layer of a Lottie letter moving: a twentieth
        // of its frame).
        let oldBounds = Set(oldMiddle.map(\.pixelBounds))
        if !newMiddle.contains(where: { oldBounds.contains($0.pixelBounds) }) {
            changed = Array(newMiddle) + Array(oldMiddle)
        } else if newMiddle.count + oldMiddle.count <= RenderList.damageEditScriptLimit {
            // The shortest edit script (Myers', Swift's `difference`): draws kept in both lie
            // between ones that moved or changed, as a still page between two spinners.
            for change in Array(newMiddle).difference(from: Array(oldMiddle)) {
                switch change {
                case .insert(_, let draw, _), .remove(_, let draw, _): changed.append(draw)
                }
            }
        } else {
            changed = Array(newMiddle) + Array(oldMiddle)
        }
        var region: PixelRect?
        for draw in changed {
            // A mask's path clears every pixel outside its bounds too.
            if case .path(let path) = draw.op, path.blend == .destinationIn { return whole }
            guard let bounds = draw.pixelBounds, bounds.width > 0, bounds.height > 0 else { continue }
            let widened = bounds.outset(by: margin)
            region = region.map { $0.union(widened) } ?? widened
        }
        guard let region, let clamped = region.intersection(whole) else { return nil }
        return clamped
    }

    /// Pixels added around a changed draw's bounds by default: 2.
    public static let damageMargin = 2
    /// Most unmatched draws (both lists' together, past the common prefix and suffix) aligned by
    /// an edit script, whose cost grows with their product at worst; past it every one of them is
    /// damage. Default: 256 (fireworks' 1,400 changing particles took 4 ms a frame to align at
    /// 2,048, twice drawing the frame whole on the CPU).
    public static let damageEditScriptLimit = 256

    /// The ids of this list's passes that are the same in `previous`: the same id, size and ops,
    /// and every pass they read the same too.
    func samePasses(as previous: RenderList) -> Set<Int> {
        let before = Dictionary(previous.passes.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last })
        var same: Set<Int> = []
        // Passes only read earlier ones, so one walk in order settles each after its inputs.
        for pass in passes {
            guard let old = before[pass.id], sameOps(pass, old), pass.inputs.allSatisfy(same.contains) else { continue }
            same.insert(pass.id)
        }
        return same
    }

    private func sameOps(_ pass: RenderPass, _ old: RenderPass) -> Bool {
        guard pass.width == old.width, pass.height == old.height, pass.ops.count == old.ops.count else { return false }
        return zip(pass.ops, old.ops).allSatisfy { $0 == $1 || $0.withoutSource == $1.withoutSource }
    }
}

extension DrawOp {
    /// The draw with no source named: what its pixels depend on.
    var withoutSource: DrawOp {
        switch self {
        case .quad(var quad):
            quad.source = ""
            return .quad(quad)
        case .path(var path):
            path.source = ""
            return .path(path)
        case .blur, .halve: return self
        }
    }
}

extension RenderPass {
    /// The indices of the backgrounds among `ops` that the backends draw in one step with the
    /// border right after them (`QuadOp.isBorder(over:)`; `RasterRenderer.drawPair`, GL's paired
    /// program): a draw's bytes depend on whether it is so paired.
    static func borderPairs(in ops: [DrawOp]) -> Set<Int> {
        var pairs: Set<Int> = []
        var i = 0
        while i + 1 < ops.count {
            if case .quad(let fill) = ops[i], case .quad(let ring) = ops[i + 1], ring.isBorder(over: fill) {
                pairs.insert(i)
                i += 2
            } else {
                i += 1
            }
        }
        return pairs
    }
}

/// A frame draw as the damage alignment compares it: equal only to an equal draw whose passes
/// are the same in both lists.
private struct MatchedDraw: Equatable {
    var op: DrawOp
    var readsSamePasses: Bool
    /// Drawn in one step with its neighbour (a background and its border, `QuadOp.isBorder(over:)`):
    /// both backends blend the pair once, so the same draw alone gives other bytes.
    var paired: Bool

    static func == (a: MatchedDraw, b: MatchedDraw) -> Bool {
        a.readsSamePasses && b.readsSamePasses && a.paired == b.paired && a.op == b.op
    }

    var readsWholeTarget: Bool { op.readsWholeTarget }

    var pixelBounds: PixelRect? { op.pixelBounds }
}

extension RenderList {
    /// The list that draws `damage` of this frame as this list does: the frame pass's draws that
    /// can change a pixel there, and only the offscreen passes they read (directly or through
    /// others). A card's blurred shadow far from a spinner is not blurred again for it. Nil where
    /// the frame pass reads its whole target (every pass is needed).
    public func restricted(to damage: PixelRect) -> RenderList? {
        guard var frame = passes.last, !frame.ops.contains(where: \.readsWholeTarget) else { return nil }
        let kept = frame.ops.indices.filter { frame.ops[$0].touches(damage) }
        // The backends draw a background and the border right after it as one pair (other bytes
        // than the two apart), so leaving draws out must pair no draw otherwise: a background
        // and its border with a draw between them left out would become neighbours. Where it
        // would, every draw is kept (the draws left out change no pixel of the damage).
        let keptSet = Set(kept)
        let pairs = RenderPass.borderPairs(in: frame.ops).filter { keptSet.contains($0) }
        if Set(RenderPass.borderPairs(in: kept.map { frame.ops[$0] }).map { kept[$0] }) == pairs {
            frame.ops = kept.map { frame.ops[$0] }
        }
        var needed: Set<Int> = [frame.id]
        var pending = frame.inputs
        let byID = Dictionary(passes.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last })
        while let id = pending.popLast() {
            guard needed.insert(id).inserted, let pass = byID[id] else { continue }
            pending += pass.inputs
        }
        var list = self
        list.passes = passes.dropLast().filter { needed.contains($0.id) } + [frame]
        return list
    }
}

extension DrawOp {
    /// Whether this draw reads every pixel of its target (a blur or a halving), not only those
    /// under it.
    public var readsWholeTarget: Bool {
        switch self {
        case .blur, .halve: return true
        case .quad, .path: return false
        }
    }

    /// Whether this draw can change a pixel of `region`: its pixel bounds meet it, or it is a
    /// mask's path (destination-in), which clears every pixel outside its bounds too.
    public func touches(_ region: PixelRect) -> Bool {
        if case .path(let path) = self, path.blend == .destinationIn { return true }
        return pixelBounds.map { $0.intersection(region) != nil } ?? true
    }

    /// The pixels a quad or path can change (a mask path clears outside them too); nil for what
    /// reads a whole pass.
    public var pixelBounds: PixelRect? {
        switch self {
        case .quad(let quad): return quad.polygon.pixelBounds
        case .path(let path): return path.pixelBounds
        case .blur, .halve: return nil
        }
    }
}
