/// XEP-0133 service administration: the command nodes (under `http://jabber.org/protocol/admin#`)
/// and the field names of their forms, as Prosody's mod_admin_adhoc and ejabberd's
/// mod_configure use them.
public enum ServiceAdministration {
    /// The user commands this project runs.
    public enum Command: String, Sendable, CaseIterable {
        case addUser = "add-user"
        case deleteUser = "delete-user"
        case disableUser = "disable-user"
        case reenableUser = "reenable-user"
        case changeUserPassword = "change-user-password"
        case endUserSession = "end-user-session"

        /// The command's node.
        public var node: String { Namespace.admin + "#" + rawValue }
    }

    /// The single account a command is about (add-user, change-user-password).
    public static let accountJID = "accountjid"
    /// The accounts a command is about (delete-user, disable-user, reenable-user, end-user-session).
    public static let accountJIDs = "accountjids"
    /// The account's (new) password.
    public static let password = "password"
    /// The password again (add-user).
    public static let passwordVerify = "password-verify"
    /// add-user's optional address fields.
    public static let email = "email"

    /// The values answering `command`'s form for `account` (and `password` where it takes one).
    /// Both the single (`accountjid`) and the list (`accountjids`) names are offered, so the one
    /// the server's form has is used; the other is dropped by `answer(_:values:)`.
    public static func values(for command: Command, account: JID, password: String? = nil) -> [String: [String]] {
        var values: [String: [String]] = [accountJID: [account.description], accountJIDs: [account.description]]
        if let password {
            values[Self.password] = [password]
            if command == .addUser { values[passwordVerify] = [password] }
        }
        return values
    }

    /// `values` restricted to the fields `form` has, answered: the submission for one account.
    public static func answer(_ form: DataForm, values: [String: [String]]) throws(DataFormAnswerError) -> DataForm {
        let names = Set(form.fields.compactMap(\.name))
        return try form.submission(values.filter { names.contains($0.key) })
    }
}
