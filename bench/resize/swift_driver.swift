// Bench driver for the real PNGImage module (release build): the same call
// `xmpp-avatar resize` makes. Usage: swift_driver IN OUT [SIZE] [unmanaged]
// (unmanaged: colour management off, the pipeline as it was before Little CMS)
import Glibc
import PNGImage

let args = CommandLine.arguments
guard args.count >= 3 else {
    fputs("usage: swift_driver IN OUT [SIZE] [unmanaged]\n", stderr)
    exit(2)
}
do {
    let size = args.count > 3 ? Int(args[3]) ?? 100 : 100
    let managed = !(args.count > 4 && args[4] == "unmanaged")
    let png = try AvatarPipeline.resize(file: args[1], options: ResizeOptions(size: size, manageColour: managed))
    guard let file = fopen(args[2], "wb") else { exit(1) }
    let written = png.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, file) }
    fclose(file)
    exit(written == png.count ? 0 : 1)
} catch {
    fputs("\(args[1]): \(error)\n", stderr)
    exit(1)
}
