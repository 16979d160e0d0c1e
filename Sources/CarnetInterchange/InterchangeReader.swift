import CarnetModels
import Foundation

/// What an importer needs of a reader: chunks of a file in, records out, then the end of the
/// input. Every ``InterchangeReader`` is one, and so is ``ContactJSONReader``.
public protocol ChunkReader {
    /// Reads the next chunk of the file, which may end anywhere; returns a result per completed
    /// record or error, in file order.
    mutating func feed(_ chunk: Data) -> [Result<InterchangeRecord, InterchangeError>]

    /// Ends the input; fails if it stopped inside a record. Returns the record the end
    /// completed, if any. A reader that holds records until the end (``LDIFReader``'s mailing
    /// lists) hands them out from ``finishAll()``, which an importer calls instead.
    mutating func finish() throws(InterchangeError) -> InterchangeRecord?

    /// Ends the input as ``finish()`` does, and returns every record still to come: the one the
    /// end completed, then those the reader held until the end.
    mutating func finishAll() throws(InterchangeError) -> [InterchangeRecord]
}

extension ChunkReader {
    public mutating func finishAll() throws(InterchangeError) -> [InterchangeRecord] {
        try finish().map { [$0] } ?? []
    }
}

/// A streaming reader of an interchange format: fed lines or chunks of a file, it returns each
/// record as soon as the input completes it, so a file of any size is read in constant memory.
///
/// After an error a reader skips the broken record and carries on, so an importer can list every
/// problem in one run if it wants to. Feed one reader either lines or chunks, not both.
public protocol InterchangeReader: ChunkReader, Sendable {
    init()

    /// Reads one line of the file (without its line break; trailing CRs are ignored) and returns
    /// the record it completes, if any.
    mutating func feed(line: String) throws(InterchangeError) -> InterchangeRecord?

    /// Reads the next chunk of the file, which may end in the middle of a line (or of a UTF-8
    /// character): that part waits for the next chunk. Returns a result per completed record or
    /// error, in file order.
    mutating func feed(_ chunk: Data) -> [Result<InterchangeRecord, InterchangeError>]

    /// Reads the next chunk of text, which may end in the middle of a line.
    mutating func feed(text chunk: String) -> [Result<InterchangeRecord, InterchangeError>]

    /// Ends the input: reads a last line that had no line break, and fails if a record is still
    /// open. Returns the record that last line completed, if any.
    @discardableResult
    mutating func finish() throws(InterchangeError) -> InterchangeRecord?
}

extension InterchangeReader {
    /// Every record in `text`; throws the first error.
    public static func parse(_ text: String) throws(InterchangeError) -> [InterchangeRecord] {
        var reader = Self()
        return try reader.collect(reader.feed(text: text))
    }

    /// Every record in `data`; throws the first error.
    public static func parse(_ data: Data) throws(InterchangeError) -> [InterchangeRecord] {
        var reader = Self()
        return try reader.collect(reader.feed(data))
    }

    private mutating func collect(_ results: [Result<InterchangeRecord, InterchangeError>]) throws(InterchangeError) -> [InterchangeRecord] {
        var records: [InterchangeRecord] = []
        records.reserveCapacity(results.count)
        for result in results { records.append(try result.get()) }
        records += try finishAll()
        return records
    }
}

/// The line-splitting half every reader shares: bytes in, whole lines to `consume`.
protocol LineConsumingReader: InterchangeReader {
    var splitter: LineSplitter { get set }
    mutating func consume(_ raw: [UInt8]) throws(InterchangeError) -> InterchangeRecord?
    /// After the last line: fails if the input stopped inside something still open.
    mutating func checkComplete() throws(InterchangeError)
}

extension LineConsumingReader {
    /// Ends the input: reads a last line that had no line break, then fails if the input stopped
    /// inside something still open (``checkComplete()``). Returns the contact that last line
    /// completed, if any.
    @discardableResult
    public mutating func finish() throws(InterchangeError) -> InterchangeRecord? {
        var record: InterchangeRecord?
        if let last = splitter.flush() {
            record = try consume(last)
        }
        try checkComplete()
        return record
    }

    public mutating func feed(line: String) throws(InterchangeError) -> InterchangeRecord? {
        var bytes = Array(line.utf8)
        if bytes.last == 10 { bytes.removeLast() }
        while bytes.last == 13 { bytes.removeLast() }
        return try consume(bytes)
    }

    public mutating func feed(_ chunk: Data) -> [Result<InterchangeRecord, InterchangeError>] {
        chunk.withUnsafeBytes { feed(bytes: $0) }
    }

    public mutating func feed(text chunk: String) -> [Result<InterchangeRecord, InterchangeError>] {
        chunk.withUTF8Bytes { feed(bytes: $0) }
    }

    private mutating func feed(bytes: UnsafeRawBufferPointer) -> [Result<InterchangeRecord, InterchangeError>] {
        var results: [Result<InterchangeRecord, InterchangeError>] = []
        for line in splitter.split(bytes) {
            do throws(InterchangeError) {
                if let record = try consume(line) { results.append(.success(record)) }
            } catch {
                results.append(.failure(error))
            }
        }
        return results
    }
}
