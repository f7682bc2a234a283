import Foundation

// Core Graphics' comparison members, which Foundation on Linux does not declare (its CGPoint,
// CGSize and CGRect are Core Graphics' geometry types there): CGPointEqualToPoint and its
// siblings, as Swift calls them.

extension CGPoint {
    /// Whether both coordinates are equal.
    public func equalTo(_ point2: CGPoint) -> Bool { x == point2.x && y == point2.y }
}

extension CGSize {
    /// Whether both dimensions are equal.
    public func equalTo(_ size2: CGSize) -> Bool { width == size2.width && height == size2.height }
}

extension CGRect {
    /// Whether the rectangles cover the same area: compared standardized, as CGRectEqualToRect
    /// compares them (a rectangle of negative width equals its standardized form).
    public func equalTo(_ rect2: CGRect) -> Bool {
        if isNull || rect2.isNull { return isNull && rect2.isNull }
        let a = standardized, b = rect2.standardized
        return a.origin.equalTo(b.origin) && a.size.equalTo(b.size)
    }
}
