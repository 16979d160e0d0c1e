import ArgumentParser
import CarnetInterchange
import CarnetModels
import CarnetState
import CarnetViewModels
import Foundation

/// Pulls records from a file (or stdin) 256 KiB at a time, so a million-contact file is never
/// in memory whole (JSON too: each element of the array is decoded as it arrives). A vdir (a
/// directory of one card per file) is read file after file, each record and error naming its file.
final class RecordStream {
    private var handle: FileHandle?
    private var reader: (any ChunkReader)?
    /// What the reader made and `next()` has not handed out yet, the next one last: a chunk of
    /// 256 KiB makes hundreds of records, and taking each from the front moved all the others
    /// (a tenth of reading a vCard file).
    private var pending: [Result<InterchangeRecord, InterchangeError>] = []
    private var finished = false
    /// A vdir's card files not read yet, and the one being read.
    private var files: [String] = []
    private var currentFile: String?
    /// Told each entry of a vdir that is not a regular file (a FIFO, a device, a symlink to
    /// one) and is skipped: reading a FIFO would wait forever, a device never ends.
    var onSkippedFile: ((_ path: String, _ kind: String) -> Void)?

    init(handle: FileHandle, format: InterchangeFormat) {
        self.handle = handle
        switch format {
        case .vcf, .vdir: reader = VCardReader()
        case .csv: reader = CSVReader()
        case .ldif: reader = LDIFReader(memberDNs: Self.ldifMemberDNs(handle))
        case .json: reader = ContactJSONReader()
        }
    }

    /// The DNs an LDIF file's mailing lists name, read ahead when the input is a regular file
    /// (which can be read twice; a pipe cannot): the reader then holds the UIDs of those entries,
    /// not of every entry. Nil, holding every entry's, for a pipe or a file that cannot be reread.
    private static func ldifMemberDNs(_ handle: FileHandle) -> Set<String>? {
        var status = stat()
        guard fstat(handle.fileDescriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
              let start = try? handle.offset() else { return nil }
        var scan = LDIFMemberScan()
        while let chunk = try? handle.read(upToCount: 256 * 1024), !chunk.isEmpty { scan.feed(chunk) }
        guard (try? handle.seek(toOffset: start)) != nil else { return nil }
        return scan.finish()
    }

    /// The `.vcf` files of a directory, in name order (see `VDir/isCard(_:)`).
    init(directory: String) throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory)
        files = names.filter(VDir.isCard).sorted().map { (directory as NSString).appendingPathComponent($0) }
        finished = true
    }

    /// Whether a vdir has a card file to read.
    var hasFiles: Bool { !files.isEmpty }

    /// The CSV dialect the header was read in, once it has been.
    var dialect: CSVDialect? { (reader as? CSVReader)?.dialect }

    func next() throws(InterchangeError) -> InterchangeRecord? {
        while pending.isEmpty {
            if finished {
                guard openNextFile() else { return nil }
                continue
            }
            let chunk = (try? handle?.read(upToCount: 256 * 1024)) ?? Data()
            if chunk.isEmpty {
                finished = true
                do {
                    // Reversed: `pending` hands out its last one first.
                    pending = (try reader?.finishAll() ?? []).reversed().map { .success($0) }
                } catch {
                    pending.append(.failure(error))
                }
            } else {
                pending = reader?.feed(chunk).reversed() ?? []
            }
        }
        switch pending.removeLast() {
        case var .success(record):
            record.file = currentFile
            return record
        case var .failure(error):
            error.file = currentFile
            if currentFile != nil {
                // A vdir's file is one card: after its error the rest of it is not read (it may
                // never end), and --skip-invalid goes on with the next file.
                pending = []
                handle = nil
                finished = true
            }
            throw error
        }
    }

    /// Starts on a vdir's next file; false when there is none.
    private func openNextFile() -> Bool {
        while let path = files.first {
            files.removeFirst()
            currentFile = path
            reader = VCardReader()
            // O_NONBLOCK so opening a FIFO does not wait for a writer; it is then skipped.
            let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
            guard descriptor >= 0 else {
                pending = [.failure(InterchangeError(line: 1, message: "cannot read it: \(String(cString: strerror(errno)))"))]
                handle = nil
                return true
            }
            var info = stat()
            guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
                let kind: String
                switch info.st_mode & S_IFMT {
                case S_IFIFO: kind = "a FIFO"
                case S_IFCHR, S_IFBLK: kind = "a device"
                case S_IFSOCK: kind = "a socket"
                case S_IFDIR: kind = "a directory"
                default: kind = "a special file"
                }
                close(descriptor)
                onSkippedFile?(path, kind)
                continue
            }
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
            handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
            finished = false
            return true
        }
        return false
    }
}
