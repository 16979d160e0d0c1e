import Foundation

/// The arguments, refusing any that is not valid UTF-8 (Swift would silently repair it into
/// U+FFFD and store the damage).
func validatedArguments() throws -> [String] {
    var arguments: [String] = []
    for index in 1..<Int(CommandLine.argc) {
        guard let raw = CommandLine.unsafeArgv[index] else { continue }
        let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(raw).assumingMemoryBound(to: UInt8.self), count: strlen(raw))
        guard let argument = String(validating: bytes, as: UTF8.self) else {
            throw CLIError.usage("argument \(index) is not valid UTF-8; nothing was changed")
        }
        arguments.append(argument)
    }
    return arguments
}
