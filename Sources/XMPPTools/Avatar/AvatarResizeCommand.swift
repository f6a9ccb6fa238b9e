import Arguments
import PNGImage
import TextFormats
import XMPPServices

extension AvatarTool {
    /// `xmpp-avatar resize IMAGE -o OUT`: the image pipeline alone, offline, for scripts.
    struct Resize: ToolCommand {
        static let output = Option<String>("output", short: "o", value: "FILE", help: "Where to write the PNG (- for standard output).",
                                           completion: .file(extensions: ["png"]))

        static let spec = CommandSpec(
            "resize", summary: "Resize IMAGE to a square PNG, offline (no account needed).",
            options: [output, AvatarImageOptions.size, AvatarImageOptions.fit],
            positionals: [AvatarImageOptions.image])

        let json: Bool
        let output: String?
        let options: ResizeOptions
        let image: String

        init(_ invocation: Invocation) throws {
            json = invocation.common.json
            output = try invocation.command.value(Self.output)
            try ImageFiles.checkBinaryDestination(output, json: json)
            options = try AvatarImageOptions.resizeOptions(invocation.command)
            image = AvatarImageOptions.path(invocation.command)
            // The PNG replaces the file at -o: never the image it is made from.
            if let output { try DistinctOutput.require(output: output, input: image, option: "-o") }
        }

        /// Resizes IMAGE and writes the PNG to `-o` (standard output when it is `-` or absent).
        func run() throws {
            let png = try ImageFiles.resize(image, options: options)
            try Output.write(png, toFileOrStdout: output)
            if json {
                Output.line(JSONValue.object([
                    ("file", .string(output ?? "-")), ("hash", .string(AvatarService.hash(png))), ("type", .string("image/png")),
                    ("bytes", .int(png.count)), ("width", .int(options.size)), ("height", .int(options.size)),
                ]).pretty)
            }
        }
    }
}
