/// The editable fields of a quote.
public enum QuoteFields {
    public static let all: [DraftField<QuoteDraft>] = [
        DraftField(field: .text, label: "Text", value: .text(\.text), help: "The quote (line breaks allowed)."),
        DraftField(field: .author, label: "Author", value: .text(\.author), help: "Who said or wrote it."),
    ]
}
