import GRDB

extension StatementArguments {
    /// What `StatementArguments(values)` gives for a sequence of one concrete type (texts,
    /// database values), made through the initializer that takes optional existentials. GRDB's
    /// generic initializer maps its values with the key path `\.databaseValue`, and unspecialized
    /// across the module boundary the runtime instantiates that key path at every call: a
    /// measured part of every imported contact's search document and every row an undo writes.
    /// `StatementArgumentsTests` holds the two equal.
    static func values<S: Sequence>(_ values: S) -> StatementArguments where S.Element: DatabaseValueConvertible {
        StatementArguments(values.map { $0 as (any DatabaseValueConvertible)? })
    }
}
