/// A value kept out of line, behind one pointer. Draw ops and the builder's visits are copied
/// about by the thousand per frame; their large, rarely present parts (a rounded shape, a pass's
/// map) live here so that where they are absent they cost eight bytes instead of two hundred.
enum Indirect<Value> {
    indirect case value(Value)

    var value: Value {
        switch self {
        case .value(let value): value
        }
    }
}

extension Indirect: Equatable where Value: Equatable {}
extension Indirect: Hashable where Value: Hashable {}
extension Indirect: Sendable where Value: Sendable {}
