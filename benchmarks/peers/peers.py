"""OpenQuartz beside the renderers people would otherwise use, on the same scenes, in one command.

Scenes (1280x720): `layers-N`, N rounded, bordered, rotated, translucent cards (N = 10 ... 10,000);
`blur-R`, one rounded card with a shadow of radius R (CSS blur 2R, Skia sigma R) over a few
cards. Each has a moving variant (`layers-N-moving`, `blur-R-moving`) where every card translates,
turns and changes size (linearly over MOVING_SECONDS), the shadowed card and its shadow with it,
and each timed frame is MOVING_STEP seconds after the one before: every frame differs for every
renderer, so nothing is kept from the frame before but what a renderer keeps on its own. Each
scene is written once as an OpenQuartz scene document and drawn by:

  openquartz-cpu / -gpu  `quartz render --repeats K --json`: the median steady-state frame
                         (evaluation, render list, drawing, GPU readback); not decoding or PNG.
                         Moving: `--repeats K --repeat-step S`, each repeat at a later time.
  skia                   skia-python raster: the scene recorded once as an SkPicture, the time is
                         replaying it into a 1280x720 raster surface (no Python per shape).
                         Moving: a picture recorded for each frame's time (not timed: Python
                         calls), the time is replaying it.
  cairo                  pycairo image surface: recorded once into a RecordingSurface, replayed
                         (no blur in cairo: blur scenes are not drawn). Moving: as skia.
  blend2d                blend2d-py: its Python binding has only line paths, so each frame is
                         drawn by Python calls per shape (included in its time); no blur.
  chromium               headless Chromium, software compositing, the scene as absolutely placed
                         divs; the time is a requestAnimationFrame loop (frame rate limit off)
                         where each frame changes the page background, so every card is painted
                         and rastered again: style, paint, raster and compositing, not start-up.
                         Moving: every card's box a CSS function of one custom property that
                         each frame of the rAF loop sets a step later (layout, paint, raster).

Renderers are interleaved (each round runs every renderer on every scene, in a rotated order) so
the machine's noise hits all alike; each figure is the median over rounds, with its spread.
`--baseline BINARY` times an earlier build of quartz in the same rounds (openquartz-*@base), so a
change is measured before and after in one run; `--no-peers` leaves the other renderers out.
Outputs (out/peers/): results.json, report.md (times and ratios against OpenQuartz), layers.png
and blur.png (frame time against layer count and blur radius), side-by-side-*.png (each
renderer's image with its FLIP error against OpenQuartz's CPU image).
"""
import argparse
import base64
import json
import math
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

import numpy as np
from PIL import Image, ImageDraw

WIDTH, HEIGHT = 1280, 720
BACKGROUND = (0.95, 0.95, 0.96, 1.0)
LAYER_COUNTS = [10, 100, 1000, 10000]
BLUR_RADII = [1, 4, 20, 50, 100]
# Moving scenes: every card moves linearly over MOVING_SECONDS; the timed frames start at
# MOVING_START (the frame the pictures show) and follow MOVING_STEP apart (60 frames a second).
MOVING_SECONDS = 2.0
MOVING_START = 0.5
MOVING_STEP = 1 / 60


# ----------------------------------------------------------------------------------------------
# Scenes, renderer-neutral.

def card(i):
    """The i-th card of a layers scene: centre, size, corner radius, rotation, colours."""
    return {
        # The R2 low-discrepancy sequence spreads the cards evenly over the frame.
        "cx": round((i * 0.7548776662 + 0.5) % 1 * WIDTH, 2), "cy": round((i * 0.5698402910 + 0.5) % 1 * HEIGHT, 2),
        "w": 64.0, "h": 48.0, "radius": 10.0,
        "angle": (i % 23) * 0.07, "fill": ((i % 7) / 7, 0.45, 0.75, 0.85), "border": 2.0,
        "borderColor": (1.0, 1.0, 1.0, 0.9), "shadow": None,
    }


def layers_scene(n):
    return {"name": f"layers-{n}", "cards": [card(i) for i in range(n)]}


def blur_scene(r):
    cards = [card(i) for i in range(12)]
    cards.append({"cx": 640.0, "cy": 360.0, "w": 420.0, "h": 260.0, "radius": 24.0, "angle": 0.0,
                  "fill": (0.2, 0.45, 0.9, 1.0), "border": 0.0, "borderColor": (0, 0, 0, 0),
                  "shadow": {"radius": float(r), "dy": 8.0, "opacity": 0.5}})
    return {"name": f"blur-{r}", "cards": cards, "blur": r}


def moving_scene(scene):
    """The scene with every card in motion: it translates, turns and changes size (its shadow with
    it), linearly from its still place over MOVING_SECONDS, each card its own way."""
    cards = []
    for i, c in enumerate(scene["cards"]):
        big = c["shadow"] is not None
        direction = i * 2.399963  # the golden angle: neighbours move apart
        c = dict(c)
        c["motion"] = {"dx": 80.0 if big else round(48 * math.cos(direction), 3),
                       "dy": 40.0 if big else round(32 * math.sin(direction), 3),
                       "turn": 0.6 if big else 0.8 * (1 if i % 2 else -1),
                       "w": c["w"] * (1.1 if big else 1.25), "h": c["h"] * (0.9 if big else 0.8)}
        cards.append(c)
    return dict(scene, name=scene["name"] + "-moving", cards=cards, moving=True)


def card_at(c, t):
    """A card at time t: where its motion has taken it (a still card is where it is)."""
    m = c.get("motion")
    if not m:
        return c
    f = min(max(t / MOVING_SECONDS, 0.0), 1.0)
    return dict(c, cx=c["cx"] + f * m["dx"], cy=c["cy"] + f * m["dy"], angle=c["angle"] + f * m["turn"],
                w=c["w"] + f * (m["w"] - c["w"]), h=c["h"] + f * (m["h"] - c["h"]))


def cards_at(scene, t):
    return [card_at(c, t) for c in scene["cards"]]


def frame_times(k):
    """The times of a moving scene's k timed frames: each MOVING_STEP after the one before."""
    return [MOVING_START + (i + 1) * MOVING_STEP for i in range(k)]


def rgba_list(c):
    return [round(v, 4) for v in c]


def scene_document(scene):
    sublayers = []
    for c in scene["cards"]:
        layer = {"bounds": [0, 0, c["w"], c["h"]], "position": [c["cx"], c["cy"]], "cornerRadius": c["radius"],
                 "backgroundColor": rgba_list(c["fill"])}
        if c["angle"]:
            layer["transform"] = [{"rotate": c["angle"]}]
        if c["border"]:
            layer["borderWidth"] = c["border"]
            layer["borderColor"] = rgba_list(c["borderColor"])
        if c["shadow"]:
            layer.update({"shadowOpacity": c["shadow"]["opacity"], "shadowRadius": c["shadow"]["radius"],
                          "shadowOffset": [0, c["shadow"]["dy"]], "shadowColor": [0, 0, 0, 1]})
        if c.get("motion"):
            # CABasicAnimation's default timing is linear, as card_at moves the peers' cards.
            end = card_at(c, MOVING_SECONDS)
            layer["animations"] = [
                {"keyPath": "position", "fromValue": [c["cx"], c["cy"]], "toValue": [end["cx"], end["cy"]], "duration": MOVING_SECONDS},
                {"keyPath": "transform.rotation.z", "fromValue": c["angle"], "toValue": end["angle"], "duration": MOVING_SECONDS},
                {"keyPath": "bounds", "fromValue": [0, 0, c["w"], c["h"]], "toValue": [0, 0, end["w"], end["h"]],
                 "duration": MOVING_SECONDS}]
        sublayers.append(layer)
    document = {"format": "openquartz-scene", "version": 1, "size": [WIDTH, HEIGHT],
                "root": {"frame": [0, 0, WIDTH, HEIGHT], "backgroundColor": rgba_list(BACKGROUND), "sublayers": sublayers}}
    if scene.get("moving"):
        document["duration"] = MOVING_SECONDS
    return document


def css_rgba(c):
    return "rgba(%d,%d,%d,%.4f)" % (round(c[0] * 255), round(c[1] * 255), round(c[2] * 255), c[3])


def css_moving(c):
    """A moving card's box as CSS of `--f`, how far through MOVING_SECONDS it is (0 to 1): the same
    linear motion as card_at."""
    e = card_at(c, MOVING_SECONDS)
    def term(start, end, unit):
        return "calc(%.4f%s + var(--f) * %.4f%s)" % (start, unit, end - start, unit)
    return ("left:%s;top:%s;width:%s;height:%s;transform:rotate(%s);"
            % (term(c["cx"] - c["w"] / 2, e["cx"] - e["w"] / 2, "px"), term(c["cy"] - c["h"] / 2, e["cy"] - e["h"] / 2, "px"),
               term(c["w"], e["w"], "px"), term(c["h"], e["h"], "px"), term(c["angle"], e["angle"], "rad")))


def scene_html(scene):
    divs = []
    for c in scene["cards"]:
        if c.get("motion"):
            style = css_moving(c) + "border-radius:%.2fpx;background:%s;" % (c["radius"], css_rgba(c["fill"]))
        else:
            style = ("left:%.2fpx;top:%.2fpx;width:%.2fpx;height:%.2fpx;border-radius:%.2fpx;background:%s;"
                     % (c["cx"] - c["w"] / 2, c["cy"] - c["h"] / 2, c["w"], c["h"], c["radius"], css_rgba(c["fill"])))
            if c["angle"]:
                style += "transform:rotate(%.5frad);" % c["angle"]
        if c["border"]:
            style += "border:%.2fpx solid %s;" % (c["border"], css_rgba(c["borderColor"]))
        if c["shadow"]:
            s = c["shadow"]
            style += "box-shadow:0 %.2fpx %.2fpx rgba(0,0,0,%.3f);" % (s["dy"], 2 * s["radius"], s["opacity"])
        divs.append('<div style="%s"></div>' % style)
    return """<!DOCTYPE html><html><head><meta charset="utf-8"><style>
html, body { margin: 0; width: %dpx; height: %dpx; overflow: hidden; background: %s; }
body { --f: %.6f; }
div { position: absolute; box-sizing: border-box; }
</style><script>
// A still scene: frames where the background alternates between two near-equal colours, so every
// card is painted and rastered again. A moving one: each frame MOVING_STEP later than the one
// before, one custom property (--f) that every card's box is a function of, so every card is laid
// out, painted and rastered again where it now is (no per-card script, and no card promoted to a
// compositing layer, as Web Animations of transforms would: 10,000 moving cards took 15 s a frame
// that way). Resolves with the median milliseconds between frames.
const moving = %s;
window.measure = (frames) => new Promise(resolve => {
  const times = []; let last = 0, n = 0;
  function tick(now) {
    if (last) times.push(now - last);
    last = now;
    n++;
    if (moving) document.body.style.setProperty("--f", ((%f + n * %f) / %f).toFixed(6));
    else document.body.style.background = (n %% 2) ? "%s" : "%s";
    if (times.length < frames) requestAnimationFrame(tick);
    else { times.sort((a, b) => a - b); resolve(times[Math.floor(times.length / 2)]); }
  }
  requestAnimationFrame(tick);
});
</script></head><body>%s</body></html>""" % (WIDTH, HEIGHT, css_rgba(BACKGROUND), MOVING_START / MOVING_SECONDS,
                                              "true" if scene.get("moving") else "false", MOVING_START, MOVING_STEP,
                                              MOVING_SECONDS, css_rgba((0.951, 0.95, 0.96, 1)), css_rgba(BACKGROUND),
                                              "".join(divs))


# ----------------------------------------------------------------------------------------------
# Renderers. Each has prepare(scene) -> state, frame_ms(state, k) -> median ms, image(state) -> PNG path.

def rounded_points(c, segments=8):
    """The card's rounded rectangle as a polygon (for blend2d, which has no curves)."""
    w, h, r = c["w"] / 2, c["h"] / 2, c["radius"]
    points = []
    for (sx, sy, start) in [(1, 1, 0), (-1, 1, 90), (-1, -1, 180), (1, -1, 270)]:
        ox, oy = sx * (w - r), sy * (h - r)
        for k in range(segments + 1):
            a = math.radians(start + 90 * k / segments)
            points.append((ox + r * math.cos(a), oy + r * math.sin(a)))
    return points


class Skia:
    name = "skia"

    def __init__(self):
        import skia
        self.skia = skia

    def supports(self, scene):
        return True

    def record(self, cards):
        """The cards as an SkPicture."""
        skia = self.skia
        recorder = skia.PictureRecorder()
        canvas = recorder.beginRecording(skia.Rect(0, 0, WIDTH, HEIGHT))
        canvas.clear(skia.Color4f(*BACKGROUND))
        for c in cards:
            canvas.save()
            canvas.translate(c["cx"], c["cy"])
            canvas.rotate(math.degrees(c["angle"]))
            rect = skia.Rect(-c["w"] / 2, -c["h"] / 2, c["w"] / 2, c["h"] / 2)
            if c["shadow"]:
                s = c["shadow"]
                paint = skia.Paint(AntiAlias=True, Color4f=skia.Color4f(0, 0, 0, s["opacity"]),
                                   MaskFilter=skia.MaskFilter.MakeBlur(skia.kNormal_BlurStyle, s["radius"]))
                canvas.drawRRect(skia.RRect.MakeRectXY(rect.makeOffset(0, s["dy"]), c["radius"], c["radius"]), paint)
            canvas.drawRRect(skia.RRect.MakeRectXY(rect, c["radius"], c["radius"]),
                             skia.Paint(AntiAlias=True, Color4f=skia.Color4f(*c["fill"])))
            if c["border"]:
                b = c["border"]
                inset = rect.makeInset(b / 2, b / 2)
                canvas.drawRRect(skia.RRect.MakeRectXY(inset, c["radius"] - b / 2, c["radius"] - b / 2),
                                 skia.Paint(AntiAlias=True, Style=skia.Paint.kStroke_Style, StrokeWidth=b,
                                            Color4f=skia.Color4f(*c["borderColor"])))
            canvas.restore()
        return recorder.finishRecordingAsPicture()

    def prepare(self, scene, work):
        moving = scene.get("moving", False)
        return {"scene": scene, "moving": moving, "surface": self.skia.Surface(WIDTH, HEIGHT),
                "picture": self.record(cards_at(scene, MOVING_START) if moving else scene["cards"])}

    def frame_ms(self, state, k):
        surface, picture = state["surface"], state["picture"]
        times = []
        for t in frame_times(k):
            if state["moving"]:
                picture = self.record(cards_at(state["scene"], t))
            start = time.perf_counter()
            canvas = surface.getCanvas()
            canvas.drawPicture(picture)
            surface.flushAndSubmit()
            times.append((time.perf_counter() - start) * 1000)
        return statistics.median(times)

    def image(self, state, path):
        canvas = state["surface"].getCanvas()
        canvas.drawPicture(state["picture"])
        state["surface"].flushAndSubmit()
        state["surface"].makeImageSnapshot().save(path, self.skia.kPNG)
        return path


class Cairo:
    name = "cairo"

    def __init__(self):
        import cairo
        self.cairo = cairo

    def supports(self, scene):
        return "blur" not in scene

    @staticmethod
    def rounded(ctx, x, y, w, h, r):
        ctx.new_sub_path()
        ctx.arc(x + w - r, y + r, r, -math.pi / 2, 0)
        ctx.arc(x + w - r, y + h - r, r, 0, math.pi / 2)
        ctx.arc(x + r, y + h - r, r, math.pi / 2, math.pi)
        ctx.arc(x + r, y + r, r, math.pi, 3 * math.pi / 2)
        ctx.close_path()

    def record(self, cards):
        """The cards as a RecordingSurface."""
        cairo = self.cairo
        recording = cairo.RecordingSurface(cairo.CONTENT_COLOR_ALPHA, cairo.Rectangle(0, 0, WIDTH, HEIGHT))
        ctx = cairo.Context(recording)
        ctx.set_source_rgba(*BACKGROUND)
        ctx.paint()
        for c in cards:
            ctx.save()
            ctx.translate(c["cx"], c["cy"])
            ctx.rotate(c["angle"])
            self.rounded(ctx, -c["w"] / 2, -c["h"] / 2, c["w"], c["h"], c["radius"])
            ctx.set_source_rgba(*c["fill"])
            ctx.fill()
            if c["border"]:
                b = c["border"]
                self.rounded(ctx, -c["w"] / 2 + b / 2, -c["h"] / 2 + b / 2, c["w"] - b, c["h"] - b, c["radius"] - b / 2)
                ctx.set_line_width(b)
                ctx.set_source_rgba(*c["borderColor"])
                ctx.stroke()
            ctx.restore()
        return recording

    def prepare(self, scene, work):
        moving = scene.get("moving", False)
        return {"scene": scene, "moving": moving, "surface": self.cairo.ImageSurface(self.cairo.FORMAT_ARGB32, WIDTH, HEIGHT),
                "recording": self.record(cards_at(scene, MOVING_START) if moving else scene["cards"])}

    def draw(self, state):
        ctx = self.cairo.Context(state["surface"])
        ctx.set_source_surface(state["recording"], 0, 0)
        ctx.paint()
        state["surface"].flush()

    def frame_ms(self, state, k):
        times = []
        for t in frame_times(k):
            if state["moving"]:
                state["recording"] = self.record(cards_at(state["scene"], t))
            start = time.perf_counter()
            self.draw(state)
            times.append((time.perf_counter() - start) * 1000)
        return statistics.median(times)

    def image(self, state, path):
        if state["moving"]:
            state["recording"] = self.record(cards_at(state["scene"], MOVING_START))
        self.draw(state)
        state["surface"].write_to_png(path)
        return path


class Blend2D:
    name = "blend2d"

    def __init__(self):
        import blend2d
        self.b = blend2d

    def supports(self, scene):
        return "blur" not in scene

    @staticmethod
    def shapes(cards):
        """Each card with its outline and its border's inner outline as polygons."""
        shapes = []
        for c in cards:
            outer = rounded_points(c)
            inner = None
            if c["border"]:
                b = c["border"]
                inner = rounded_points({"w": c["w"] - 2 * b, "h": c["h"] - 2 * b, "radius": c["radius"] - b})
            shapes.append((c, outer, inner))
        return shapes

    def prepare(self, scene, work):
        moving = scene.get("moving", False)
        return {"scene": scene, "moving": moving, "image": self.b.Image(WIDTH, HEIGHT),
                "shapes": self.shapes(cards_at(scene, MOVING_START) if moving else scene["cards"])}

    def draw(self, state):
        b = self.b
        ctx = b.Context(state["image"])
        ctx.set_comp_op(b.CompOp.SRC_COPY)
        ctx.set_fill_style_rgba(*[round(v * 255) for v in BACKGROUND])
        ctx.fill_all()
        ctx.set_comp_op(b.CompOp.SRC_OVER)
        for c, outer, inner in state["shapes"]:
            ctx.save()
            ctx.translate(c["cx"], c["cy"])
            ctx.rotate(c["angle"])
            fill_points = inner if inner else outer
            path = b.Path()
            path.move_to(*fill_points[0])
            for p in fill_points[1:]:
                path.line_to(*p)
            path.close()
            ctx.set_fill_style_rgba(*[round(v * 255) for v in c["fill"]])
            ctx.fill_path(path)
            if inner:
                ring = b.Path()
                ring.move_to(*outer[0])
                for p in outer[1:]:
                    ring.line_to(*p)
                ring.close()
                reverse = inner[::-1]
                ring.move_to(*reverse[0])
                for p in reverse[1:]:
                    ring.line_to(*p)
                ring.close()
                ctx.set_fill_style_rgba(*[round(v * 255) for v in c["borderColor"]])
                ctx.fill_path(ring)
            ctx.restore()
        ctx.end()

    def frame_ms(self, state, k):
        times = []
        still = state["shapes"]
        for t in frame_times(k):
            if state["moving"]:
                # The polygons of each frame's cards are worked out untimed: Python arithmetic.
                state["shapes"] = self.shapes(cards_at(state["scene"], t))
            start = time.perf_counter()
            self.draw(state)
            times.append((time.perf_counter() - start) * 1000)
        state["shapes"] = still
        return statistics.median(times)

    def image(self, state, path):
        self.draw(state)
        # Blend2D's PRGB32 is premultiplied BGRA in memory.
        bgra = state["image"].asarray().astype(np.float32)
        alpha = bgra[..., 3:4] / 255
        rgb = np.where(alpha > 0, bgra[..., 2::-1] / np.maximum(alpha, 1e-6), 0)
        out = np.concatenate([np.clip(rgb, 0, 255), bgra[..., 3:4]], axis=2).round().astype(np.uint8)
        Image.fromarray(out, "RGBA").save(path)
        return path


class OpenQuartz:
    def __init__(self, quartz, backend, label=""):
        self.quartz, self.backend = quartz, backend
        self.name = "openquartz-" + backend + label

    def supports(self, scene):
        return True

    def prepare(self, scene, work):
        document = os.path.join(work, scene["name"] + ".json")
        if not os.path.exists(document):
            with open(document, "w") as f:
                json.dump(scene_document(scene), f)
        return {"document": document, "output": os.path.join(work, "%s.%s.png" % (scene["name"], self.name)),
                "moving": scene.get("moving", False)}

    def frame_ms(self, state, k):
        # A moving scene's frame is drawn at MOVING_START (the picture), its repeats each a step later.
        motion = ["--time", str(MOVING_START), "--repeat-step", repr(MOVING_STEP)] if state["moving"] else []
        run = subprocess.run([self.quartz, "render", state["document"], "-o", state["output"], "--backend", self.backend,
                              "--repeats", str(k), "--json"] + motion, capture_output=True, text=True)
        if run.returncode != 0:
            raise RuntimeError("quartz render failed: " + run.stderr)
        return json.loads(run.stdout.strip().splitlines()[-1])["frameSeconds"] * 1000

    def image(self, state, path):
        shutil.copyfile(state["output"], path)
        return path


class Chromium:
    name = "chromium"

    def __init__(self, binary):
        import websocket
        self.websocket = websocket
        self.profile = tempfile.mkdtemp(prefix="openquartz-peers-chromium-")
        self.process = subprocess.Popen(
            [binary, "--headless", "--no-sandbox", "--disable-gpu", "--disable-gpu-compositing", "--disable-gpu-vsync",
             "--disable-frame-rate-limit", "--hide-scrollbars", "--remote-debugging-port=0",
             "--user-data-dir=" + self.profile, "--window-size=%d,%d" % (WIDTH, HEIGHT), "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        port = None
        for line in self.process.stderr:
            if "DevTools listening on ws://" in line:
                port = int(line.split("ws://")[1].split("/")[0].split(":")[1])
                break
        if port is None:
            raise RuntimeError("Chromium did not start its DevTools endpoint")
        pages = json.loads(urllib.request.urlopen("http://127.0.0.1:%d/json/list" % port).read())
        page = next(p for p in pages if p["type"] == "page")
        self.socket = websocket.create_connection(page["webSocketDebuggerUrl"], timeout=600)
        self.next_id = 0
        self.call("Emulation.setDeviceMetricsOverride", width=WIDTH, height=HEIGHT, deviceScaleFactor=1, mobile=False)
        self.version = self.call("Runtime.evaluate", expression="navigator.userAgent")["result"]["value"]

    def call(self, method, **params):
        self.next_id += 1
        self.socket.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            message = json.loads(self.socket.recv())
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise RuntimeError("%s: %s" % (method, message["error"]))
                return message["result"]

    def supports(self, scene):
        return True

    def prepare(self, scene, work):
        page = os.path.join(work, scene["name"] + ".html")
        with open(page, "w") as f:
            f.write(scene_html(scene))
        return {"url": "file://" + page}

    def load(self, state):
        self.call("Page.navigate", url=state["url"])
        for _ in range(600):
            ready = self.call("Runtime.evaluate", expression="document.readyState === 'complete' && !!window.measure")
            if ready["result"].get("value"):
                return
            time.sleep(0.05)
        raise RuntimeError("the page did not load")

    def frame_ms(self, state, k):
        self.load(state)
        result = self.call("Runtime.evaluate", expression="measure(%d)" % (k + 1), awaitPromise=True, returnByValue=True)
        self.unload()
        return float(result["result"]["value"])

    def unload(self):
        # A moving page's animations run for ever: left loaded, Chromium would draw frames flat out
        # while the other renderers are timed.
        self.call("Page.navigate", url="about:blank")

    def image(self, state, path):
        self.load(state)
        self.call("Runtime.evaluate", expression="document.body.style.background = '%s'" % css_rgba(BACKGROUND))
        shot = self.call("Page.captureScreenshot", format="png")
        self.unload()
        with open(path, "wb") as f:
            f.write(base64.b64decode(shot["data"]))
        return path

    def close(self):
        self.socket.close()
        self.process.terminate()
        self.process.wait()
        shutil.rmtree(self.profile, ignore_errors=True)


# ----------------------------------------------------------------------------------------------
# The run.

def frames_for(renderer, scene):
    """Frames per timing batch: fewer where a frame is slow."""
    n = len(scene["cards"])
    return 3 if n >= 10000 else 5 if n >= 1000 else 15


def flip_against(reference_png, test_png):
    import flip_evaluator
    ref = np.asarray(Image.open(reference_png).convert("RGB"), dtype=np.float32) / 255
    test = np.asarray(Image.open(test_png).convert("RGB"), dtype=np.float32) / 255
    if ref.shape != test.shape:
        return float("nan")
    return float(flip_evaluator.evaluate(ref, test, "LDR", applyMagma=False)[1])


def side_by_side(images, path, title):
    """The renderers' images in a grid, each labelled with its name and FLIP against OpenQuartz CPU."""
    thumbs = []
    for label, png in images:
        im = Image.open(png).convert("RGB").resize((640, 360), Image.LANCZOS)
        canvas = Image.new("RGB", (640, 384), "white")
        canvas.paste(im, (0, 24))
        ImageDraw.Draw(canvas).text((6, 5), label, fill="black")
        thumbs.append(canvas)
    columns = 3
    rows = (len(thumbs) + columns - 1) // columns
    sheet = Image.new("RGB", (columns * 644, rows * 388 + 28), (230, 230, 232))
    ImageDraw.Draw(sheet).text((6, 8), title, fill="black")
    for i, t in enumerate(thumbs):
        sheet.paste(t, ((i % columns) * 644 + 2, 28 + (i // columns) * 388 + 2))
    sheet.save(path)


def plot(results, renderers, scenes, key, xs, path, xlabel, title):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(8, 5), dpi=100)
    for r in renderers:
        points = [(x, results[s][r]["median"]) for x, s in zip(xs, scenes) if r in results[s]]
        if points:
            ax.plot([p[0] for p in points], [p[1] for p in points], marker="o", label=r)
    ax.set_xscale("log" if key == "layers" else "linear")
    ax.set_yscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel("frame time (ms, median)")
    ax.set_title(title, fontsize=9)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quartz", required=True)
    parser.add_argument("--chromium", default=shutil.which("chromium") or shutil.which("chromium-browser"))
    parser.add_argument("--out", default="out/peers")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--layers", default=",".join(map(str, LAYER_COUNTS)))
    parser.add_argument("--blur", default=",".join(map(str, BLUR_RADII)))
    parser.add_argument("--baseline", help="another quartz binary (an earlier build) timed in the same interleaved "
                        "rounds, as openquartz-cpu@base and openquartz-gpu@base: before and after from one run")
    parser.add_argument("--no-peers", action="store_true", help="time OpenQuartz (and --baseline) only")
    parser.add_argument("--motion", choices=["both", "still", "moving"], default="both",
                        help="the still scenes, their moving variants, or both (default)")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    work = tempfile.mkdtemp(prefix="openquartz-peers-")

    still_layers = [layers_scene(int(n)) for n in args.layers.split(",") if n]
    still_blurs = [blur_scene(int(r)) for r in args.blur.split(",") if r]
    layer_scenes, blur_scenes = [], []
    if args.motion != "moving":
        layer_scenes += still_layers
        blur_scenes += still_blurs
    if args.motion != "still":
        layer_scenes += [moving_scene(s) for s in still_layers]
        blur_scenes += [moving_scene(s) for s in still_blurs]
    scenes = layer_scenes + blur_scenes
    renderers = [OpenQuartz(args.quartz, "cpu"), OpenQuartz(args.quartz, "gpu")]
    if args.baseline:
        renderers += [OpenQuartz(args.baseline, "cpu", "@base"), OpenQuartz(args.baseline, "gpu", "@base")]
    if not args.no_peers:
        renderers += [Skia(), Cairo(), Blend2D()]
    if args.chromium and not args.no_peers:
        renderers.append(Chromium(args.chromium))
    names = [r.name for r in renderers]
    states = {(r.name, s["name"]): r.prepare(s, work) for r in renderers for s in scenes if r.supports(s)}
    samples = {s["name"]: {r.name: [] for r in renderers if r.supports(s)} for s in scenes}
    for round_index in range(args.rounds):
        order = renderers[round_index % len(renderers):] + renderers[:round_index % len(renderers)]
        for s in scenes:
            for r in order:
                if not r.supports(s):
                    continue
                ms = r.frame_ms(states[(r.name, s["name"])], frames_for(r, s))
                samples[s["name"]][r.name].append(ms)
                print("round %d  %-12s %-16s %10.2f ms" % (round_index + 1, s["name"], r.name, ms), flush=True)

    results = {}
    for s in scenes:
        results[s["name"]] = {}
        for r, values in samples[s["name"]].items():
            median = statistics.median(values)
            results[s["name"]][r] = {"median": median, "min": min(values), "max": max(values),
                                     "spread": (max(values) - min(values)) / median if median else 0, "samples": values}

    # Pictures: each renderer's image of two scenes, with FLIP against OpenQuartz's CPU image.
    flips = {}
    pictured = []
    for group, preferred in [(layer_scenes, "layers-1000"), (blur_scenes, "blur-20")]:
        for suffix in ["", "-moving"]:
            kind = [s["name"] for s in group if s["name"].endswith("-moving") == bool(suffix)]
            if kind:
                pictured.append(preferred + suffix if preferred + suffix in kind else kind[-1])
    for name in pictured:
        scene = next(s for s in scenes if s["name"] == name)
        images = []
        reference = None
        for r in renderers:
            if not r.supports(scene):
                continue
            png = r.image(states[(r.name, name)], os.path.join(args.out, "%s.%s.png" % (name, r.name)))
            if r.name == "openquartz-cpu":
                reference = png
            images.append((r.name, png))
        flips[name] = {}
        labelled = []
        for label, png in images:
            score = flip_against(reference, png)
            flips[name][label] = score
            labelled.append(("%s   FLIP vs OpenQuartz CPU: %.4f" % (label, score), png))
        side_by_side(labelled, os.path.join(args.out, "side-by-side-%s.png" % name),
                     "%s: every renderer's picture, with its FLIP mean error against OpenQuartz's CPU image" % name)

    machine = "%s, %d CPUs, %s" % (platform.machine(), os.cpu_count(), platform.platform())
    gl = subprocess.run([args.quartz, "info"], capture_output=True, text=True).stdout
    gl_renderer = next((line.split(":", 1)[1].strip() for line in gl.splitlines() if "renderer" in line.lower()), "unknown")
    chromium_version = renderers[-1].version if isinstance(renderers[-1], Chromium) else "not run"
    meta = {"date": time.strftime("%Y-%m-%d"), "machine": machine, "gl": gl_renderer, "chromium": chromium_version,
            "rounds": args.rounds}
    with open(os.path.join(args.out, "results.json"), "w") as f:
        json.dump({"meta": meta, "results": results, "flip": flips}, f, indent=1)

    for suffix, words in [("", ""), ("-moving", ", moving")]:
        chosen = [s for s in layer_scenes if s["name"].endswith("-moving") == bool(suffix)]
        if chosen:
            plot(results, names, [s["name"] for s in chosen], "layers", [len(s["cards"]) for s in chosen],
                 os.path.join(args.out, "layers%s.png" % suffix), "cards (rounded, bordered, rotated, translucent%s)" % words,
                 "1280x720 frame time against layer count (%s; GL: %s)" % (meta["date"], gl_renderer))
        chosen = [s for s in blur_scenes if s["name"].endswith("-moving") == bool(suffix)]
        if chosen:
            plot(results, names, [s["name"] for s in chosen], "blur", [s["blur"] for s in chosen],
                 os.path.join(args.out, "blur%s.png" % suffix), "shadowRadius (CSS blur = 2 x radius, Skia sigma = radius%s)" % words,
                 "1280x720 frame time against blur radius (%s; GL: %s)" % (meta["date"], gl_renderer))

    lines = ["Peer benchmark, %s, %s; GL device: %s; %s; median of %d interleaved rounds (spread = (max - min) / median)."
             % (meta["date"], machine, gl_renderer, chromium_version, args.rounds), "",
             "| scene | " + " | ".join(names) + " |", "|---|" + "---|" * len(names)]
    for s in scenes:
        row = []
        for r in names:
            entry = results[s["name"]].get(r)
            row.append("n/a" if entry is None else "%.2f ms (±%.0f%%)" % (entry["median"], entry["spread"] * 50))
        lines.append("| %s | %s |" % (s["name"], " | ".join(row)))
    for base in ["openquartz-cpu", "openquartz-gpu"]:
        lines += ["", "Ratio of each renderer's frame time to %s (above 1: %s is faster):" % (base, base), "",
                  "| scene | " + " | ".join(names) + " |", "|---|" + "---|" * len(names)]
        for s in scenes:
            b = results[s["name"]][base]["median"]
            row = ["n/a" if r not in results[s["name"]] else "%.2f" % (results[s["name"]][r]["median"] / b) for r in names]
            lines.append("| %s | %s |" % (s["name"], " | ".join(row)))
    lines += ["", "FLIP mean error of each renderer's image against OpenQuartz's CPU image:", ""]
    for name, scores in flips.items():
        lines.append("- %s: " % name + ", ".join("%s %.4f" % (k, v) for k, v in scores.items()))
    with open(os.path.join(args.out, "report.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))
    for r in renderers:
        if hasattr(r, "close"):
            r.close()
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
