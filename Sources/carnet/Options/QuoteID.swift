import ArgumentParser
import CarnetModels
import CarnetState
import CarnetViewModels
import Foundation

struct QuoteID: ParsableArguments {
    @Argument(help: ArgumentHelp("The quote's id (see carnet quote list).", valueName: "id"))
    var id: Int64

    func validate() throws {
        guard id > 0 else { throw ValidationError("a quote id is a positive whole number (got \(id))") }
    }
}
