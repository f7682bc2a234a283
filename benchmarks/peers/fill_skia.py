"""The path-fill benchmark shape drawn by skia-python, timed the same way (median of repeated
fills of a fresh 1000x1000 raster), for benchmarks/peers/compare_fill.sh."""
import math
import statistics
import time

import skia


def petal_path():
    path = skia.Path()
    cx, cy = 500.0, 500.0
    path.moveTo(cx + 450, cy)
    for i in range(24):
        a0, a1 = i * 2 * math.pi / 24, (i + 1) * 2 * math.pi / 24
        mid = (a0 + a1) / 2
        path.cubicTo(cx + 250 * math.cos(mid - 0.2), cy + 250 * math.sin(mid - 0.2),
                     cx + 250 * math.cos(mid + 0.2), cy + 250 * math.sin(mid + 0.2),
                     cx + 450 * math.cos(a1), cy + 450 * math.sin(a1))
    path.close()
    return path


def main():
    path = petal_path()
    paint = skia.Paint(AntiAlias=True, Color=skia.ColorSetARGB(255, 51, 102, 204))
    times = []
    for _ in range(60):
        start = time.perf_counter()
        surface = skia.Surface(1000, 1000)
        with surface as canvas:
            canvas.drawPath(path, paint)
        surface.flushAndSubmit()
        times.append(time.perf_counter() - start)
    print(f"skia-python fill curved path 1000x1000: median {statistics.median(times) * 1e3:.2f} ms "
          f"(p25 {statistics.quantiles(times, n=4)[0] * 1e3:.2f}, p75 {statistics.quantiles(times, n=4)[2] * 1e3:.2f})")


if __name__ == "__main__":
    main()
