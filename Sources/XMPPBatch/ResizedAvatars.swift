/// Avatars resized for one batch run, by image path (or digest of an inline image): when many rows share an image (a company
/// logo for everyone), it is decoded and resized once, not once per row.
final class ResizedAvatars {
    /// Most images kept (a 100×100 PNG is at most ~40 KB): rows with images of their own gain
    /// nothing from the cache and must not fill memory.
    static let capacity = 256

    private var images: [String: [UInt8]] = [:]

    /// The PNG to publish for `profile`'s avatar, or nil when it has none.
    func png(for profile: Profile) throws -> [UInt8]? {
        guard let key = profile.avatar?.key else { return nil }
        if let png = images[key] { return png }
        guard let png = try ProfileApplier.prepareAvatar(profile) else { return nil }
        if images.count < ResizedAvatars.capacity { images[key] = png }
        return png
    }
}
