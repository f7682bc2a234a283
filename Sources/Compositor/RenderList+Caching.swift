// Which passes an executor must run when it kept some passes' results from earlier frames
// (RenderPass.cacheKey): the frame, and every pass a pass that runs reads, except those served
// from the cache, whose own inputs are then not needed either.

extension RenderPass {
    /// The passes this pass reads, by id.
    public var inputs: [Int] { ops.compactMap(RenderPass.input(of:)) }

    /// The pass `op` reads, if any.
    static func input(of op: DrawOp) -> Int? {
        switch op {
        case .quad(let quad):
            if case .texture(let fill) = quad.fill, case .pass(let id) = fill.source { return id }
            return nil
        case .blur(let blur): return blur.source
        case .halve(let halve): return halve.source
        case .path: return nil
        }
    }
}

extension RenderList {
    /// The ids of the passes to run, given whether a cache key's result is at hand.
    public func passesToRun(isCached: (Int) -> Bool) -> Set<Int> {
        guard let frame = passes.last else { return [] }
        let byID = Dictionary(passes.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last })
        var run: Set<Int> = []
        var pending = [frame.id]
        while let id = pending.popLast() {
            guard !run.contains(id), let pass = byID[id] else { continue }
            if id != frame.id, let key = pass.cacheKey, isCached(key) { continue }
            run.insert(id)
            pending.append(contentsOf: pass.inputs)
        }
        return run
    }
}
