import TextFormats
import Arguments
import PNGImage
import XMPPServices

/// `xmpp-avatar resize IMAGE -o OUT`: the image pipeline alone, offline, for scripts.
struct AvatarResizeCommand {
    let common: CommonOptions
    let command: ParsedCommand

    /// `--size` and `--fit` as resize options; out-of-range values are usage errors.
    static func options(_ command: ParsedCommand) throws(ToolFailure) -> ResizeOptions {
        let size: Int
        do {
            size = try command.int("size", in: ResizeOptions.sizeRange) ?? 100
        } catch {
            throw ToolFailure(.usage, error.reason.description)
        }
        let fitText = command.string("fit") ?? "crop"
        guard let fit = FitMode(rawValue: fitText) else {
            throw ToolFailure(.usage, "invalid --fit '\(fitText)': expected crop or pad")
        }
        return ResizeOptions(size: size, fit: fit)
    }

    /// Resizes IMAGE and writes the PNG to `-o` (standard output when it is `-` or absent).
    func run() throws {
        let output = command.string("output")
        try ImageFiles.checkBinaryDestination(output, json: common.json)
        let options = try Self.options(command)
        let png = try ImageFiles.resize(command.argument("IMAGE") ?? "-", options: options)
        try Output.write(png, toFileOrStdout: output)
        if common.json {
            Output.line(JSONValue.object([
                ("file", .string(output ?? "-")), ("hash", .string(AvatarService.hash(png))), ("type", .string("image/png")),
                ("bytes", .int(png.count)), ("width", .int(options.size)), ("height", .int(options.size)),
            ]).pretty)
        }
    }
}
