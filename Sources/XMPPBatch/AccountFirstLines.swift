import XMPPStanzas

/// The line each account of a batch was first seen on, for telling duplicates, held compactly
/// so that a million rows cost megabytes, not the rows: each account is its domain's number and
/// its localpart's UTF-8 bytes in 1 MiB pages, found through an open-addressing table of 32-bit
/// offsets (SipHash, seeded per process, so no input can make the probes long). Exact: accounts
/// are compared by their bytes, which are canonical (`JID`: equal addresses have equal text).
struct AccountFirstLines {
    private static let pageSize = 1 << 20
    private var pages: [[UInt8]] = []
    /// Offsets into the pages, plus one; 0 is an empty slot. Never more than half full.
    private var slots = [UInt32](repeating: 0, count: 1 << 10)
    private var count = 0
    private var domains: [String: Int] = [:]
    private var key: [UInt8] = []

    /// The line `jid` was first seen on; nil when this is the first time, and then `line` is
    /// remembered as its first.
    mutating func firstLine(of jid: JID, line: Int) -> Int? {
        let domain = domains[jid.domain] ?? {
            let number = domains.count
            domains[jid.domain] = number
            return number
        }()
        key.removeAll(keepingCapacity: true)
        AccountFirstLines.appendNumber(domain, to: &key)
        let local = jid.local ?? ""
        AccountFirstLines.appendNumber(local.utf8.count, to: &key)
        key += local.utf8
        let mask = slots.count - 1
        var slot = AccountFirstLines.hash(key) & mask
        while slots[slot] != 0 {
            let offset = Int(slots[slot] - 1)
            if keyMatches(at: offset) { return readLine(at: offset + key.count) }
            slot = (slot + 1) & mask
        }
        slots[slot] = UInt32(store(line: line) + 1)
        count += 1
        if count * 2 > slots.count { grow() }
        return nil
    }

    /// Stores `key` and `line` in the pages; where they start.
    private mutating func store(line: Int) -> Int {
        var entry = key
        AccountFirstLines.appendNumber(line, to: &entry)
        if pages.isEmpty || pages[pages.count - 1].count + entry.count > AccountFirstLines.pageSize {
            var page: [UInt8] = []
            page.reserveCapacity(AccountFirstLines.pageSize)
            pages.append(page)
        }
        let offset = (pages.count - 1) * AccountFirstLines.pageSize + pages[pages.count - 1].count
        pages[pages.count - 1] += entry
        return offset
    }

    private func keyMatches(at offset: Int) -> Bool {
        let page = pages[offset / AccountFirstLines.pageSize], start = offset % AccountFirstLines.pageSize
        guard start + key.count <= page.count else { return false }
        for i in 0..<key.count where page[start + i] != key[i] { return false }
        return true
    }

    private func readLine(at offset: Int) -> Int {
        let page = pages[offset / AccountFirstLines.pageSize]
        var i = offset % AccountFirstLines.pageSize
        return AccountFirstLines.readNumber(page, at: &i)
    }

    /// Twice the slots, every entry placed again (its key read back from the pages).
    private mutating func grow() {
        var bigger = [UInt32](repeating: 0, count: slots.count * 2)
        let mask = bigger.count - 1
        for value in slots where value != 0 {
            let offset = Int(value - 1)
            let page = pages[offset / AccountFirstLines.pageSize]
            var end = offset % AccountFirstLines.pageSize
            let start = end
            _ = AccountFirstLines.readNumber(page, at: &end)
            end += AccountFirstLines.readNumber(page, at: &end)
            var slot = AccountFirstLines.hash(page[start..<end]) & mask
            while bigger[slot] != 0 { slot = (slot + 1) & mask }
            bigger[slot] = value
        }
        slots = bigger
    }

    private static func hash(_ bytes: some Collection<UInt8>) -> Int {
        var hasher = Hasher()
        bytes.withContiguousStorageIfAvailable { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        return hasher.finalize()
    }

    /// A non-negative number in 7-bit groups, low first (LEB128).
    private static func appendNumber(_ value: Int, to bytes: inout [UInt8]) {
        var rest = UInt(value)
        while rest >= 0x80 {
            bytes.append(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    private static func readNumber(_ bytes: [UInt8], at i: inout Int) -> Int {
        var value = 0, shift = 0
        while true {
            let byte = bytes[i]
            i += 1
            value |= Int(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
    }
}
