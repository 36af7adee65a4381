import Foundation
import SwiftProtobuf

/// A serialized GTFS-realtime FeedMessage read one entity at a time: its top-level fields are
/// walked in the protocol buffer wire format (a key, then for the header and each entity a length
/// and that many bytes), and each entity is decoded on its own by the generated code.
///
/// SwiftProtobuf decodes a message whole, and has no way to hand out a repeated field's items
/// one at a time. A whole region's file decoded at once takes several times its size in memory;
/// walking the outer message, whose only fields are the header and the entities, keeps one
/// entity decoded at a time and the file's bytes a block at a time.
struct RealtimeEntities {
    enum Source {
        case file(FileHandle)
        case data(Data)
    }

    /// How much is read from a file at a time.
    static let blockSize = 1 << 20
    /// The largest entity read: a trip's predictions for hundreds of stops take a few kilobytes.
    static let maxEntityBytes = 4 << 20

    let file: String
    private let source: Source
    private var bytes: [UInt8] = []
    /// Where in `bytes` the next field starts, and how many bytes before `bytes` were dropped.
    private var position = 0
    private var dropped = 0
    private var sourceEnded = false
    private var entityIndex = 0
    private var timestamp: Int?
    private var hasHeader = false

    init(source: Source, file: String) {
        self.source = source
        self.file = file
        if case .data(let data) = source {
            bytes = [UInt8](data)
            sourceEnded = true
        }
    }

    /// The next entity and its index among the message's entities, counting from 0; nil at the end.
    mutating func next() throws(GTFSError) -> (Int, TransitRealtime_FeedEntity)? {
        while true {
            guard try available(1) else { return nil }
            let keyOffset = offset
            let key = try varint()
            let field = key >> 3, wireType = key & 7
            guard field > 0 else { throw notAFeedMessage("byte \(keyOffset) has field number 0") }
            switch wireType {
            case 0: _ = try varint()
            case 1: try skip(8)
            case 5: try skip(4)
            case 2:
                let length = try varint()
                let what = field == 2 ? "entity[\(entityIndex)]" : field == 1 ? "the header" : "field \(field)"
                guard length <= UInt64(Self.maxEntityBytes) else {
                    throw notAFeedMessage("\(what) at byte \(keyOffset) declares \(length) bytes; allowed up to \(FeedLimits.describe(Self.maxEntityBytes))")
                }
                let count = Int(length)
                guard try available(count) else { throw notAFeedMessage("\(what) at byte \(keyOffset) is cut short") }
                let slice = bytes[position..<(position + count)]
                position += count
                if field == 1 {
                    try readHeader(Data(slice))
                } else if field == 2 {
                    let index = entityIndex
                    entityIndex += 1
                    do {
                        return (index, try TransitRealtime_FeedEntity(serializedBytes: Data(slice)))
                    } catch {
                        throw GTFSError(file: file, message: "entity[\(index)]: is not a FeedEntity that can be read (\(error)); allowed a serialized FeedEntity with an id")
                    }
                }
            default:
                throw notAFeedMessage("byte \(keyOffset) has wire type \(wireType), which a FeedMessage does not use")
            }
        }
    }

    /// The header's timestamp, once every entity has been read; an error when there was no header.
    func headerTimestamp() throws(GTFSError) -> Int? {
        guard hasHeader else { throw notAFeedMessage("it has no header") }
        return timestamp
    }

    private mutating func readHeader(_ data: Data) throws(GTFSError) {
        let header: TransitRealtime_FeedHeader
        do {
            header = try TransitRealtime_FeedHeader(serializedBytes: data)
        } catch {
            throw notAFeedMessage("its header cannot be read: \(error)")
        }
        hasHeader = true
        if header.hasTimestamp, header.timestamp > 0 { timestamp = Int(clamping: header.timestamp) }
    }

    private func notAFeedMessage(_ reason: String) -> GTFSError {
        GTFSError(file: file, message: "is not a GTFS-realtime feed message (\(reason)); allowed a serialized FeedMessage")
    }

    /// Where the next byte lies in the file.
    private var offset: Int { dropped + position }

    /// Whether `count` more bytes can be had, reading blocks from the file as needed.
    private mutating func available(_ count: Int) throws(GTFSError) -> Bool {
        while bytes.count - position < count {
            guard !sourceEnded, case .file(let handle) = source else { return false }
            if position > 0 {
                bytes.removeFirst(position)
                dropped += position
                position = 0
            }
            let block: Data
            do {
                block = try handle.read(upToCount: Self.blockSize) ?? Data()
            } catch {
                throw GTFSError(file: file, message: "cannot be read: \(error.localizedDescription)")
            }
            if block.isEmpty { sourceEnded = true } else { bytes.append(contentsOf: block) }
        }
        return true
    }

    private mutating func varint() throws(GTFSError) -> UInt64 {
        let start = offset
        var value: UInt64 = 0
        for shift in stride(from: 0, to: 70, by: 7) {
            guard try available(1) else { throw notAFeedMessage("byte \(start) starts a number that is cut short") }
            let byte = bytes[position]
            position += 1
            value |= UInt64(byte & 0x7F) << UInt64(shift)
            if byte & 0x80 == 0 { return value }
        }
        throw notAFeedMessage("byte \(start) starts a number longer than 10 bytes")
    }

    private mutating func skip(_ count: Int) throws(GTFSError) {
        guard try available(count) else { throw notAFeedMessage("byte \(offset) starts a field that is cut short") }
        position += count
    }
}
