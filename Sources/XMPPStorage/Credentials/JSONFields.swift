import TextFormats
import XMPPStanzas

/// Why a stored JSON file does not hold what it should; the store reports it as a corrupt file.
public struct JSONFieldError: Error, CustomStringConvertible {
    public var description: String
}

/// The fields of one JSON object, read by name with their types checked: the session and
/// account files' reader (no Foundation: its JSON coders were a sixth of the program and a
/// megabyte of every start-up's memory, docs/DESIGN-NOTES.md "Footprint"). An absent key and
/// `null` are both "not there"; a value of the wrong type is an error.
struct JSONFields {
    private let fields: [(String, JSONValue)]

    init(_ value: JSONValue) throws(JSONFieldError) {
        guard case .object(let fields) = value else { throw JSONFieldError(description: "not a JSON object") }
        self.fields = fields
    }

    /// Parses `bytes` as one JSON object.
    init(parsing bytes: [UInt8]) throws(JSONFieldError) {
        do { try self.init(JSONParser.parse(bytes)) } catch let e as JSONFieldError { throw e } catch {
            throw JSONFieldError(description: "\(error)")
        }
    }

    /// The keys, in the file's order.
    var keys: [String] { fields.map(\.0) }

    private func present(_ key: String) -> JSONValue? {
        guard let value = fields.first(where: { $0.0 == key })?.1 else { return nil }
        if case .null = value { return nil }
        return value
    }

    private func missing(_ key: String) -> JSONFieldError { JSONFieldError(description: "no \(key)") }

    /// The value at `key` as `extract` reads it; a value it does not read is an error naming
    /// `type`, the JSON type the field must have.
    private func optional<T>(_ key: String, _ type: String, _ extract: (JSONValue) -> T?) throws(JSONFieldError) -> T? {
        guard let value = present(key) else { return nil }
        guard let typed = extract(value) else { throw JSONFieldError(description: "\(key) is not \(type)") }
        return typed
    }

    /// `value` of a field that must be there.
    private func required<T>(_ key: String, _ value: T?) throws(JSONFieldError) -> T {
        guard let value else { throw missing(key) }
        return value
    }

    func optionalString(_ key: String) throws(JSONFieldError) -> String? {
        try optional(key, "a string") { if case .string(let s) = $0 { return s } else { return nil } }
    }

    func string(_ key: String) throws(JSONFieldError) -> String { try required(key, optionalString(key)) }

    func optionalInt(_ key: String) throws(JSONFieldError) -> Int? {
        try optional(key, "an integer") { if case .int(let i) = $0 { return i } else { return nil } }
    }

    func int(_ key: String) throws(JSONFieldError) -> Int { try required(key, optionalInt(key)) }

    func optionalBool(_ key: String) throws(JSONFieldError) -> Bool? {
        try optional(key, "true or false") { if case .bool(let b) = $0 { return b } else { return nil } }
    }

    func optionalObject(_ key: String) throws(JSONFieldError) -> JSONFields? {
        guard let value = present(key) else { return nil }
        return try JSONFields(value)
    }

    /// An array of objects, each read as fields.
    func optionalArray(_ key: String) throws(JSONFieldError) -> [JSONFields]? {
        guard let elements = try optional(key, "a list", { if case .array(let a) = $0 { return a } else { return nil } }) else {
            return nil
        }
        var out: [JSONFields] = []
        for element in elements { out.append(try JSONFields(element)) }
        return out
    }

    func jid(_ key: String) throws(JSONFieldError) -> JID {
        let text = try string(key)
        do { return try JID(text) } catch { throw JSONFieldError(description: "\(key) is not a JID: \(error)") }
    }
}

/// A JSON object written with its keys sorted, as the files always were (JSONEncoder's
/// `.sortedKeys`), so a file's diff shows only what changed; absent optionals are left out.
struct SortedJSONObject {
    private var fields: [(String, JSONValue)] = []

    mutating func set(_ key: String, _ value: JSONValue?) {
        guard let value else { return }
        fields.append((key, value))
    }

    /// Pretty-printed bytes with a final newline.
    var fileBytes: [UInt8] { value.prettyUTF8 + [0x0A] }

    var value: JSONValue { .object(fields.sorted { $0.0 < $1.0 }) }
}
