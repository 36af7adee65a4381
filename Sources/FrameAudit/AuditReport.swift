import Foundation
import ImageCodec
import MapRender
import Wording

/// What the audit checks, and the bar each check must clear.
public enum AuditCheck: String, Hashable, Sendable, CaseIterable {
    /// An overlay against the tiles beside its edge: WCAG 2.1 success criterion 1.4.11.
    case nonTextContrast = "non-text contrast"
    /// Text against what is behind it: WCAG 2.1 success criterion 1.4.3.
    case textContrast = "text contrast"
    /// Apple's Human Interface Guidelines' smallest text, 11 pt (SPEC.md section 6).
    case textSize = "text size"
    /// Apple's Human Interface Guidelines' smallest touch target, 44 x 44 pt (SPEC.md section 6).
    case targetSize = "target size"

    /// The least a measurement may be: a contrast ratio, or logical pixels.
    public var required: Double {
        switch self {
        case .nonTextContrast: 3
        case .textContrast: 4.5
        case .textSize: 11
        case .targetSize: 44
        }
    }

    /// Where the requirement comes from.
    public var source: String {
        switch self {
        case .nonTextContrast: "WCAG 2.1 1.4.11"
        case .textContrast: "WCAG 2.1 1.4.3"
        case .textSize, .targetSize: "Apple Human Interface Guidelines"
        }
    }
}

/// One check of one element: what was measured, and whether it falls short.
public struct AuditFinding: Hashable, Sendable {
    public enum Measurement: Hashable, Sendable {
        /// The lowest contrast found, the logical pixel of the frame where it was found, the
        /// element's colour there and the colour it was measured against.
        case contrast(ContrastRatio, x: Int, y: Int, element: Colour, background: Colour)
        /// A font size in logical pixels.
        case textSize(Double)
        /// The area a tap on the element hits, in logical pixels.
        case targetSize(width: Double, height: Double)
    }

    public let check: AuditCheck
    public let measurement: Measurement

    public init(check: AuditCheck, measurement: Measurement) {
        self.check = check
        self.measurement = measurement
    }

    /// Whether the measurement is under the check's requirement. Ratios are not rounded
    /// first: 2.999:1 is under 3:1.
    public var flagged: Bool {
        switch measurement {
        case .contrast(let ratio, _, _, _, _): ratio.value < check.required
        case .textSize(let size): size < check.required
        case .targetSize(let width, let height): min(width, height) < check.required
        }
    }

    /// One line: "contrast 2.13:1 at (120, 201), under 3:1 (WCAG 2.1 1.4.11): #E085FF against #FFFFFF".
    public var summary: String {
        let required = check.required
        switch measurement {
        case .contrast(let ratio, let x, let y, let element, let background):
            let verdict = flagged ? "under" : "at least"
            return "\(check.rawValue) \(ratio) at (\(x), \(y)), \(verdict) \(Self.number(required)):1 (\(check.source)): \(element) against \(background)"
        case .textSize(let size):
            return "\(check.rawValue) \(Self.number(size)) px, \(flagged ? "under" : "at least") \(Self.number(required)) px (\(check.source))"
        case .targetSize(let width, let height):
            let verdict = flagged ? "under" : "at least"
            return "\(check.rawValue) \(Self.number(width)) x \(Self.number(height)) px, \(verdict) \(Self.number(required)) x \(Self.number(required)) px (\(check.source))"
        }
    }

    /// A size or requirement as people write it: "44", "9.5", "4.5".
    static func number(_ value: Double) -> String {
        value.rounded() == value ? String(Int(value)) : String(format: "%.1f", value)
    }
}

/// An element of the frame and what the audit found about it.
public struct AuditedElement: Hashable, Sendable {
    public let element: DrawnElement
    public let findings: [AuditFinding]
}

/// A frame's audit: each element checked, bottom to top.
public struct AuditReport: Hashable, Sendable {
    public let elements: [AuditedElement]

    /// The findings that fall short.
    public var flagged: [AuditFinding] { elements.flatMap(\.findings).filter(\.flagged) }

    /// How many checks were made.
    public var checkCount: Int { elements.reduce(0) { $0 + $1.findings.count } }

    /// The report for a person: a summary line, then each element's findings.
    public func text(title: String) -> String {
        var lines = ["\(title): \(flagged.count) of \(checkCount) checks flagged"]
        for audited in elements {
            lines.append("\(audited.element.label.britishEnglish) (\(audited.element.category.rawValue))")
            for finding in audited.findings {
                lines.append("  \(finding.flagged ? "FLAGGED" : "ok     ") \(finding.summary)")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The report for a program: `{"scene", "flagged", "checks", "elements": [{"category",
    /// "id"?, "label", "findings": [{"check", "source", "required", "flagged", and "ratio",
    /// "x", "y", "element", "background" | "size" | "width", "height"}]}]}`, keys sorted.
    public func json(title: String) -> Data {
        let document: [String: Any] = [
            "scene": title,
            "flagged": flagged.count,
            "checks": checkCount,
            "elements": elements.map { audited -> [String: Any] in
                var element: [String: Any] = [
                    "category": audited.element.category.rawValue, "label": audited.element.label.britishEnglish,
                    "findings": audited.findings.map(Self.document(for:)),
                ]
                if let id = audited.element.id { element["id"] = id }
                return element
            },
        ]
        // The document holds only strings, numbers, booleans, arrays and dictionaries.
        let data = try! JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        return data + Data("\n".utf8)
    }

    private static func document(for finding: AuditFinding) -> [String: Any] {
        var document: [String: Any] = [
            "check": finding.check.rawValue, "source": finding.check.source, "required": finding.check.required, "flagged": finding.flagged,
        ]
        switch finding.measurement {
        case .contrast(let ratio, let x, let y, let element, let background):
            document["ratio"] = ratio.truncated
            document["x"] = x
            document["y"] = y
            document["element"] = element.description
            document["background"] = background.description
        case .textSize(let size):
            document["size"] = size
        case .targetSize(let width, let height):
            document["width"] = width
            document["height"] = height
        }
        return document
    }
}
