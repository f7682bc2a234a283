// A layer's description names it among the layers alive: draws carry it as their source, and
// the rounded-clip trial tells a layer's own draws from its sublayers' by it. Sixteen bits of
// the address (aligned to 16 bytes: 4,096 names) once let a card and its title share one, and
// the title's draw was taken for the card's background now and then.
import LayerModel
import Testing

@Suite("Layer descriptions")
struct LayerDescriptionTests {
    @Test("10,000 unnamed layers alive at once have 10,000 descriptions; a named one says its name")
    func unique() {
        let layers = (0..<10_000).map { _ in CALayer() }
        #expect(Set(layers.map(\.description)).count == layers.count)
        let named = CALayer()
        named.name = "card"
        #expect(named.description == "CALayer 'card'")
    }
}
