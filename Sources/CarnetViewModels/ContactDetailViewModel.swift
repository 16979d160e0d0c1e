import CarnetModels
import CarnetState
import Observation

/// What a detail screen tells the screen that opened it, whichever screen that is.
@MainActor
public protocol ContactDetailViewModelDelegate: AnyObject {
    /// The contact was saved with new values.
    func contactDetail(didUpdate contact: Contact)
    /// The contact was deleted.
    func contactDetail(didDelete contactID: Int64)
}

/// The contact detail screen: one contact, its favorite star, edit and delete.
@MainActor
@Observable
public final class ContactDetailViewModel {
    /// Told about saves and deletes; held weakly, so a list and its detail never keep each other.
    public weak var delegate: (any ContactDetailViewModelDelegate)?
    /// Whether the contact was deleted: here, or elsewhere (seen by `onAppear()`, or at once when
    /// the state controller is live).
    public var isDeleted: Bool { wasDeleted || state.latest(shown) == nil }
    private var wasDeleted = false

    @ObservationIgnored private let state: StateController
    private var shown: Contact

    /// - Parameters:
    ///   - state: the state shared by every screen.
    ///   - contact: passed forward by the screen that opens this one.
    public init(state: StateController, contact: Contact) {
        self.state = state
        shown = contact
    }

    /// The contact as it is now: a save made anywhere in this process shows at once.
    public var contact: Contact {
        state.latest(shown) ?? shown
    }

    /// Every field of the contact with a value, grouped as the field description groups them:
    /// the structured name and nickname, work, ways to reach them, dates, note, categories,
    /// photo and the properties Carnet does not model. The display name is not a row: it is the
    /// screen's title (`contact`'s `name`).
    public var sections: [DetailSection] {
        DetailSection.sections(of: contact.draft, omitting: [.name])
    }

    /// The groups the contact is in, by name (read from the file each time the screen asks).
    public func groups() throws(CarnetError) -> [Contact] {
        try state.groups(containing: contact.uid)
    }

    public var isFavorite: Bool { state.isFavorite(shown.id) }
    public var favoritePosition: Int? { state.favorites.first { $0.contact.id == shown.id }?.position }

    /// The screen appears: re-read the contact, which another process may have changed.
    public func onAppear() throws(CarnetError) {
        try state.refresh()
        do {
            shown = try state.contact(id: shown.id)
        } catch .notFound {
            wasDeleted = true
        }
    }

    /// The edit screen for this contact. Its save comes back through the `onSave` closure.
    public func edit() -> EditContactViewModel {
        let edit = EditContactViewModel(state: state, contact: contact)
        edit.onSave = { [weak self] saved in self?.didSave(saved) }
        return edit
    }

    private func didSave(_ contact: Contact) {
        shown = contact
        delegate?.contactDetail(didUpdate: contact)
    }

    public func toggleFavorite() throws(CarnetError) {
        if isFavorite { try state.unfavorite(shown.id) } else { try state.favorite(shown.id) }
    }

    /// Deletes the contact this screen shows. If it was deleted meanwhile, throws
    /// `CarnetError.deleted(_:id:)`: never another contact.
    public func delete() throws(CarnetError) {
        do {
            try state.deleteContact(shown)
        } catch .deleted(let record, let id) {
            wasDeleted = true
            throw .deleted(record, id: id)
        }
        wasDeleted = true
        delegate?.contactDetail(didDelete: shown.id)
    }
}
