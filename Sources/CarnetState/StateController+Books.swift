import CarnetModels
import CarnetStorage

extension StateController {
    /// Every address book, the default one first, with how many contacts each holds (unless
    /// not `counting`: then every count is 0, and reading them costs nothing).
    public func addressBooks(counting: Bool = true) throws(CarnetError) -> [AddressBook] {
        try storage.addressBooks(counting: counting)
    }

    /// The book named `name` (ignoring A-Z case), or `CarnetModels/CarnetError/unknownBook(_:)`.
    public func addressBook(named name: String) throws(CarnetError) -> AddressBook {
        try storage.addressBook(named: name)
    }

    @discardableResult
    public func addAddressBook(named name: String) throws(CarnetError) -> AddressBook {
        let book = try storage.addAddressBook(named: name)
        historyDidChange()
        return book
    }

    @discardableResult
    public func renameAddressBook(_ old: String, to new: String) throws(CarnetError) -> AddressBook {
        let book = try storage.renameAddressBook(old, to: new)
        historyDidChange()
        return book
    }

    /// Deletes a book (with its contacts only when `withContacts`); every screen re-reads.
    @discardableResult
    public func deleteAddressBook(named name: String, withContacts: Bool) throws(CarnetError) -> AddressBook {
        let book = try storage.deleteAddressBook(named: name, withContacts: withContacts)
        if book.contactCount > 0 {
            try reloadEverything()
        } else {
            historyDidChange()
        }
        return book
    }

    /// Moves a contact to another book, keeping its id and UID; lists of one book see it go or come.
    @discardableResult
    public func moveContact(id: Int64, toBook name: String) throws(CarnetError) -> Contact {
        let contact = try storage.moveContact(id: id, toBook: name)
        historyDidChange()
        didSave(contact)
        return contact
    }

    /// Copies a contact (or a group, with its members) into another book as a new card with a
    /// UID of its own.
    @discardableResult
    public func copyContact(id: Int64, toBook name: String) throws(CarnetError) -> Contact {
        let contact = try storage.copyContact(id: id, toBook: name)
        historyDidChange()
        // A group's copy is a group: not one more person.
        if contact.kind == .individual { adjustContactCount(by: 1) }
        didSave(contact)
        return contact
    }
}
