import ArgumentParser
import CarnetInterchange
import CarnetModels
import CarnetState
import CarnetViewModels
import Foundation

/// A vdir being written: each card into its own file, by a temporary file renamed over the old
/// one (a reader never sees half a card), and only when its bytes change.
final class VDirWriter {
    let directory: String
    /// The file names this export wrote or found unchanged.
    private var names: Set<String> = []

    init(directory: String) throws {
        self.directory = directory
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw CLIError(message: "cannot write \(directory): it is not a directory", code: .other) }
        } else {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw CLIError(message: "cannot make the directory \(directory): \(error.localizedDescription)", code: .other)
            }
        }
    }

    private func path(_ name: String) -> String { (directory as NSString).appendingPathComponent(name) }

    /// Writes the card; false when the file already held these bytes.
    func write(_ card: String, uid: String) throws -> Bool {
        let name = VDir.fileName(uid: uid)
        guard names.insert(name).inserted else {
            throw CLIError(message: "cannot write \(path(name)): two contacts' UIDs give this file name", code: .other)
        }
        let data = Data(card.utf8)
        let target = path(name)
        if FileManager.default.contents(atPath: target) == data { return false }
        let temp = path(".\(name).\(getpid()).tmp")
        let descriptor = open(temp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw OutputFailure.error(writing: target, errno: errno) }
        if let failure = OutputFailure.writeAll(descriptor, data) ?? (close(descriptor) == 0 ? nil : errno) {
            close(descriptor)
            unlink(temp)
            throw OutputFailure.error(writing: target, errno: failure, partial: "this card was not written (the ones before it were, each whole)")
        }
        if rename(temp, target) != 0 {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(atPath: temp)
            throw CLIError(message: "cannot write \(target): \(reason)", code: .other)
        }
        return true
    }

    /// The `.vcf` files in the directory this export did not write, in name order.
    func otherCards() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).filter { VDir.isCard($0) && !names.contains($0) }.sorted()
    }

    func remove(_ name: String) throws {
        do {
            try FileManager.default.removeItem(atPath: path(name))
        } catch {
            throw CLIError(message: "cannot delete \(path(name)): \(error.localizedDescription)", code: .other)
        }
    }
}
