// The members with a picture of their own (contentsCenter, the filters, isGeometryFlipped, edge
// anti-aliasing) as values: defaults, key-value coding and the flipped geometry's arithmetic.
// Their pixels are in SceneCatalogTests' ContentsSamplingTests.
import Foundation
import LayerModel
import OpenCoreGraphics
import Testing

@Suite("contentsCenter, filters, flipped geometry and edge anti-aliasing as values")
struct ContentsSamplingMembersTests {
    @Test("defaults as Apple documents them (edge anti-aliasing: the documented departure)")
    func defaults() {
        let layer = CALayer()
        #expect(layer.contentsCenter == CGRect(x: 0, y: 0, width: 1, height: 1))
        #expect(layer.minificationFilter == .linear && layer.magnificationFilter == .linear)
        #expect(layer.minificationFilterBias == 0)
        #expect(!layer.isGeometryFlipped && !layer.contentsAreFlipped())
        #expect(layer.edgeAntialiasingMask == [.layerLeftEdge, .layerRightEdge, .layerBottomEdge, .layerTopEdge])
        #expect(layer.edgeAntialiasingMask.rawValue == 15)
        #expect(layer.allowsEdgeAntialiasing == CALayer.defaultAllowsEdgeAntialiasing)
        #expect(CALayerContentsFilter.trilinear.rawValue == "trilinear" && CALayerContentsFilter.nearest.rawValue == "nearest")
        #expect(CALayer.defaultValue(forKey: "contentsCenter") as? CGRect == CGRect(x: 0, y: 0, width: 1, height: 1))
        #expect(CALayer.defaultValue(forKey: "geometryFlipped") as? Bool == false)
    }

    @Test("key-value coding by Apple's keys, from strings and numbers too")
    func keyValueCoding() {
        let layer = CALayer()
        layer.setValue("nearest", forKey: "magnificationFilter")
        layer.setValue(CALayerContentsFilter.trilinear, forKey: "minificationFilter")
        layer.setValue(NSNumber(value: -0.5), forKey: "minificationFilterBias")
        layer.setValue(NSNumber(value: true), forKey: "geometryFlipped")
        layer.setValue(false, forKey: "allowsEdgeAntialiasing")
        layer.setValue(NSNumber(value: 3), forKey: "edgeAntialiasingMask")
        layer.setValue(NSValue(cgRect: CGRect(x: 0.2, y: 0.3, width: 0.4, height: 0.1)), forKey: "contentsCenter")
        #expect(layer.magnificationFilter == .nearest && layer.minificationFilter == .trilinear)
        #expect(layer.minificationFilterBias == -0.5 && layer.isGeometryFlipped && !layer.allowsEdgeAntialiasing)
        #expect(layer.edgeAntialiasingMask == [.layerLeftEdge, .layerRightEdge])
        #expect(layer.contentsCenter == CGRect(x: 0.2, y: 0.3, width: 0.4, height: 0.1))
        #expect(layer.value(forKey: "geometryFlipped") as? Bool == true)
        #expect(layer.value(forKey: "minificationFilter") as? CALayerContentsFilter == .trilinear)
    }

    @Test("contentsCenter animates implicitly; the filters do not")
    func actions() {
        let layer = CALayer()
        #expect(layer.action(forKey: "contentsCenter") != nil)
        #expect(layer.action(forKey: "minificationFilter") == nil)
    }

    @Test("a flipped layer measures its sublayers from its bottom: conversion and hit testing agree")
    func flippedGeometry() {
        let panel = CALayer()
        panel.frame = CGRect(x: 0, y: 0, width: 100, height: 80)
        panel.isGeometryFlipped = true
        let bar = CALayer()
        bar.frame = CGRect(x: 10, y: 5, width: 30, height: 10)
        panel.addSublayer(bar)
        let p = panel.convert(CGPoint(x: 0, y: 0), from: bar)
        #expect(abs(p.x - 10) < 1e-9 && abs(p.y - 75) < 1e-9)
        #expect(panel.hitTest(CGPoint(x: 20, y: 70)) === bar)
        #expect(panel.hitTest(CGPoint(x: 20, y: 10)) === panel)
        // The flip is about the bounds, wherever they start.
        panel.bounds.origin.y = 20
        let q = panel.convert(CGPoint(x: 0, y: 0), from: bar)
        #expect(abs(q.y - (20 + 100 - 5)) < 1e-9)
        // Parity: flipped twice reads as not flipped.
        let inner = CALayer()
        bar.addSublayer(inner)
        #expect(bar.contentsAreFlipped() && inner.contentsAreFlipped())
        bar.isGeometryFlipped = true
        #expect(!bar.contentsAreFlipped() && !inner.contentsAreFlipped() && panel.contentsAreFlipped())
    }
}
