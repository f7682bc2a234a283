// When an executor may let go of a pass's pixels: after the last pass that reads it. Holding
// every pass to the end of the frame made memory grow with the number of passes (a random tree
// of 145 shadowed and grouped layers held 1.4 GB on the CPU), not with how many are in flight.

extension RenderList {
    /// For each pass index, the ids of the passes it is the last to read.
    public func passesLastRead() -> [Int: [Int]] {
        var last: [Int: Int] = [:]
        for (index, pass) in passes.enumerated() {
            for id in pass.inputs { last[id] = index }
        }
        return Dictionary(grouping: last.keys) { last[$0]! }
    }
}
