import Foundation
import OpenQuartzCore

/// The kinds of values a scene document holds, each with one JSON spelling (and a few
/// conveniences: colors as hex strings or component arrays, transforms as 16 numbers or as a
/// list of named operations, paths as SVG path data or shape objects).
public indirect enum SceneValueKind: Equatable, Sendable {
    case number
    /// A number within limits (inclusive); integers when `integral`.
    case bounded(min: Double, max: Double, integral: Bool)
    case bool
    case string
    /// A string, or styled runs [{"text": "...", "font": "Helvetica-Bold", "fontSize": 18, "color": "#c00"}]
    /// (a run without font, size or color takes the layer's).
    case text
    /// [x, y]
    case point
    /// [width, height]
    case size
    /// [x, y, width, height]
    case rect
    /// "#rgb", "#rrggbb", "#rrggbbaa", a name ("black", "white", "clear", ...), or [r, g, b(, a)]
    /// in 0...1; null for none.
    case color
    case colors
    case numbers
    /// 16 numbers, row by row (m11 m12 m13 m14 m21 ...), or operations applied first to last:
    /// {"translate": [x, y(, z)]}, {"scale": s or [x, y(, z)]}, {"rotate": radians, "axis": [x, y, z]}
    /// (axis z by default), {"perspective": d} (m34 = -1/d), {"matrix": [16 numbers]}.
    case transform
    /// SVG path data ("M 0 0 L 10 0 Z"), or {"rect": [x, y, w, h]}, {"ellipse": [x, y, w, h]},
    /// {"roundedRect": [x, y, w, h], "radius": r}; null for none.
    case path
    /// An image file (PNG, JPEG or GIF) by path relative to the document.
    case image
    /// One of the strings listed.
    case choice([String])
    /// Corner names: "minXMinY", "maxXMinY", "minXMaxY", "maxXMaxY".
    case corners
    /// "linear", "easeIn", "easeOut", "easeInEaseOut", "default", or [c1x, c1y, c2x, c2y].
    case timingFunction
    case timingFunctions
    /// Emitter cells: [{"name": "spark", "birthRate": 40, "contents": "spark.png", ...}], each with
    /// CAEmitterCell's keys and its own "emitterCells".
    case emitterCells
    /// A tiled layer's drawing: [{"fill": path, "color": c}, {"stroke": path, ...}, {"image": file,
    /// "rect": r}, {"text": "...", "at": p}, {"repeat": [columns, rows], "step": s, "drawing": [...]}]
    /// (`SceneDrawingCodec`).
    case drawing
    /// The value type of an animated key path, known from the layer class and the key path.
    case animatedValue
    case animatedValues

    /// Whether an animation may interpolate values of this kind: not names and flags, nor a tiled
    /// layer's drawing, which is content. The decoder and its suggestions read it alike.
    var isAnimatable: Bool { ![.string, .bool, .drawing].contains(self) }

    /// Words for error messages: what the document should have held.
    var expectation: String {
        switch self {
        case .number: "a number"
        case let .bounded(min, max, integral): "\(integral ? "a whole number" : "a number") from \(SceneValueKind.format(min)) to \(SceneValueKind.format(max))"
        case .bool: "true or false"
        case .string: "a string"
        case .text: "a string or an array of runs {\"text\": ..., \"font\": ..., \"fontSize\": ..., \"color\": ...}"
        case .point: "a point [x, y]"
        case .size: "a size [width, height]"
        case .rect: "a rectangle [x, y, width, height]"
        case .color: "a color (\"#rrggbb\", \"#rrggbbaa\", a color name, [r, g, b, a] in 0...1, or null)"
        case .colors: "an array of colors"
        case .numbers: "an array of numbers"
        case .transform: "a transform (16 numbers, or an array of operations such as {\"rotate\": 0.5})"
        case .path: "a path (SVG path data such as \"M 0 0 L 10 0 Z\", {\"rect\": [x, y, w, h]}, {\"ellipse\": [x, y, w, h]}, {\"roundedRect\": [x, y, w, h], \"radius\": r}, or null)"
        case .image: "an image file path relative to the document"
        case .choice(let options): "one of " + options.map { "\"\($0)\"" }.joined(separator: ", ")
        case .corners: "an array of corner names (\"minXMinY\", \"maxXMinY\", \"minXMaxY\", \"maxXMaxY\")"
        case .timingFunction: "a timing function name or [c1x, c1y, c2x, c2y]"
        case .timingFunctions: "an array of timing functions"
        case .emitterCells: "an array of emitter cells (objects with CAEmitterCell's keys)"
        case .drawing: "a drawing: an array of items ({\"fill\": path}, {\"stroke\": path}, {\"image\": file, \"rect\": r}, {\"text\": \"...\", \"at\": p}, {\"repeat\": [columns, rows], \"step\": s, \"drawing\": [...]})"
        case .animatedValue: "a value of the animated property's type"
        case .animatedValues: "an array of values of the animated property's type"
        }
    }

    static func format(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : String(v)
    }
}
