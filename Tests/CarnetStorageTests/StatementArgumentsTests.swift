import Foundation
import GRDB
import Testing
@testable import CarnetStorage

/// `StatementArguments.values(_:)` stands in for GRDB's generic initializer on hot paths: the two
/// must bind the same values.
@Suite struct StatementArgumentsTests {
    @Test func theValuesAreWhatTheGenericInitializerGives() {
        let texts = ["Ada", "", "ß and ü", "ada@example.com"]
        #expect(StatementArguments.values(texts) == StatementArguments(texts))
        let values: [DatabaseValue] = [.null, 1.databaseValue, "two".databaseValue, 2.5.databaseValue, Data([0, 1]).databaseValue]
        #expect(StatementArguments.values(values) == StatementArguments(values))
        #expect(StatementArguments.values([String]()) == StatementArguments([String]()))
    }
}
