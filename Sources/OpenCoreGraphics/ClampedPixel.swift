extension Int {
    /// `value` rounded by `rule` and clamped to `range`, for pixel counts and indices computed from
    /// geometry that may be enormous (1e30 converts to no Int: a trap) or NaN (the range's lower
    /// bound). The fuzz targets found every place this is used.
    public init(clampingPixels value: Double, _ rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero,
                to range: ClosedRange<Int>) {
        guard !value.isNaN else {
            self = range.lowerBound
            return
        }
        let rounded = value.rounded(rule)
        if rounded <= Double(range.lowerBound) {
            self = range.lowerBound
        } else if rounded >= Double(range.upperBound) {
            self = range.upperBound
        } else {
            self = Int(rounded)
        }
    }
}
