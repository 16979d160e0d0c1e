/// What `root[keyPath: keyPath]` gives, read instead at the property's byte offset
/// (`MemoryLayout.offset(of:)`, computed once per field) when it has one; through the key path
/// otherwise. A key path applied at run time looks up the types of its components by name on
/// every application: that was a sixth of a contact's validation, which a bulk import runs for
/// every card. `FieldReadsTests` holds every field's read equal to its key path's.
@inlinable
func keyPathReadAtOffset<Root, Value>(of root: Root, _ keyPath: KeyPath<Root, Value>, at offset: Int?) -> Value {
    guard let offset else { return root[keyPath: keyPath] }
    return withUnsafeBytes(of: root) { $0.load(fromByteOffset: offset, as: Value.self) }
}
