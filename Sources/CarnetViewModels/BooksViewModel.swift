import CarnetModels
import CarnetState
import Observation

/// The address books screen: every book with its count; add, rename, delete; open one.
@MainActor
@Observable
public final class BooksViewModel {
    /// What deleting a book did, or why it waits.
    public enum Deletion: Sendable, Equatable {
        case deleted(AddressBook)
        /// The book holds contacts: the screen asks, then calls ``delete(_:confirmed:)`` again.
        case needsConfirmation(AddressBook)
    }

    /// The books, the default one first.
    public private(set) var books: [AddressBook] = []
    /// Whether the file has more than one book (lists then show each row's book).
    public var hasSeveral: Bool { books.count > 1 }

    @ObservationIgnored private let state: StateController

    public init(state: StateController) {
        self.state = state
    }

    /// The screen appears: picks up changes made elsewhere and reads the books.
    public func onAppear() throws(CarnetError) {
        try state.refresh()
        books = try state.addressBooks()
    }

    @discardableResult
    public func add(named name: String) throws(CarnetError) -> AddressBook {
        let book = try state.addAddressBook(named: name)
        books = try state.addressBooks()
        return book
    }

    @discardableResult
    public func rename(_ book: AddressBook, to name: String) throws(CarnetError) -> AddressBook {
        let renamed = try state.renameAddressBook(book.name, to: name)
        books = try state.addressBooks()
        return renamed
    }

    /// Deletes `book`; one with contacts only once `confirmed` (they go with it, and one undo
    /// brings them back).
    public func delete(_ book: AddressBook, confirmed: Bool = false) throws(CarnetError) -> Deletion {
        let current = try state.addressBook(named: book.name)
        if current.contactCount > 0 && !confirmed { return .needsConfirmation(current) }
        let deleted = try state.deleteAddressBook(named: current.name, withContacts: confirmed)
        books = try state.addressBooks()
        return .deleted(deleted)
    }

    /// The contacts list of one book (the book passed forward, the state injected).
    public func contacts(of book: AddressBook, pageSize: Int = 50) -> ContactsViewModel {
        ContactsViewModel(state: state, book: book, pageSize: pageSize)
    }
}
