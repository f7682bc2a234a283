// The timeline of a scene document: transactions at their times, implicit animations shaped by
// them, disableActions, nested transactions, completion blocks, and a result at any time that does
// not depend on which times were visited before (what makes shards of an animation agree).
import Foundation
import OpenQuartzCore
import SceneFormat
import Testing

private func player(_ transactions: String, root: String = #"{"name": "root", "frame": [0, 0, 100, 80], "sublayers": [{"name": "card", "frame": [0, 0, 10, 10], "backgroundColor": "red"}]}"#) throws -> ScenePlayer {
    try SceneDocument(data: Data(sceneText(root: root, transactions: transactions).utf8)).makePlayer()
}

private func card(_ player: ScenePlayer, at t: Double) -> CALayer {
    player.advance(to: t)
    return player.presentation().sublayers![0]
}

@Suite("Scene timeline")
struct ScenePlayerTests {
    @Test("a transaction's change animates implicitly from its time, over its duration and timing function")
    func implicitAnimation() throws {
        let p = try player(#"[{"time": 1, "duration": 0.5, "timingFunction": "linear", "changes": [{"layer": "card", "set": {"opacity": 0.2}}]}]"#)
        #expect(card(p, at: 0.9).opacity == 1)
        #expect(abs(card(p, at: 1.25).opacity - 0.6) < 1e-4)
        #expect(card(p, at: 2).opacity == 0.2)
    }

    @Test("disableActions makes the change at once; a nested transaction keeps its own setting")
    func disableActions() throws {
        let p = try player(#"""
        [{"time": 1, "duration": 1, "timingFunction": "linear", "changes": [{"layer": "card", "set": {"opacity": 0}}],
          "transactions": [{"disableActions": true, "changes": [{"layer": "card", "set": {"position": [50, 40]}}]}]}]
        """#)
        let halfway = card(p, at: 1.5)
        #expect(halfway.position == CGPoint(x: 50, y: 40))
        #expect(abs(halfway.opacity - 0.5) < 1e-4)
    }

    @Test("a completion runs its transaction within 1/240 s of the animations' end; its changes animate from then")
    func completion() throws {
        let p = try player(#"""
        [{"time": 1, "duration": 0.5, "timingFunction": "linear", "changes": [{"layer": "card", "set": {"opacity": 0}}],
          "completion": {"duration": 1, "timingFunction": "linear", "changes": [{"layer": "card", "set": {"position": [105, 5]}}]}}]
        """#)
        #expect(card(p, at: 1.49).position == CGPoint(x: 5, y: 5))
        // Started at 1.5 (to the tick), the move is half done at 2.0.
        let moving = card(p, at: 2)
        #expect(abs(moving.position.x - 55) <= 100.0 / 240 + 1e-6)
        #expect(card(p, at: 2.6).position == CGPoint(x: 105, y: 5))
    }

    @Test("the tree at a time is the same whichever earlier times were visited")
    func independentOfVisits() throws {
        let transactions = #"""
        [{"time": 0.5, "duration": 0.3, "changes": [{"layer": "card", "set": {"position": [60, 40]}}],
          "completion": {"changes": [{"layer": "card", "set": {"backgroundColor": "blue", "opacity": 0.5}}]}},
         {"time": 1.2, "changes": [{"layer": "card", "add": {"keyPath": "transform.rotation.z", "toValue": 3, "duration": 1}}]}]
        """#
        let direct = try player(transactions), stepped = try player(transactions)
        for t in stride(from: 0.0, through: 1.7, by: 1.0 / 30) { _ = card(stepped, at: t) }
        let a = card(direct, at: 1.7), b = card(stepped, at: 1.7)
        #expect(a.position == b.position && a.opacity == b.opacity && a.backgroundColor == b.backgroundColor)
        #expect(a.transform == b.transform && a.transform != CATransform3DIdentity)
    }

    @Test("animations on layers start at time 0; added and removed ones follow their transactions")
    func explicitAnimations() throws {
        let root = #"{"frame": [0, 0, 100, 80], "sublayers": [{"name": "card", "frame": [0, 0, 10, 10], "animations": [{"key": "fade", "keyPath": "opacity", "fromValue": 0, "toValue": 1, "duration": 2, "timingFunction": "linear"}]}]}"#
        let p = try player(#"[{"time": 1, "changes": [{"layer": "card", "remove": "fade"}]}, {"time": 1.5, "changes": [{"layer": "card", "add": {"class": "CASpringAnimation", "keyPath": "position.x", "fromValue": 0, "toValue": 50, "damping": 20}}]}]"#, root: root)
        #expect(abs(card(p, at: 0.5).opacity - 0.25) < 1e-4)
        #expect(card(p, at: 1.2).opacity == 1)
        let sprung = card(p, at: 1.6).position.x
        #expect(sprung > 0 && sprung < 50)
    }

    @Test("after a long quiet stretch, an animation starts and its completion runs on time, visited or not")
    func quietStretch() throws {
        let transactions = #"""
        [{"time": 0, "changes": [{"layer": "card", "add": {"keyPath": "opacity", "fromValue": 0, "toValue": 1, "beginTime": 30, "duration": 0.5}}],
          "completion": {"disableActions": true, "changes": [{"layer": "card", "set": {"backgroundColor": "blue"}}]}}]
        """#
        let direct = try player(transactions), stepped = try player(transactions)
        for t in stride(from: 0.0, through: 30.4, by: 0.7) { _ = card(stepped, at: t) }
        #expect(card(direct, at: 30.25).opacity < 1 && card(direct, at: 30.25).opacity > 0)
        #expect(card(direct, at: 30.49).backgroundColor == CGColor(red: 1, green: 0, blue: 0, alpha: 1))
        #expect(card(direct, at: 30.51).backgroundColor == CGColor(red: 0, green: 0, blue: 1, alpha: 1))
        #expect(card(stepped, at: 30.51).backgroundColor == CGColor(red: 0, green: 0, blue: 1, alpha: 1))
    }
}
