import Foundation
import OpenQuartzCore

/// SVG path data (the `d` attribute: "M 10 10 L 90 10 Q 90 90 10 90 Z"), the most widely known
/// way to write a path as text, read into a CGPath. All commands, absolute and relative:
/// M L H V C S Q T A Z.
public struct SVGPathData {
    public struct ParseError: Error, CustomStringConvertible {
        public let offset: Int
        public let message: String
        public var description: String { "path data, character \(offset + 1): \(message)" }
    }

    /// Most numbers read from one path (a guard against absurd inputs).
    static let maxNumbers = 1_000_000

    private let chars: [UInt8]
    private var index = 0
    private var numbersRead = 0

    /// The path `text` describes.
    public static func parse(_ text: String) throws(ParseError) -> CGPath {
        var parser = SVGPathData(chars: Array(text.utf8))
        return try parser.run()
    }

    private init(chars: [UInt8]) { self.chars = chars }

    private func fail(_ message: String) -> ParseError { ParseError(offset: min(index, chars.count), message: message) }

    private mutating func skipSeparators() {
        while index < chars.count, [0x20, 0x09, 0x0A, 0x0D, 0x0C, UInt8(ascii: ",")].contains(chars[index]) { index += 1 }
    }

    private mutating func atNumber() -> Bool {
        skipSeparators()
        guard index < chars.count else { return false }
        let c = chars[index]
        return (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) || c == UInt8(ascii: "-") || c == UInt8(ascii: "+") || c == UInt8(ascii: ".")
    }

    private mutating func number() throws(ParseError) -> CGFloat {
        skipSeparators()
        let start = index
        if index < chars.count, chars[index] == UInt8(ascii: "-") || chars[index] == UInt8(ascii: "+") { index += 1 }
        var digits = 0
        while index < chars.count, chars[index] >= UInt8(ascii: "0"), chars[index] <= UInt8(ascii: "9") { index += 1; digits += 1 }
        if index < chars.count, chars[index] == UInt8(ascii: ".") {
            index += 1
            while index < chars.count, chars[index] >= UInt8(ascii: "0"), chars[index] <= UInt8(ascii: "9") { index += 1; digits += 1 }
        }
        guard digits > 0 else { index = start; throw fail("expected a number") }
        if index < chars.count, chars[index] == UInt8(ascii: "e") || chars[index] == UInt8(ascii: "E") {
            let mark = index
            index += 1
            if index < chars.count, chars[index] == UInt8(ascii: "-") || chars[index] == UInt8(ascii: "+") { index += 1 }
            var exponentDigits = 0
            while index < chars.count, chars[index] >= UInt8(ascii: "0"), chars[index] <= UInt8(ascii: "9") { index += 1; exponentDigits += 1 }
            if exponentDigits == 0 { index = mark }
        }
        numbersRead += 1
        guard numbersRead <= SVGPathData.maxNumbers else { throw fail("more than \(SVGPathData.maxNumbers) numbers") }
        guard let value = Double(String(decoding: chars[start..<index], as: UTF8.self)), value.isFinite else {
            index = start
            throw fail("the number is out of range")
        }
        return CGFloat(value)
    }

    /// An arc flag: a single 0 or 1, which may run into the next number ("a10 10 0 01 20 20").
    private mutating func flag() throws(ParseError) -> Bool {
        skipSeparators()
        guard index < chars.count, chars[index] == UInt8(ascii: "0") || chars[index] == UInt8(ascii: "1") else {
            throw fail("expected an arc flag, 0 or 1")
        }
        index += 1
        return chars[index - 1] == UInt8(ascii: "1")
    }

    private mutating func run() throws(ParseError) -> CGPath {
        let path = CGMutablePath()
        var current = CGPoint.zero, start = CGPoint.zero
        var lastControl: CGPoint? = nil, lastQuadControl: CGPoint? = nil
        var command: UInt8? = nil
        skipSeparators()
        var commandStart = 0
        while index < chars.count {
            let c = chars[index]
            if (c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z")) || (c >= UInt8(ascii: "a") && c <= UInt8(ascii: "z")) {
                command = c
                commandStart = index
                index += 1
            } else if command == nil {
                throw fail("path data must start with a command such as M")
            } else if !atNumber() {
                throw fail("unexpected character '\(Character(UnicodeScalar(c)))'")
            }
            guard let op = command else { break }
            if path.isEmpty && op != UInt8(ascii: "M") && op != UInt8(ascii: "m") {
                index = commandStart
                throw fail("path data must start with M or m")
            }
            let relative = op >= UInt8(ascii: "a")
            func point(_ x: CGFloat, _ y: CGFloat) -> CGPoint {
                relative ? CGPoint(x: current.x + x, y: current.y + y) : CGPoint(x: x, y: y)
            }
            var control: CGPoint? = nil, quadControl: CGPoint? = nil
            switch op | 0x20 { // lower-cased
            case UInt8(ascii: "m"):
                let p = point(try number(), try number())
                path.move(to: p)
                current = p; start = p
                // Further pairs after a move are lines.
                command = relative ? UInt8(ascii: "l") : UInt8(ascii: "L")
            case UInt8(ascii: "l"):
                let p = point(try number(), try number())
                path.addLine(to: p)
                current = p
            case UInt8(ascii: "h"):
                let x = try number()
                current = CGPoint(x: relative ? current.x + x : x, y: current.y)
                path.addLine(to: current)
            case UInt8(ascii: "v"):
                let y = try number()
                current = CGPoint(x: current.x, y: relative ? current.y + y : y)
                path.addLine(to: current)
            case UInt8(ascii: "c"):
                let c1 = point(try number(), try number()), c2 = point(try number(), try number()), p = point(try number(), try number())
                path.addCurve(to: p, control1: c1, control2: c2)
                control = c2; current = p
            case UInt8(ascii: "s"):
                let c1 = lastControl.map { CGPoint(x: 2 * current.x - $0.x, y: 2 * current.y - $0.y) } ?? current
                let c2 = point(try number(), try number()), p = point(try number(), try number())
                path.addCurve(to: p, control1: c1, control2: c2)
                control = c2; current = p
            case UInt8(ascii: "q"):
                let c1 = point(try number(), try number()), p = point(try number(), try number())
                path.addQuadCurve(to: p, control: c1)
                quadControl = c1; current = p
            case UInt8(ascii: "t"):
                let c1 = lastQuadControl.map { CGPoint(x: 2 * current.x - $0.x, y: 2 * current.y - $0.y) } ?? current
                let p = point(try number(), try number())
                path.addQuadCurve(to: p, control: c1)
                quadControl = c1; current = p
            case UInt8(ascii: "a"):
                let rx = try number(), ry = try number(), rotation = try number()
                let large = try flag(), sweep = try flag()
                let p = point(try number(), try number())
                SVGPathData.addArc(to: path, from: current, to: p, rx: rx, ry: ry, degrees: rotation, large: large, sweep: sweep)
                current = p
            case UInt8(ascii: "z"):
                path.closeSubpath()
                current = start
                command = nil
                skipSeparators()
                if index < chars.count, atNumber() { throw fail("numbers after Z need a command first") }
            default:
                index = commandStart
                throw fail("unknown path command '\(Character(UnicodeScalar(op)))'")
            }
            lastControl = control
            lastQuadControl = quadControl
            skipSeparators()
        }
        return path
    }

    /// SVG's endpoint arc (F.6.5 of SVG 1.1): the centre found from the endpoints, the radii
    /// scaled up when too small to reach, drawn as a unit circle's arc mapped onto the ellipse.
    static func addArc(to path: CGMutablePath, from p0: CGPoint, to p1: CGPoint, rx: CGFloat, ry: CGFloat,
                       degrees: CGFloat, large: Bool, sweep: Bool) {
        var rx = abs(rx), ry = abs(ry)
        guard p0 != p1 else { return }
        guard rx > 0, ry > 0 else { path.addLine(to: p1); return }
        let phi = degrees * .pi / 180, cosPhi = cos(phi), sinPhi = sin(phi)
        let dx = (p0.x - p1.x) / 2, dy = (p0.y - p1.y) / 2
        let x1 = cosPhi * dx + sinPhi * dy, y1 = -sinPhi * dx + cosPhi * dy
        let lambda = (x1 * x1) / (rx * rx) + (y1 * y1) / (ry * ry)
        if lambda > 1 { rx *= lambda.squareRoot(); ry *= lambda.squareRoot() }
        let numerator = rx * rx * ry * ry - rx * rx * y1 * y1 - ry * ry * x1 * x1
        let denominator = rx * rx * y1 * y1 + ry * ry * x1 * x1
        var factor = denominator > 0 ? (max(numerator, 0) / denominator).squareRoot() : 0
        if large == sweep { factor = -factor }
        let cx1 = factor * rx * y1 / ry, cy1 = -factor * ry * x1 / rx
        let cx = cosPhi * cx1 - sinPhi * cy1 + (p0.x + p1.x) / 2, cy = sinPhi * cx1 + cosPhi * cy1 + (p0.y + p1.y) / 2
        func angle(_ ux: CGFloat, _ uy: CGFloat) -> CGFloat { atan2(uy, ux) }
        let start = angle((x1 - cx1) / rx, (y1 - cy1) / ry)
        var delta = angle((-x1 - cx1) / rx, (-y1 - cy1) / ry) - start
        if sweep && delta < 0 { delta += 2 * .pi }
        if !sweep && delta > 0 { delta -= 2 * .pi }
        guard delta.isFinite, cx.isFinite, cy.isFinite else { path.addLine(to: p1); return }
        let map = CGAffineTransform(a: rx * cosPhi, b: rx * sinPhi, c: -ry * sinPhi, d: ry * cosPhi, tx: cx, ty: cy)
        path.addRelativeArc(center: .zero, radius: 1, startAngle: start, delta: delta, transform: map)
    }
}
