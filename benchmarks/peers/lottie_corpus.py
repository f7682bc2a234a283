"""The Lottie files the peer harnesses draw, and the size each is drawn at (shared by
lottie_peers.py and lottie_stages.py)."""
import json
import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def fitted(w, h):
    """The size lottie-ios's snapshots use: the longer side at most 500 points, never enlarged."""
    scale = min(1.0, 500.0 / max(w, h))
    return max(1, round(w * scale)), max(1, round(h * scale))


def corpus(shared):
    """(name, path) of every file of ../shared/lottie that lottie-ios renders without customizing
    it (index.json), then ours (Tests/LottieSampleTests/Documents, Examples/lottie)."""
    files = []
    index = os.path.join(shared, "lottie", "index.json")
    if os.path.exists(index):
        for sample in json.load(open(index)):
            if sample.get("lottie_ios_custom") is None and sample["name"] != "TypeFace-G":
                files.append((sample["name"], os.path.join(shared, "lottie", sample["sample"])))
    for folder in ["Tests/LottieSampleTests/Documents", "Examples/lottie"]:
        for name in sorted(os.listdir(os.path.join(ROOT, folder))):
            if name.endswith(".json"):
                files.append(("ours-" + name[:-5], os.path.join(ROOT, folder, name)))
    return files
