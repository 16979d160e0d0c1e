import CarnetTestSupport
import Foundation
import TestNeeds
import Testing

/// Reads vCards with Python's `vobject` (the system's python3-vobject), a parser Carnet did not
/// write, so a test sees what another program sees in Carnet's output rather than what Carnet's
/// own reader forgives.
///
/// vobject is strict where it matters here: a property name outside `[A-Za-z0-9-_]`, a line
/// that is not `name;params:value`, or a quoted-printable value with soft line breaks in a card
/// fails the read (it is called without `allowQP`, as a 3.0 or 4.0 reader should be). It reads
/// every value as 3.0 text, so a 4.0 `data:` URI comes back cut at its comma (`data:image/jpeg;base64`).
enum VObjectReader {
    /// One property as vobject reads it.
    struct Property: Equatable, CustomStringConvertible {
        /// Upper-cased.
        let name: String
        /// Lower-cased, nil without one.
        let group: String?
        /// Parameter names upper-cased, values as vobject gives them.
        let parameters: [String: [String]]
        /// A text value unescaped; a structured one (`N`, `ADR`, `ORG`) as its components, each
        /// unescaped (a component vobject split at an unescaped `,` is its items joined with
        /// `|,|`, so a missing escape shows); binary data (`ENCODING=b`) base64-encoded.
        let values: [String]

        var value: String { values.joined(separator: ";") }
        var description: String { (group.map { $0 + "." } ?? "") + name + ":" + values.joined(separator: " ; ") }
    }

    typealias Card = [Property]

    static let python = TestTool.python3(importing: ["vobject"])

    /// python3 with vobject installed; or test tools required (`TestTool`), and the tests run
    /// and fail where they start it; never with tools off.
    static var isAvailable: Bool {
        !TestTool.areOff
            && (TestTool.areRequired || (FileManager.default.isExecutableFile(atPath: python) && (try? run(script: "import vobject", arguments: [])) != nil))
    }

    private static let script = #"""
        import sys, json, base64, vobject
        text = open(sys.argv[1], encoding='utf-8', newline='').read()
        def component(v):
            if isinstance(v, list):
                return '|,|'.join(v)
            return v
        cards = []
        for card in vobject.readComponents(text):
            props = []
            for line in card.lines():
                v = line.value
                if line.name.upper() == 'N':
                    values = [component(getattr(v, k)) for k in ('family', 'given', 'additional', 'prefix', 'suffix')]
                elif line.name.upper() == 'ADR':
                    values = [component(getattr(v, k)) for k in ('box', 'extended', 'street', 'city', 'region', 'code', 'country')]
                elif isinstance(v, list):
                    values = [component(x) for x in v]
                elif isinstance(v, bytes):
                    values = [base64.b64encode(v).decode('ascii')]
                else:
                    values = [str(v)]
                params = {k.upper(): [str(x) for x in vals] for k, vals in line.params.items()}
                for single in line.singletonparams:
                    params.setdefault('', []).append(single)
                props.append({'name': line.name.upper(), 'group': line.group.lower() if line.group else None,
                              'params': params, 'values': values})
            cards.append(props)
        print(json.dumps(cards))
        """#

    /// Every card of `text`, in order; throws with vobject's message when it cannot read it.
    static func cards(_ text: String) throws -> [Card] {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("carnet-vobject-\(UUID().uuidString).vcf")
        try Data(text.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let output = try run(script: script, arguments: [file.path])
        guard let json = try JSONSerialization.jsonObject(with: output) as? [[[String: Any]]] else {
            throw Failure(message: "vobject printed no card list")
        }
        return json.map { card in
            card.map { property in
                Property(
                    name: property["name"] as? String ?? "", group: property["group"] as? String,
                    parameters: property["params"] as? [String: [String]] ?? [:], values: property["values"] as? [String] ?? [])
            }
        }
    }

    struct Failure: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    private static func run(script: String, arguments: [String]) throws -> Data {
        let output = try ChildProcess.run(python, ["-c", script] + arguments)
        guard output.status == 0 else { throw Failure(message: "vobject: \(output.errorTail(3))") }
        return output.stdout
    }
}

extension Array where Element == VObjectReader.Property {
    /// The properties called `name`, in order.
    func named(_ name: String) -> [VObjectReader.Property] { filter { $0.name == name } }
}
