/// Address-book exports as phones and desktop programs write them, made by the tests (never
/// copied files): the shapes of issue 39, shared by the reader's unit tests and the import's
/// end-to-end tests.
public enum VCardExportShapes {
    /// A BlackBerry-style 2.1 export: `PHOTO;ENCODING=BASE64:` on line 7, its Base64 folded
    /// over continuation lines and ended by a blank line, `base64` as given.
    public static func blackBerry(photo base64: String) -> String {
        var folded = ""
        var rest = Substring(base64)
        while !rest.isEmpty {
            folded += " " + rest.prefix(72) + "\r\n"
            rest = rest.dropFirst(72)
        }
        return "BEGIN:VCARD\r\nVERSION:2.1\r\nN:Doe;Jane;;;\r\nFN:Jane Doe\r\nTEL;CELL:+1 555 0100\r\n"
            + "ADR;WORK:;;1 Main St;Springfield;;12345;USA\r\nPHOTO;ENCODING=BASE64:\r\n" + folded + "\r\n"
            + "EMAIL;INTERNET:jane@example.org\r\nEND:VCARD\r\n"
    }

    /// An Outlook 2003 export: a form feed (U+000C) inside a quoted-printable FBURL.
    public static let outlook2003 = "BEGIN:VCARD\r\nVERSION:2.1\r\nN;LANGUAGE=en-us:Smith;John\r\nFN:John Smith\r\n"
        + "ORG:Example Inc.\r\nTITLE:Manager\r\nTEL;WORK;VOICE:(555) 555-0100\r\n"
        + "ADR;WORK;ENCODING=QUOTED-PRINTABLE:;;100 Main St=0D=0ASuite 5;Springfield;IL;62701;United States of A=\r\nmerica\r\n"
        + "FBURL;ENCODING=QUOTED-PRINTABLE:http://example.org/freebusy/john.vfb=0C\r\n"
        + "EMAIL;PREF;INTERNET:john@example.org\r\nREV:20061231T120000Z\r\nEND:VCARD\r\n"
}
