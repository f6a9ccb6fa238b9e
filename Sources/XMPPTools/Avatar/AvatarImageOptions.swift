import Arguments
import PNGImage

/// The options `set` and `resize` share: which image, and how it becomes a square PNG.
enum AvatarImageOptions {
    static let image = PositionalSpec("IMAGE", help: "A PNG, JPEG or WebP file, or - for standard input.",
                                      completion: .file(extensions: ["png", "jpg", "jpeg", "webp"]))
    static let size = Option<Int>.integer("size", value: "PIXELS", help: "Side of the square avatar, 16 to 1024.",
                                          in: ResizeOptions.sizeRange, default: 100)
    static let fit = Option<FitMode>.choice(
        "fit", value: "MODE", help: "crop: cut the long side to the centred square; pad: keep it all, with transparent borders.",
        default: .crop)

    /// The IMAGE argument (`-`, standard input, when absent).
    static func path(_ command: ParsedCommand) -> String { command.argument(image.name) ?? "-" }

    /// `--size` and `--fit` as resize options.
    static func resizeOptions(_ command: ParsedCommand) throws(ArgumentError) -> ResizeOptions {
        ResizeOptions(size: try command.value(size) ?? 100, fit: try command.value(fit) ?? .crop)
    }
}
