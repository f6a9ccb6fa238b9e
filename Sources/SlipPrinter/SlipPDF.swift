import CPangoCairo
import Handouts

/// The slips as a PDF: each group starts a page under its heading, eight slips a page (two
/// columns of four) with dashed lines to cut along. Pango lays the text out (shaping, right-to-
/// left names, fontconfig's fallback to a CJK font when DejaVu lacks a character) and cairo
/// draws it, embedding the fonts' subsets, so the text layer reads back (pdftotext) and the
/// file prints the same anywhere.
public struct SlipPDF: Sendable {
    public var sheet: SlipSheet

    public init(_ sheet: SlipSheet = SlipSheet()) {
        self.sheet = sheet
    }

    /// The monospaced font of passwords and addresses: DejaVu Sans Mono tells O from 0 and
    /// l, 1 and I apart (Debian's fonts-dejavu-core).
    static let monoFamily = "DejaVu Sans Mono"
    static let sansFamily = "DejaVu Sans"

    // Layout, in points.
    static let margin = 28.0
    static let headingHeight = 34.0
    static let padding = 11.0
    static var columns: Int { SlipSheet.columns }
    static var rows: Int { SlipSheet.rows }
    static var slipsPerPage: Int { SlipSheet.slipsPerPage }

    /// The PDF's bytes. Fails when the monospaced font is not installed (a password in a
    /// substitute font could show look-alikes) or cairo cannot write.
    public func render(_ groups: [SlipGroup]) throws(SlipError) -> [UInt8] {
        try Self.requireFont(Self.monoFamily, package: "fonts-dejavu-core")
        let sink = PDFSink()
        let (width, height) = sheet.paper.size
        let surface = cairo_pdf_surface_create_for_stream({ closure, data, length in
            guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
            Unmanaged<PDFSink>.fromOpaque(closure).takeUnretainedValue().bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
            return CAIRO_STATUS_SUCCESS
        }, Unmanaged.passUnretained(sink).toOpaque(), width, height)
        guard let surface else { throw .pdf(reason: "cairo made no surface") }
        defer { cairo_surface_destroy(surface) }
        // PDF 1.4, as cairo 1.16 (Debian 12) writes it: cairo 1.18 (Debian 13) otherwise packs the
        // objects into compressed object streams (PDF 1.5), which older printers' interpreters
        // and simple readers (the tests' page count) do not read.
        cairo_pdf_surface_restrict_to_version(surface, CAIRO_PDF_VERSION_1_4)
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_TITLE, sheet.title)
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, "xmpp-register handout")
        guard let cr = cairo_create(surface) else { throw .pdf(reason: "cairo made no context") }
        defer { cairo_destroy(cr) }
        var qrFailure: SlipError?
        var first = true
        for group in groups where !group.slips.isEmpty {
            var index = 0
            var page = 0
            while index < group.slips.count {
                if !first { cairo_show_page(cr) }
                first = false
                drawHeading(cr, group.heading + (page > 0 ? "  (continued)" : ""))
                for slot in 0..<Self.slipsPerPage where index < group.slips.count {
                    do { try drawSlip(cr, group.slips[index], slot: slot) } catch { qrFailure = qrFailure ?? error }
                    index += 1
                }
                page += 1
            }
        }
        if let qrFailure { throw qrFailure }
        cairo_surface_finish(surface)
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else { throw .pdf(reason: String(cString: cairo_status_to_string(status))) }
        return sink.bytes
    }

    /// The rectangle of slip `slot` (0 top left, row by row).
    func frame(slot: Int) -> (x: Double, y: Double, width: Double, height: Double) {
        let (pageWidth, pageHeight) = sheet.paper.size
        let width = (pageWidth - 2 * Self.margin) / Double(Self.columns)
        let height = (pageHeight - 2 * Self.margin - Self.headingHeight) / Double(Self.rows)
        return (Self.margin + Double(slot % Self.columns) * width,
                Self.margin + Self.headingHeight + Double(slot / Self.columns) * height, width, height)
    }

    private func drawHeading(_ cr: OpaquePointer, _ text: String) {
        cairo_set_source_rgb(cr, 0, 0, 0)
        _ = Text(cr, text, font: Self.sansFamily + " Bold 18", width: sheet.paper.size.width - 2 * Self.margin, lines: 1)
            .draw(x: Self.margin, y: Self.margin)
    }

    private func drawSlip(_ cr: OpaquePointer, _ slip: Slip, slot: Int) throws(SlipError) {
        let f = frame(slot: slot)
        // The cut line.
        cairo_save(cr)
        cairo_set_source_rgb(cr, 0.6, 0.6, 0.6)
        cairo_set_line_width(cr, 0.5)
        var dashes: [Double] = [4, 3]
        cairo_set_dash(cr, &dashes, 2, 0)
        cairo_rectangle(cr, f.x, f.y, f.width, f.height)
        cairo_stroke(cr)
        cairo_restore(cr)

        cairo_save(cr)
        defer { cairo_restore(cr) }
        // Nothing a long name or text draws leaves its slip.
        cairo_rectangle(cr, f.x, f.y, f.width, f.height)
        cairo_clip(cr)
        cairo_set_source_rgb(cr, 0, 0, 0)
        let pad = Self.padding
        let inner = f.width - 2 * pad
        var y = f.y + pad
        if !slip.name.isEmpty {
            // On one line: a long name in a smaller size, down to 9.5 pt, and only then cut short.
            let sizes = ["14", "12.5", "11", "9.5"]
            let fitting = sizes.first { Text(cr, slip.name, font: Self.sansFamily + " Bold " + $0, width: .infinity).width <= inner } ?? "9.5"
            y += Text(cr, slip.name, font: Self.sansFamily + " Bold " + fitting, width: inner, lines: 1).draw(x: f.x + pad, y: y) + 5
        }
        // The sign-in text across the foot of the slip; the rest above it.
        let text = Text(cr, slip.isInvite ? sheet.inviteText : sheet.passwordText, font: Self.sansFamily + " 8", width: inner, wrap: true, lines: 4)
        let footTop = f.y + f.height - pad - text.height
        cairo_set_source_rgb(cr, 0.2, 0.2, 0.2)
        _ = text.draw(x: f.x + pad, y: footTop)
        cairo_set_source_rgb(cr, 0, 0, 0)
        var column = inner
        if case .invite(let uri) = slip.secret {
            let code = try QRCode(uri)
            let side = min(footTop - 4 - y, inner * 0.5)
            column = inner - side - 6
            drawCode(cr, code, x: f.x + f.width - pad - side, y: y, side: side)
        }
        let x = f.x + pad
        y += label(cr, "Address", x: x, y: y, width: column)
        y += Text(cr, slip.address, font: Self.monoFamily + " 10.5", width: column, wrap: true).draw(x: x, y: y) + 4
        switch slip.secret {
        case .password(let password):
            y += label(cr, "Password", x: x, y: y, width: column)
            y += Text(cr, password, font: Self.monoFamily + " Bold 14", width: column, wrap: true).draw(x: x, y: y) + 4
        case .invite:
            y += label(cr, "Invite", x: x, y: y, width: column)
            y += Text(cr, "Scan the code", font: Self.sansFamily + " 10.5", width: column, wrap: true).draw(x: x, y: y) + 1
            if let until = slip.validUntil {
                y += Text(cr, "before " + until, font: Self.sansFamily + " Bold 8", width: column, wrap: true, lines: 2).draw(x: x, y: y) + 4
            } else {
                y += 3
            }
        }
        y += label(cr, "Server", x: x, y: y, width: column)
        _ = Text(cr, slip.server, font: Self.sansFamily + " 10.5", width: column, wrap: true).draw(x: x, y: y)
    }

    /// A small grey caption; its height.
    private func label(_ cr: OpaquePointer, _ text: String, x: Double, y: Double, width: Double) -> Double {
        cairo_save(cr)
        cairo_set_source_rgb(cr, 0.35, 0.35, 0.35)
        let height = Text(cr, text, font: Self.sansFamily + " 7.5", width: width, lines: 1).draw(x: x, y: y)
        cairo_restore(cr)
        return height + 1
    }

    /// The code with a quiet zone of 4 modules (ISO/IEC 18004) as an image of one pixel a
    /// module, scaled without interpolation (PDF /Interpolate false: every viewer and printer
    /// draws sharp square modules). As vector rectangles, cairo wrote each module's corners as
    /// decimal numbers: 5 KB a code and three quarters of the time (bench/handout).
    private func drawCode(_ cr: OpaquePointer, _ code: QRCode, x: Double, y: Double, side: Double) {
        let module = side / Double(code.size + 8)
        guard let image = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(code.size), Int32(code.size)) else { return }
        defer { cairo_surface_destroy(image) }
        guard cairo_surface_status(image) == CAIRO_STATUS_SUCCESS, let data = cairo_image_surface_get_data(image) else { return }
        cairo_surface_flush(image)
        let stride = Int(cairo_image_surface_get_stride(image))
        data.withMemoryRebound(to: UInt32.self, capacity: stride / 4 * code.size) { pixels in
            for row in 0..<code.size {
                for column in 0..<code.size {
                    pixels[row * stride / 4 + column] = code.isDark(x: column, y: row) ? 0x000000 : 0xFFFFFF
                }
            }
        }
        cairo_surface_mark_dirty(image)
        cairo_save(cr)
        cairo_translate(cr, x + 4 * module, y + 4 * module)
        cairo_scale(cr, module, module)
        cairo_set_source_surface(cr, image, 0, 0)
        cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_NEAREST)
        cairo_rectangle(cr, 0, 0, Double(code.size), Double(code.size))
        cairo_fill(cr)
        cairo_restore(cr)
    }

    /// Fails unless fontconfig finds `family` itself rather than a substitute.
    static func requireFont(_ family: String, package: String) throws(SlipError) {
        guard let map = pango_cairo_font_map_get_default(), let context = pango_font_map_create_context(map) else {
            throw .pdf(reason: "Pango has no font map")
        }
        defer { g_object_unref(UnsafeMutableRawPointer(context)) }
        let description = pango_font_description_from_string(family + " 10")
        defer { pango_font_description_free(description) }
        guard let font = pango_font_map_load_font(map, context, description) else {
            throw .pdf(reason: "no font \(family) (Debian: \(package))")
        }
        defer { g_object_unref(UnsafeMutableRawPointer(font)) }
        let found = pango_font_describe(font)
        defer { pango_font_description_free(found) }
        let name = pango_font_description_get_family(found).map { String(cString: $0) } ?? ""
        guard name == family else {
            throw .pdf(reason: "the font \(family) is not installed (fontconfig offers \(name.isEmpty ? "none" : name) instead; Debian: \(package))")
        }
    }
}

extension Slip {
    /// The server: the address's domain.
    var server: String {
        guard let at = address.lastIndex(of: "@") else { return address }
        return String(address[address.index(after: at)...])
    }

    var isInvite: Bool {
        if case .invite = secret { return true }
        return false
    }
}

/// The PDF's bytes as cairo writes them.
private final class PDFSink {
    var bytes: [UInt8] = []
}

/// One block of text laid out by Pango in a given width.
private struct Text {
    let cr: OpaquePointer
    let text: String
    let font: String
    let wrapWidth: Double
    let wrap: Bool
    let lines: Int

    /// `lines` 0: as many as it takes; else at most that many, the last ending in an ellipsis.
    init(_ cr: OpaquePointer, _ text: String, font: String, width: Double, wrap: Bool = false, lines: Int = 0) {
        self.cr = cr
        self.text = text
        self.font = font
        self.wrapWidth = width
        self.wrap = wrap
        self.lines = lines
    }

    /// Its height once laid out.
    var height: Double { withLayout { _ in }.height }

    /// Its width once laid out (with `width` .infinity: on one line).
    var width: Double { withLayout { _ in }.width }

    /// Draws it with its top left at (x, y); its height.
    func draw(x: Double, y: Double) -> Double {
        withLayout { layout in
            cairo_move_to(cr, x, y)
            pango_cairo_show_layout(cr, layout)
        }.height
    }

    /// Lays it out, hands the layout to `body`; the layout's size.
    private func withLayout(_ body: (OpaquePointer) -> Void) -> (width: Double, height: Double) {
        guard let layout = pango_cairo_create_layout(cr) else { return (0, 0) }
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        // Sizes in points on a surface measured in points (Pango assumes 96 dpi otherwise).
        pango_cairo_context_set_resolution(pango_layout_get_context(layout), 72)
        pango_layout_context_changed(layout)
        let description = pango_font_description_from_string(font)
        defer { pango_font_description_free(description) }
        pango_layout_set_font_description(layout, description)
        // -1: no width, one line.
        pango_layout_set_width(layout, wrapWidth.isFinite ? Int32(wrapWidth * Double(PANGO_SCALE)) : -1)
        // Addresses and passwords break anywhere (they have no words); prose between words.
        pango_layout_set_wrap(layout, wrap ? PANGO_WRAP_WORD_CHAR : PANGO_WRAP_WORD)
        if lines > 0 {
            pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END)
            pango_layout_set_height(layout, Int32(-lines))
        }
        pango_layout_set_text(layout, Self.printable(text), -1)
        body(layout)
        var w: Int32 = 0
        var h: Int32 = 0
        pango_layout_get_pixel_size(layout, &w, &h)
        return (Double(w), Double(h))
    }

    /// Control characters (line breaks, C1, but not the bidi marks Pango applies within the
    /// block) as U+FFFD: a name is one paragraph.
    static func printable(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            out.append(scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) ? "\u{FFFD}" : scalar)
        }
        return String(out)
    }
}
