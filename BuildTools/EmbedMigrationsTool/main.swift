import Foundation

// Usage: EmbedMigrationsTool OUTPUT.swift NNNN_name.sql...
// Writes `embeddedMigrations`, the SQL files in order, as raw string literals.
let arguments = CommandLine.arguments.dropFirst()
guard let outputPath = arguments.first else {
    FileHandle.standardError.write(Data("usage: EmbedMigrationsTool OUTPUT FILE.sql...\n".utf8))
    exit(64)
}
var source = """
    // Generated at build time from migrations/*.sql by the EmbedMigrations plugin. Do not edit.

    let embeddedMigrations: [(file: String, sql: String)] = [

    """
for path in arguments.dropFirst() {
    let url = URL(fileURLWithPath: path)
    let sql = try String(contentsOf: url, encoding: .utf8)
    var hashes = "#"
    while sql.contains("\"\"\"" + hashes) || sql.contains("\\" + hashes) { hashes += "#" }
    source += "    (\(String(reflecting: url.lastPathComponent)), \(hashes)\"\"\"\n"
    for line in sql.split(separator: "\n", omittingEmptySubsequences: false) {
        source += "    \(line)\n"
    }
    source += "    \"\"\"\(hashes)),\n"
}
source += "]\n"
try source.write(toFile: outputPath, atomically: true, encoding: .utf8)
