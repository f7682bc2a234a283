// Snapshot tests as a team writes them for Apple's platforms (XCTest), compiled and run here
// unchanged: nothing in this file is OpenQuartz's. The references beside it were recorded on
// Linux; a Mac or an iPhone simulator would record its own at its screen's scale.
import QuartzCore
import SnapshotTesting
import XCTest

final class LayerSnapshotTests: XCTestCase {
    private func card(title: String = "Ready") -> CALayer {
        let card = CALayer()
        card.frame = CGRect(x: 0, y: 0, width: 160, height: 96)
        card.backgroundColor = CGColor(red: 0.97, green: 0.97, blue: 0.98, alpha: 1)
        let badge = CALayer()
        badge.frame = CGRect(x: 16, y: 16, width: 128, height: 40)
        badge.cornerRadius = 12
        badge.backgroundColor = CGColor(red: 0.18, green: 0.62, blue: 0.36, alpha: 1)
        badge.borderWidth = 2
        badge.borderColor = CGColor(red: 0.1, green: 0.4, blue: 0.22, alpha: 1)
        badge.shadowOpacity = 0.3
        badge.shadowRadius = 3
        badge.shadowOffset = CGSize(width: 0, height: 2)
        let label = CATextLayer()
        label.frame = CGRect(x: 0, y: 10, width: 128, height: 22)
        label.string = title
        label.fontSize = 15
        label.alignmentMode = .center
        label.foregroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        badge.addSublayer(label)
        card.addSublayer(badge)
        let bar = CAShapeLayer()
        bar.frame = CGRect(x: 16, y: 68, width: 128, height: 12)
        bar.path = CGPath(roundedRect: CGRect(x: 0, y: 0, width: 128, height: 12), cornerWidth: 6, cornerHeight: 6, transform: nil)
        bar.fillColor = CGColor(red: 0.85, green: 0.86, blue: 0.88, alpha: 1)
        bar.strokeColor = CGColor(red: 0.18, green: 0.62, blue: 0.36, alpha: 1)
        bar.lineWidth = 3
        bar.strokeEnd = 0.6
        card.addSublayer(bar)
        return card
    }

    func testCard() {
        assertSnapshot(of: card(), as: .image)
    }

    func testCardWithTolerance() {
        assertSnapshot(of: card(), as: .image(precision: 0.99, perceptualPrecision: 0.98), named: "tolerant")
    }

    func testAChangedCardFails() {
        // The reference is testCard's; a different title must not pass against it.
        let failure = verifySnapshot(of: card(title: "Done"), as: .image, named: "1", record: .never, testName: "testCard")
        XCTAssertNotNil(failure)
        XCTAssertTrue(failure?.contains("Snapshot \"1\" does not match reference.") == true, failure ?? "")
    }
}
