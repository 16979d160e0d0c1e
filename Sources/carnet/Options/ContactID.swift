import ArgumentParser
import CarnetInterchange
import CarnetModels
import CarnetState
import CarnetViewModels
import Foundation

/// A contact id on the command line: a positive whole number.
struct ContactID: ParsableArguments {
    @Argument(help: ArgumentHelp("The contact's id (see carnet list).", valueName: "id"))
    var id: Int64

    func validate() throws {
        guard id > 0 else { throw ValidationError("a contact id is a positive whole number (got \(id))") }
    }
}

extension ContactOrder: ExpressibleByArgument {}
