import ArgumentParser
import CarnetInterchange
import CarnetModels
import CarnetState
import CarnetViewModels

/// The GROUP argument every group command takes.
struct GroupName: ParsableArguments {
    @Argument(help: ArgumentHelp("The group's id or name (see carnet group list).", valueName: "group"))
    var group: String

    func validate() throws {
        if Rules.trimmed(group).isEmpty { throw ValidationError("a group is named by its id or name, not blank") }
    }
}
