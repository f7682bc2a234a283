import LayerModel

/// What a draw shows: the layer it comes from, by identity, and which part of it ("background",
/// "border", "contents", "mask", ...). People read it in a render list's description; the
/// builder reads it to tell a layer's own draws from its sublayers' (`roundedClipCutsNothing`).
///
/// Not the layer's `description`, which was the source before: a subclass may override it, and
/// ported code often does, alike for every layer of its class ("Card"), and two layers with the
/// same `name` were described alike too, so a sublayer's draws passed for its parent's own and a
/// rounded clip could be left out where it cut them. Describing every drawn layer (its class, its
/// address in decimal) and joining the part to it was also a sixth of building a list; the
/// description is now made only when asked for.
public struct DrawSource: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// A layer as a draw names it: its identity (the object, alive while its draws are built;
    /// equal for one object only) and what a person is shown: its class and `name`.
    public struct Layer: Hashable, Sendable, CustomStringConvertible {
        public let identity: ObjectIdentifier
        public let typeName: String
        public let name: String?

        public init(_ layer: CALayer) {
            identity = ObjectIdentifier(layer)
            typeName = CALayer.typeName(of: layer)
            name = layer.name
        }

        /// As `CALayer.description` reads for the library's classes: "CALayer 'name'", or the
        /// layer's identity in decimal where it has no name.
        public var description: String {
            typeName + " " + (name.map { "'\($0)'" } ?? "<\(UInt(bitPattern: identity.hashValue))>")
        }
    }

    /// The layer drawn, or nil for a draw no one layer makes (a test's rectangle).
    public var layer: Layer?
    /// Which part of the layer: "background", "border", "mask", ...; the whole source where
    /// there is no layer.
    public var part: String

    public init(layer: Layer?, part: String) {
        self.layer = layer
        self.part = part
    }

    public init(_ layer: CALayer, part: String) {
        self.init(layer: Layer(layer), part: part)
    }

    /// A source named by its text alone, no layer: `""` where a draw's layer must not count
    /// (a cache key, `contentKey`), or a test's own name.
    public init(stringLiteral text: String) {
        self.init(layer: nil, part: text)
    }

    /// Whether `layer` made this draw (any part of it).
    public func isFrom(_ layer: CALayer) -> Bool {
        self.layer?.identity == ObjectIdentifier(layer)
    }

    public var description: String {
        guard let layer else { return part }
        return part.isEmpty ? layer.description : layer.description + " " + part
    }
}
