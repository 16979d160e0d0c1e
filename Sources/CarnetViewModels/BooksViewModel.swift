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
        /// The book holds contacts: the screen asks, then calls `delete(_:confirmed:)` again.
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
        if current.cardCount > 0 && !confirmed { return .needsConfirmation(current) }
        let deleted = try state.deleteAddressBook(named: current.name, withContacts: confirmed)
        books = try state.addressBooks()
        return .deleted(deleted)
    }

    /// The book named `name` (ignoring A-Z case); `CarnetModels/CarnetError/unknownBook(_:)` when none is.
    public func book(named name: String) throws(CarnetError) -> AddressBook {
        try state.addressBook(named: name)
    }

    /// Each book's name by id when the file has more than one book (a list then says each row's
    /// book); nil with one.
    public func namesIfSeveral() throws(CarnetError) -> [Int64: String]? {
        let books = try state.addressBooks(counting: false)
        return books.count > 1 ? Dictionary(uniqueKeysWithValues: books.map { ($0.id, $0.name) }) : nil
    }

    /// Moves contact `id` to the book named `name` (keeping its id and UID); returns it and its book.
    public func move(contactID id: Int64, to name: String) throws(CarnetError) -> (contact: Contact, book: AddressBook) {
        let book = try state.addressBook(named: name)
        return (try state.moveContact(id: id, toBook: book.name), book)
    }

    /// Copies contact `id` into the book named `name` as a new contact with its own UID.
    public func copy(contactID id: Int64, to name: String) throws(CarnetError) -> (contact: Contact, book: AddressBook) {
        let book = try state.addressBook(named: name)
        return (try state.copyContact(id: id, toBook: book.name), book)
    }

    /// The contacts list of one book (the book passed forward, the state injected).
    public func contacts(of book: AddressBook, pageSize: Int = 50) -> ContactsViewModel {
        ContactsViewModel(state: state, book: book, pageSize: pageSize)
    }
}
