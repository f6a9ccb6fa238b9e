import Arguments

/// `xmpp-avatar`: its page-level declaration and its subcommands.
public enum AvatarTool {
    static let tool = Tool(
        name: "xmpp-avatar",
        summary: "set, fetch and remove XMPP user avatars (XEP-0084 and vCard PHOTO)",
        description: [
            "xmpp-avatar turns any PNG, JPEG or WebP image into a small square PNG and publishes it both ways clients look for "
                + "avatars: as XEP-0084 User Avatar over PEP (data node, then metadata; the id is the SHA-1 of the PNG) "
                + "and as the PHOTO of the vcard-temp vCard (XEP-0153), merged into the existing card so no other field "
                + "changes. It fetches anyone's avatar, PEP first and the vCard as fallback, and checks its SHA-1.",
            "Images are decoded row by row and area-averaged on the fly, so a 12-megapixel photo resizes in a few MB. "
                + "resize runs the same pipeline offline, without an account. A WebP file (up to 64 MB, not "
                + "animated) is read whole and decoded by libwebp already scaled to about twice the output size; "
                + "its colours are taken as sRGB and its orientation as stored.",
            "Colours are converted to sRGB with Little CMS as the rows are decoded: an embedded ICC profile (PNG iCCP, "
                + "JPEG APP2, such as a phone photo's Display P3), or a PNG's gAMA and cHRM (a gAMA of 1/2.2 alone is "
                + "taken as sRGB). A profile that does not fit the pixels is ignored. The output PNG is tagged sRGB. "
                + "EXIF orientation (JPEG, and PNG eXIf) is applied.",
            "Fetched avatars are cached once per SHA-1 in $XDG_CACHE_HOME/xmpp-tools/cache.sqlite3; an image already "
                + "there is not downloaded again (XEP-0084 §4.4), and --cached answers without the network.",
        ],
        commands: [Set.self, Get.self, Info.self, Remove.self, Resize.self],
        examples: [
            Example("xmpp-avatar set ~/photo.jpg --fit pad", "Publish a photo whole, padded to a square."),
            Example("xmpp-avatar get alice@example.org > alice.png", "Save someone's avatar through a redirect."),
            Example("xmpp-avatar info bob --json | jq -r .hash", "Print the SHA-1 of bob's avatar."),
            Example("xmpp-avatar get bob --cached | display -", "Show a cached avatar without connecting."),
            Example("curl -s https://example.org/me.png | xmpp-avatar set -", "Publish an image from a pipe."),
            Example("for f in *.jpg; do xmpp-avatar resize \"$f\" -o \"${f%.jpg}.png\" --size 64; done",
                    "Make 64x64 avatars of a folder of photos, offline."),
            Example("xmpp-avatar remove", "Remove the account's avatar everywhere."),
        ],
        seeAlso: ["xmpp-login(1)", "xmpp-vcard(1)", "xmpp-tools(7)"]
    )

    /// The declaration that drives parsing, help, man page and completions.
    public static var spec: ToolSpec { tool.spec }

    /// Runs the tool.
    public static func main() -> Never { tool.main() }
}
