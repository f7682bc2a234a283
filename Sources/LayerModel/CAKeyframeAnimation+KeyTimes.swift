import Foundation

// Where a moment falls among a keyframe animation's key times. A long sampled track (a Lottie
// transform or path a frame apart, hundreds to thousands of keyframes) was scanned from its first
// key time on every frame, and evenly spaced times were made into an array every frame. Ascending
// times of long tracks are searched by halves now, and evenly spaced ones are worked out where
// they are read (`Double(j) / Double(n)` grows with j, so they are ascending too). Times that are
// not ascending, which Core Animation does not define, are still scanned from the first, so every
// index stays what the scan gave.

extension CAKeyframeAnimation {
    /// Key times and their numbers, made once, and whether they are ascending.
    package final class KeyTimeList: @unchecked Sendable {
        let numbers: [NSNumber]
        let values: [Double]
        /// Every time at or after the one before (NaN is not).
        let ascending: Bool
        package init(_ numbers: [NSNumber]) {
            (self.numbers, values) = (numbers, numbers.map(\.doubleValue))
            ascending = zip(values, values.dropFirst()).allSatisfy { $0 <= $1 }
        }
    }

    /// The key times read for `segments` + 1 boundaries: the animation's own when there are that
    /// many (or, with `orCount`, `segments` of them), else evenly spaced.
    package struct KeyTimeBounds {
        private let list: [Double]?
        private let ascending: Bool
        private let segments: Int

        /// Fewer key times than this are scanned from the start: a scan's steps are predicted
        /// branches, a search's halvings are not, and most tracks are short.
        static let scannedBelow = 48

        /// Times worked out for the frame (a paced animation's, from its values' distances).
        init(times: [Double]) {
            (list, segments) = (times, times.count - 1)
            ascending = zip(times, times.dropFirst()).allSatisfy { $0 <= $1 }
        }

        package init(_ keyTimes: KeyTimeList?, segments: Int, orCount: Bool = false) {
            self.segments = segments
            if let keyTimes, keyTimes.values.count == segments + 1 || (orCount && keyTimes.values.count == segments) {
                (list, ascending) = (keyTimes.values, keyTimes.ascending)
            } else {
                (list, ascending) = (nil, true)
            }
        }

        /// The j-th key time.
        package subscript(j: Int) -> Double { list?[j] ?? Double(j) / Double(segments) }

        /// The segment holding `f`: the first i from 0 whose next key time is past `f`, at most
        /// `last` (what stepping on from the start while `f >= times[i + 1]` finds).
        package func segment(of f: Double, last: Int) -> Int {
            guard last > 0 else { return 0 }
            if !ascending || last < Self.scannedBelow {
                var i = 0
                while i < last && f >= self[i + 1] { i += 1 }
                return i
            }
            // The times 1...last at or before f lead the ascending list: count them by halves.
            var low = 1, high = last + 1
            while low < high {
                let mid = (low + high) / 2
                if f >= self[mid] { low = mid + 1 } else { high = mid }
            }
            return low - 1
        }

        /// The last i below `count` whose key time is at or before `f`, or 0.
        package func lastReached(by f: Double, count: Int) -> Int {
            if !ascending || count < Self.scannedBelow {
                var index = 0
                for i in 0..<count where f >= self[i] { index = i }
                return index
            }
            var low = 0, high = count
            while low < high {
                let mid = (low + high) / 2
                if f >= self[mid] { low = mid + 1 } else { high = mid }
            }
            return max(low - 1, 0)
        }
    }
}
