import ArgumentParser
import CarnetModels
import CarnetState
import CarnetViewModels
import Foundation

struct QuoteFieldOptions: ParsableArguments {
    @Option(help: "The quote's text.") var text: String?
    @Option(help: "Who said it.") var author: String?
    @Flag(name: .customLong("prompt"), help: "Ask for each field even when standard input is not a terminal.")
    var forcePrompt = false

    var isEmpty: Bool { text == nil && author == nil }

    func apply(to draft: inout QuoteDraft) {
        if let text { draft.text = text }
        if let author { draft.author = author }
    }
}
