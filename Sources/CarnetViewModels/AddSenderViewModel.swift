import CarnetModels
import CarnetState
import Observation

/// The screen that offers to add an email's sender to the address book (`carnet add-email`, as
/// khard's and abook's): to a new contact, or to one the person already has.
@MainActor
@Observable
public final class AddSenderViewModel {
    public let sender: MailSender
    @ObservationIgnored private let state: StateController

    public init(state: StateController, sender: MailSender) {
        self.state = state
        self.sender = sender
    }

    /// The name a new contact gets: the sender's display name, else the address.
    public var proposedName: String { sender.name.isEmpty ? sender.email : sender.name }

    /// The contact that has the sender's address already (ignoring case), if any.
    ///
    /// Throws `CarnetError.invalid(_:)` for an address longer than any email
    /// Carnet keeps: no contact can have it, and it cannot be added (it is the message's data
    /// that is wrong, not a search the person made).
    public func existingContact() throws(CarnetError) -> Contact? {
        if sender.email.unicodeScalars.count > Limits.emailLength {
            var draft = ContactDraft(name: proposedName.count > Limits.nameLength ? "Sender" : proposedName)
            draft.emails = [LabeledValue(sender.email)]
            _ = try draft.validated()
        }
        var found: Contact?
        let wanted = sender.email.lowercased()
        try state.forEachContact(query: ContactQuery(search: sender.email), limit: 200, pageSize: 200) { contact in
            if found == nil, contact.draft.emails.contains(where: { $0.value.lowercased() == wanted }) { found = contact }
        }
        return found
    }

    /// Contacts the sender may be, best first: those with the words of the sender's name (every
    /// word in their name first).
    public func candidates(limit: Int = 5) throws(CarnetError) -> [Contact] {
        // A display name longer than a search may be matches no one's name anyway.
        guard sender.name.unicodeScalars.count <= Limits.searchLength, let query = try? SearchQuery(sender.name), !query.isEmpty else { return [] }
        var found: [Contact] = []
        try state.forEachContact(query: ContactQuery(search: sender.name, order: .relevance), limit: limit, pageSize: limit) { found.append($0) }
        return found
    }

    /// Adds the sender as a new contact named `name` (``proposedName`` when nil), the address
    /// typed `label`.
    @discardableResult
    public func addAsNewContact(name: String? = nil, label: String = "") throws(CarnetError) -> Contact {
        var draft = ContactDraft(name: name ?? proposedName)
        draft.emails = [LabeledValue(sender.email, label: label)]
        return try state.addContact(draft)
    }

    /// Adds the sender's address to contact `id`, after its other addresses.
    @discardableResult
    public func add(toContact id: Int64, label: String = "") throws(CarnetError) -> Contact {
        let contact = try state.contact(id: id)
        if contact.kind == .group {
            throw .groupIsNotAContact(id: id, name: contact.name, "an address goes on a contact (carnet group show \(id) lists its members)")
        }
        var draft = contact.draft
        draft.emails.append(LabeledValue(sender.email, label: label))
        return try state.updateContact(contact, with: draft)
    }
}
