import CryptoPrimitives

/// Exponential back-off with jitter, bounded: 0.25 s, 0.5 s, 1 s … up to `maximum`, each
/// scaled by a random factor so streams that failed together do not retry together.
public struct Backoff: Sendable {
    /// How the random factor spreads a delay.
    public enum Jitter: Sendable {
        /// [0.5, 1.5): centred on the nominal delay.
        case around
        /// [1, 1.5): never shorter than the nominal delay, for waits a manual page promises.
        case above
    }

    /// The first delay.
    public var base: Duration = .milliseconds(250)
    /// The longest delay.
    public var maximum: Duration = .seconds(15)
    /// The random factor's range.
    public var jitter: Jitter = .around

    /// Back-off from `base` up to `maximum`.
    public init(base: Duration = .milliseconds(250), maximum: Duration = .seconds(15), jitter: Jitter = .around) {
        self.base = base
        self.maximum = maximum
        self.jitter = jitter
    }

    /// The delay before retry number `failures` (1 for the first retry).
    public func delay(failures: Int) -> Duration {
        let exponent = min(max(failures - 1, 0), 20)
        let raw = base * (1 << exponent)
        let capped = raw > maximum ? maximum : raw
        let r = Crypto.randomBytes(2)
        let fraction = Double(Int(r[0]) << 8 | Int(r[1])) / 65536.0
        switch jitter {
        case .around: return capped * (0.5 + fraction)
        case .above: return capped * (1 + fraction / 2)
        }
    }
}
