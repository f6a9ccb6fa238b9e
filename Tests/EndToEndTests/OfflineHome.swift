import Foundation

/// A private, empty home for running the tools without a server (no account, no session), with
/// a wide test image in it; removed by `remove()`.
struct OfflineHome {
    let path: String
    /// `path + "/wide.png"`: a 640×200 RGB PNG.
    let image: String

    /// The tools' environment: this home and its XDG directories, and a PATH of system tools only.
    var environment: [String: String] {
        ["HOME": path, "XDG_CONFIG_HOME": path + "/config", "XDG_CACHE_HOME": path + "/cache", "PATH": "/usr/bin:/bin"]
    }

    /// Makes the directory (`tag` names it) and the image (`seed` varies its pixels).
    init(_ tag: String, imageSeed: Int) throws {
        path = NSTemporaryDirectory() + "xt-" + tag + "-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        image = path + "/wide.png"
        try TestPNG.rgb(width: 640, height: 200, seed: imageSeed).write(to: URL(fileURLWithPath: image))
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}
