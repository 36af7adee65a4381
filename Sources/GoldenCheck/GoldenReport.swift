import Foundation
import ImageCodec

/// A self-contained HTML page with expected, actual and diff images side by side for each
/// state, failures first. Images are embedded, so the page can be kept as a CI artefact.
public enum GoldenReport {
    public static func html(for results: [GoldenResult], title: String = "Golden image report") -> String {
        let failed = results.filter { !$0.passed }.count
        let ordered = results.filter { !$0.passed } + results.filter(\.passed)
        var rows = ""
        for result in ordered {
            let images: (RasterImage?, RasterImage?, RasterImage?)
            switch result.outcome {
            case .matched(let comparison), .mismatched(let comparison):
                images = (comparison.expected, comparison.actual, comparison.diffImage())
            case .missingGolden(let actual):
                images = (nil, actual, nil)
            case .failed:
                images = (nil, nil, nil)
            }
            rows += """
                <section class="\(result.passed ? "pass" : "fail")">
                <h2>\(escape(result.name))</h2>
                <p>\(escape(result.summary))</p>
                <div class="images">
                \(figure("Expected", images.0))\(figure("Actual", images.1))\(figure("Diff", images.2))
                </div>
                </section>

                """
        }
        return """
            <!DOCTYPE html>
            <html lang="en-GB">
            <head><meta charset="utf-8"><title>\(escape(title))</title>
            <style>
            body { font-family: "DejaVu Sans", sans-serif; margin: 1.5em; background: #fafafa; }
            section { border-left: 6px solid #3a3; padding: 0.5em 1em; margin-bottom: 1.5em; background: #fff; }
            section.fail { border-left-color: #d22; }
            .images { display: flex; gap: 1em; flex-wrap: wrap; }
            figure { margin: 0; }
            figcaption { font-weight: bold; margin-bottom: 0.3em; }
            img { border: 1px solid #ccc; image-rendering: pixelated; max-width: 100%; }
            </style></head>
            <body>
            <h1>\(escape(title))</h1>
            <p>\(results.count - failed) of \(results.count) states match; \(failed) do not.</p>
            \(rows)</body>
            </html>

            """
    }

    private static func figure(_ caption: String, _ image: RasterImage?) -> String {
        guard let image, let png = try? image.pngData() else {
            return "<figure><figcaption>\(caption)</figcaption><p>None</p></figure>"
        }
        return "<figure><figcaption>\(caption)</figcaption><img alt=\"\(caption)\" src=\"data:image/png;base64,\(png.base64EncodedString())\"></figure>"
    }

    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
