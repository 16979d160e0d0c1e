@_exported import TestTools
import Testing

extension Trait where Self == ConditionTrait {
    /// Runs the test or suite only where the programs it starts can be started (`TestTool`):
    /// skipped with a message naming the missing ones, or run regardless with
    /// `CARNET_TEST_TOOLS=required` (`make test`, CI), where a missing one fails it.
    public static func needs(_ tools: String...) -> Self {
        .enabled(if: TestTool.usable(tools), Comment(rawValue: TestTool.skipped(tools)))
    }

    /// A test that starts a program this package builds (`carnet`): skipped only by
    /// `CARNET_TEST_TOOLS=none`, the fast loop.
    public static var startsBuiltPrograms: Self {
        .enabled(if: !TestTool.areOff, "starts the built carnet: CARNET_TEST_TOOLS=none starts no program")
    }
}

extension Trait where Self == ConditionTrait {
    /// A sweep of thousands of generated cases, or a book of thousands of contacts, that takes a
    /// debug build tens of seconds: `make test` runs it, the fast loop (`CARNET_TEST_TOOLS=none`)
    /// leaves it out, saying so.
    public static var exhaustive: Self {
        .enabled(if: !TestTool.areOff, "an exhaustive sweep: make test runs it, the fast loop does not")
    }
}

/// The seeds a seeded comparison runs with: every one in `make test`, the first alone in the
/// fast loop (`CARNET_TEST_TOOLS=none`), where one book of each shape shows a break and three
/// cost a debug build most of the loop's time.
public func seeds<Seed>(_ all: [Seed]) -> [Seed] {
    TestTool.areOff ? Array(all.prefix(1)) : all
}
