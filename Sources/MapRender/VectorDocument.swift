import CCairo
import Foundation

/// A document of vector pages written by Cairo's PDF or SVG surface, drawn in millimetres: a
/// tactile map for swell paper or an embosser. Its `canvas` draws on the current page with the
/// same calls a frame uses; lines and text stay vectors, and PDF text stays text.
public final class VectorDocument {
    public enum Format: String, Sendable, CaseIterable {
        case pdf, svg
    }

    /// The page's drawing surface; user units are millimetres from the page's top-left corner.
    public let canvas: Canvas
    private let format: Format
    private let path: String

    /// Points (1/72 inch, Cairo's PDF and SVG unit) per millimetre.
    static let pointsPerMillimetre = 72 / 25.4

    /// Starts a document at `path`, its pages `width` x `height` millimetres. An SVG document
    /// holds one page, and its coordinates are millimetres, as its width and height say; a PDF's
    /// are points.
    public init(_ format: Format, path: String, width: Double, height: Double) throws(VectorDocumentError) {
        let surface = switch format {
        case .pdf: cairo_pdf_surface_create(path, width * Self.pointsPerMillimetre, height * Self.pointsPerMillimetre)!
        case .svg: cairo_svg_surface_create(path, width, height)!
        }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            let reason = String(cString: cairo_status_to_string(cairo_surface_status(surface)))
            cairo_surface_destroy(surface)
            throw VectorDocumentError(path: path, reason: reason)
        }
        if format == .svg { cairo_svg_surface_set_document_unit(surface, CAIRO_SVG_UNIT_MM) }
        self.format = format
        self.path = path
        canvas = Canvas(surface: surface, width: Int(width.rounded(.up)), height: Int(height.rounded(.up)))
        if format == .pdf { canvas.scale(by: Self.pointsPerMillimetre) }
    }

    /// Ends the page and starts the next (PDF only).
    public func nextPage() {
        precondition(format == .pdf, "an SVG document holds one page")
        cairo_show_page(canvas.context)
    }

    /// Writes out what is left and closes the file; throws when Cairo could not write it.
    public func finish() throws(VectorDocumentError) {
        cairo_surface_finish(canvas.surface)
        let status = cairo_surface_status(canvas.surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw VectorDocumentError(path: path, reason: String(cString: cairo_status_to_string(status)))
        }
    }
}

/// A document Cairo could not start or write.
public struct VectorDocumentError: Error, CustomStringConvertible {
    public let path: String
    public let reason: String
    public var description: String { "\(path): \(reason)" }
}
