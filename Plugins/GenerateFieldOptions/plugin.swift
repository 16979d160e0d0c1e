import Foundation
import PackagePlugin

/// Writes the CLI's field flags (`FieldFlags`, `FieldRemovalFlags`) from the field description,
/// for the target that uses it: swift-argument-parser declares each option as a stored
/// property, which cannot be added at run time, so a field added to `ContactFields.all` gets its
/// `--FLAG` (with its own help line and completion) from its entry alone.
@main
struct GenerateFieldOptions: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let output = context.pluginWorkDirectoryURL.appending(path: "FieldFlags.swift")
        return [
            .buildCommand(
                displayName: "Generating the field flags from ContactFields.all",
                executable: try context.tool(named: "FieldOptionsTool").url,
                arguments: [output.path],
                outputFiles: [output])
        ]
    }
}
