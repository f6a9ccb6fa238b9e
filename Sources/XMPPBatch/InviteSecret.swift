/// An invite as the journal keeps it, in the column that holds generated passwords (it is a
/// credential too, and is wiped with them once the report is on disk): `URI` or `URI\tPAGE`.
struct InviteSecret: Equatable {
    var uri: String
    var landingPage: String?

    init(uri: String, landingPage: String?) {
        self.uri = uri
        self.landingPage = landingPage?.isEmpty == true ? nil : landingPage
    }

    init?(journalText: String?) {
        guard let text = journalText, !text.isEmpty else { return nil }
        let parts = text.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
        self.init(uri: String(parts[0]), landingPage: parts.count > 1 ? String(parts[1]) : nil)
    }

    var journalText: String { uri + (landingPage.map { "\t" + $0 } ?? "") }
}
