"""The reference packages' figures for the checked-in image pairs, one JSON object per pair.

Run by PixelDiffReferenceTests inside a virtual environment holding pixelmatch==0.3.0 and
flip-evaluator==1.7 (the test installs them); Pillow reads the PNGs as 8-bit RGB(A).
Usage: reference_metrics.py A.png B.png [A2.png B2.png ...]
"""
import json
import sys

import numpy as np
from PIL import Image
from pixelmatch.core import pixelmatch
import flip_evaluator

THRESHOLDS = [0.0, 0.05, 0.1, 0.3]

files = sys.argv[1:]
for k in range(0, len(files), 2):
    a, b = Image.open(files[k]), Image.open(files[k + 1])
    rgba_a, rgba_b = a.convert("RGBA"), b.convert("RGBA")
    counts = [pixelmatch(list(rgba_a.tobytes()), list(rgba_b.tobytes()), a.width, a.height, threshold=t, includeAA=aa)
              for t in THRESHOLDS for aa in (False, True)]
    ref = np.asarray(a.convert("RGB"), dtype=np.float32) / 255.0
    test = np.asarray(b.convert("RGB"), dtype=np.float32) / 255.0
    error_map, mean, _ = flip_evaluator.evaluate(ref, test, "LDR", applyMagma=False)
    error_map = np.asarray(error_map, dtype=np.float64).reshape(a.height, a.width)
    print(json.dumps({"pixelmatch": counts, "flipMean": float(mean), "flipMax": float(error_map.max()),
                      "flipMap": [round(float(v), 6) for v in error_map.flatten()[:: max(1, error_map.size // 500)]]}))
