import Foundation

/// The demo's index.html: every scene with its GPU image, CPU image and heat map side by side,
/// its summary and whether the two backends agree. Self-contained (no network); its one script
/// counts the images the browser could show into `body[data-loaded]`.
enum IndexPage {
    struct Entry {
        let name: String
        let summary: String
        let source: String
        /// nil when only the CPU rendered.
        let agrees: Bool?
        let report: String
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    static func html(_ entries: [Entry], title: String, closing: String) -> String {
        var rows = ""
        for entry in entries {
            let name = escape(entry.name)
            let verdict = entry.agrees.map { $0 ? "<span class=ok>agree</span>" : "<span class=bad>DISAGREE</span>" } ?? "CPU only"
            let images = entry.agrees == nil
                ? "<figure><img src=\"\(name).cpu.png\" alt=\"\(name) on the CPU\"><figcaption>CPU</figcaption></figure>"
                : ["gpu", "cpu", "heatmap"].map { kind in
                    "<figure><img src=\"\(name).\(kind).png\" alt=\"\(name) \(kind)\"><figcaption>\(kind == "heatmap" ? "heat map" : kind.uppercased())</figcaption></figure>"
                }.joined()
            rows += """
            <section id="\(name)"><h2>\(name) \(verdict)</h2><p>\(escape(entry.summary))</p>
            <div class=images>\(images)</div><p class=report>\(escape(entry.report)) <small>(\(escape(entry.source)))</small></p></section>

            """
        }
        return """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><title>\(escape(title))</title>
        <style>
        body { font: 12px/1.35 sans-serif; margin: 16px; background: #fafafa; color: #222; }
        main { display: grid; grid-template-columns: repeat(auto-fill, minmax(440px, 1fr)); gap: 8px; }
        section { background: white; border: 1px solid #ddd; border-radius: 6px; padding: 4px 10px; }
        h2 { font-size: 13px; margin: 2px 0; } .ok { color: #18794e; } .bad { color: #c0392b; }
        section > p { margin: 2px 0; max-height: 3.9em; overflow: hidden; }
        .images { display: flex; gap: 6px; align-items: flex-start; }
        figure { margin: 0; } img { max-width: 136px; max-height: 100px; border: 1px solid #ccc; }
        figcaption, .report { color: #666; font-size: 10px; }
        </style>
        <script>
        // For tests and people alike: how many of the page's images the browser could show.
        window.addEventListener("load", () => {
          const images = Array.from(document.images);
          document.body.dataset.loaded = images.filter(i => i.complete && i.naturalWidth > 0).length + "/" + images.length;
        });
        </script></head><body>
        <h1>\(escape(title))</h1><p>\(entries.count) scenes. \(escape(closing))</p>
        <main>
        \(rows)</main></body></html>

        """
    }
}
