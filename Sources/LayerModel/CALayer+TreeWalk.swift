// One traversal of a layer subtree for everything that must reach every layer drawn: sublayers
// and masks. Masks are not sublayers and nothing stops a mask from containing the layer it masks,
// so each mask is entered at most once per walk: a mask cycle ends instead of looping.

extension CALayer {
    /// Visits this layer and every layer below it (sublayers, then the mask) without recursion,
    /// each with a value derived from its parent's: `child(parentValue, child)` gives the child's.
    /// A mask already entered in this walk, or one that is the masked layer or its ancestor, is
    /// skipped.
    func walkTree<Value>(_ rootValue: Value, child: (Value, CALayer) -> Value, _ body: (CALayer, Value) -> Void) {
        var enteredMasks: Set<ObjectIdentifier> = []
        var pending: [(CALayer, Value)] = [(self, rootValue)]
        while let (layer, value) = pending.popLast() {
            body(layer, value)
            if let mask = layer.usableMask(entered: &enteredMasks) {
                pending.append((mask, child(value, mask)))
            }
            for sublayer in layer.storedSublayers.reversed() {
                pending.append((sublayer, child(value, sublayer)))
            }
        }
    }

    /// Every layer of the subtree, masks included, each once.
    func walkTree(_ body: (CALayer) -> Void) {
        walkTree((), child: { _, _ in () }) { layer, _ in body(layer) }
    }

    /// The mask when it can be drawn: not this layer or an ancestor of it, and not entered yet
    /// (recorded in `entered`).
    func usableMask(entered: inout Set<ObjectIdentifier>) -> CALayer? {
        guard let mask = storedMask, !isDescendant(of: mask) else { return nil }
        return entered.insert(ObjectIdentifier(mask)).inserted ? mask : nil
    }
}
