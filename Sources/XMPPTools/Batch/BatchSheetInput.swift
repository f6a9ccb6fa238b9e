import TextFormats
import XMPPBatch

/// The one way `batch` and `sync` read their input into a `BatchSheet`: FILE or `-`, the name
/// errors give it, and the directory relative avatar paths are taken from (the file's own).
struct BatchSheetInput {
    /// FILE, or `-` for standard input.
    let path: String
    let environment: ToolEnvironment

    /// "standard input" or the path.
    var name: String { path == "-" ? "standard input" : path }

    /// `path` made absolute against the current directory.
    func absolute(_ path: String) -> String { path.hasPrefix("/") ? path : environment.currentDirectory + "/" + path }

    /// The directory holding the input (the current one for standard input).
    var baseDirectory: String {
        guard path != "-", let slash = absolute(path).lastIndex(of: "/") else { return environment.currentDirectory }
        let full = absolute(path)
        return slash == full.startIndex ? "/" : String(full[..<slash])
    }

    /// Reads and checks the input; unknown columns are named on `output` with their near misses.
    func sheet(configuration: BatchConfiguration, output: BatchOutput) throws -> BatchSheet {
        let input = try BatchInput.read(path, limit: CSVLimits().maxBytes)
        let sheet = try BatchSheet(input: input, name: name, configuration: configuration, baseDirectory: baseDirectory)
        let columns = sheet.columns
        if !columns.unknown.isEmpty {
            let named = columns.unknown.map { name in columns.suggestions[name].map { "\(name) (did you mean \($0)?)" } ?? name }
            output.note("ignoring unknown columns: " + named.joined(separator: ", "))
        }
        return sheet
    }
}
