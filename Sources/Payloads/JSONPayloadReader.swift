import Foundation
import StrictJSON

/// Parses JSON payloads with the strict JSON parser (no duplicate keys, nesting at most
/// 256 deep), after refusing any over the size limit, and turns a CycleStreets error answer,
/// `{"error": "..."}`, into `PayloadError.apiError`.
enum JSONPayloadReader {
    /// The parsed document; `documentName` names it in a malformed-JSON message.
    static func root(of data: Data, maxBytes: Int, documentName: String) throws(PayloadError) -> JSONValue {
        let document = try self.document(of: data, maxBytes: maxBytes, documentName: documentName)
        try rejectingAPIError(document)
        return document
    }

    /// The parsed document, an API error answer included, for readers that tell other services'
    /// errors (Valhalla's also has an `error` member) from CycleStreets' first.
    static func document(of data: Data, maxBytes: Int, documentName: String) throws(PayloadError) -> JSONValue {
        guard data.count <= maxBytes else { throw .tooLarge(bytes: data.count, limit: maxBytes) }
        do {
            return try JSONValue.parse(data, documentName: documentName)
        } catch {
            throw .json(error)
        }
    }

    /// Throws `PayloadError.apiError` when `document` is a CycleStreets error answer,
    /// `{"error": "..."}`.
    static func rejectingAPIError(_ document: JSONValue) throws(PayloadError) {
        if case .object(let fields) = document, let error = fields["error"] {
            if case .string(let message) = error { throw .apiError(message: message) }
            throw .apiError(message: error.summary)
        }
    }

    /// Runs `read`, turning the JSON field error it throws into `PayloadError.json`, for readers
    /// that also throw payload errors of their own (too few points, say).
    static func fields<Value>(_ read: () throws(JSONFieldError) -> Value) throws(PayloadError) -> Value {
        do {
            return try read()
        } catch {
            throw .json(error)
        }
    }
}
