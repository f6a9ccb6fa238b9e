import TextFormats
import XMPPBatch
import XMPPStorage

/// The one way `batch` and `sync` read their input into a `BatchSheet`: FILE or `-`, the name
/// errors give it, and the directory relative avatar paths are taken from (the file's own).
struct BatchSheetInput {
    /// FILE, or `-` for standard input.
    let path: String
    let environment: ToolEnvironment

    /// "standard input" or the path.
    var name: String { path == "-" ? "standard input" : path }

    /// `path` made absolute against the current directory.
    func absolute(_ path: String) -> String { PathText.absolute(path, from: environment.currentDirectory) }

    /// The directory holding the input (the current one for standard input).
    var baseDirectory: String {
        guard path != "-" else { return environment.currentDirectory }
        return PathText.directory(of: absolute(path))
    }

    /// Refuses an output path (`--report`) that names the input file, however it is spelt: by
    /// device and inode, so `./in.csv`, a link to it or `/dev/stdin` when the input is a
    /// redirected file are caught as well as the same string.
    func requireDistinct(output: String?, option: String) throws {
        guard let output else { return }
        try DistinctOutput.require(output: output, input: path, option: option, resolve: absolute)
    }

    /// Reads and checks the input, CSV or LDIF (`format`, or told by the name and the first
    /// line; `map`, the LDIF attributes' columns, goes into `configuration`); the sheet's notes and
    /// unknown columns (with their near misses) are said on `output` once every row is checked.
    func sheet(configuration: inout BatchConfiguration, format: BatchInputFormat?, map: String?, output: BatchOutput) throws -> BatchSheet {
        let sheet = try BatchSheet(reader: reader(configuration: &configuration, format: format, map: map))
        say(notes: sheet.notes, columns: sheet.columns, on: output)
        return sheet
    }

    /// The input opened for reading row by row (`BatchSheetReader`): its header read and
    /// checked, and its notes and unknown columns said on `output`.
    func rows(configuration: inout BatchConfiguration, format: BatchInputFormat?, map: String?, output: BatchOutput) throws -> BatchSheetReader {
        let reader = try reader(configuration: &configuration, format: format, map: map)
        say(notes: reader.notes, columns: reader.columns, on: output)
        return reader
    }

    private func reader(configuration: inout BatchConfiguration, format: BatchInputFormat?, map: String?) throws -> BatchSheetReader {
        let input = try BatchInputStream(path: path, limit: CSVLimits().maxBytes)
        let start = try input.peek { bytes, ended in BatchInputFormat.detect(path: path, start: bytes, complete: ended) != nil }
        configuration.directoryMap = try DirectoryMap.forInput(format: format, map: map, path: path, bytes: start)
        return try BatchSheetReader(input: input, configuration: configuration, baseDirectory: baseDirectory)
    }

    private func say(notes: [String], columns: BatchColumns, on output: BatchOutput) {
        for note in notes { output.note(note) }
        if !columns.unknown.isEmpty {
            let named = columns.unknown.map { name in columns.suggestions[name].map { "\(name) (did you mean \($0)?)" } ?? name }
            output.note("ignoring unknown columns: " + named.joined(separator: ", "))
        }
    }
}
