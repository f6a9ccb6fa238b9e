import CPNGStream

/// An image whose header has been read by CPNGStream; decodes once.
/// Lives inside one call and is never shared.
final class ImageSource {
    private let handle: OpaquePointer
    /// What the header declares.
    let info: cps_info
    private let path: String?

    private init(handle: OpaquePointer, info: cps_info, path: String?) {
        self.handle = handle
        self.info = info
        self.path = path
    }

    deinit { cps_close(handle) }

    /// Opens bytes that must outlive the source (the caller keeps them pinned).
    static func open(bytes: UnsafeBufferPointer<UInt8>) throws(PNGImageError) -> ImageSource {
        var info = cps_info()
        var error = cps_error()
        guard let base = bytes.baseAddress, bytes.count > 0 else { throw .notAnImage }
        guard let handle = cps_open_memory(base, bytes.count, &info, &error) else {
            throw ImageSource.map(error, path: nil)
        }
        return ImageSource(handle: handle, info: info, path: nil)
    }

    /// Opens a file for streaming; only the header is read now.
    static func open(path: String) throws(PNGImageError) -> ImageSource {
        var info = cps_info()
        var error = cps_error()
        guard let handle = cps_open_file(path, &info, &error) else {
            throw ImageSource.map(error, path: path)
        }
        return ImageSource(handle: handle, info: info, path: path)
    }

    var width: Int { Int(info.width) }
    var height: Int { Int(info.height) }
    var format: String {
        switch info.format {
        case Int32(CPS_FORMAT_JPEG): return "jpeg"
        case Int32(CPS_FORMAT_WEBP): return "webp"
        default: return "png"
        }
    }
    /// EXIF orientation, 1 when none.
    var orientation: Int { Int(info.orientation) }

    /// Whether the header declares colours the decode converts to sRGB (ICC profile, gAMA, cHRM).
    var colourTagged: Bool { info.colour_tagged != 0 }

    /// Decodes through the box filter into a fresh out_width × out_height RGBA canvas,
    /// converting to sRGB first unless `manageColour` is off.
    func resample(_ geometry: cps_geometry, manageColour: Bool = true) throws(PNGImageError) -> [UInt8] {
        cps_set_colour_management(handle, manageColour ? 1 : 0)
        var geometry = geometry
        var error = cps_error()
        let count = Int(geometry.out_width) * Int(geometry.out_height) * 4
        var status: Int32 = 0
        let pixels = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            status = cps_resample(handle, &geometry, buffer.baseAddress, &error)
            initialized = status == 0 ? count : 0
        }
        guard status == 0 else { throw ImageSource.map(error, path: path) }
        return pixels
    }

    /// The bytes a CPNGStream encoder (`cps_write_png`, `cps_write_jpeg`) writes into the buffer
    /// `write` passes it; its failure becomes the module's error.
    static func encoded(_ write: (inout cps_buffer, inout cps_error) -> Int32) throws(PNGImageError) -> [UInt8] {
        var buffer = cps_buffer()
        var error = cps_error()
        let status = write(&buffer, &error)
        defer { cps_buffer_free(&buffer) }
        guard status == 0 else { throw map(error, path: nil) }
        guard let data = buffer.data else { throw .encodeFailed("no output") }
        return Array(UnsafeBufferPointer(start: data, count: buffer.length))
    }

    /// Turns a C status and message into the module's error.
    static func map(_ error: cps_error, path: String?) -> PNGImageError {
        let message = withUnsafeBytes(of: error.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        switch UInt32(bitPattern: error.status) {
        case CPS_NOT_IMAGE.rawValue: return .notAnImage
        case CPS_TRUNCATED.rawValue: return .truncated
        case CPS_CORRUPT.rawValue: return .corrupt(message)
        case CPS_UNSUPPORTED.rawValue: return .unsupported(message)
        case CPS_IO.rawValue: return .io(path: path ?? "input", message)
        case CPS_NO_MEMORY.rawValue: return .unsupported("out of memory")
        case CPS_ENCODE.rawValue: return .encodeFailed(message)
        default: return .corrupt(message.isEmpty ? "decoder failed" : message)
        }
    }
}
