/// One fuzz target: the code under test, run on one input. What is around it is the same for
/// every target: libFuzzer's `LLVMFuzzerTestOneInput` calls `testOneInput` (the `@_cdecl` symbol
/// itself is declared in each target's `EntryPoint.swift`, where it can name that target); in
/// plain builds `@main extension Target: ReplayedFuzzTarget` replays input files through
/// `FuzzReplay`.
public protocol FuzzTarget {
    /// Runs one input; a broken invariant aborts (`FuzzReplay.invariant`).
    static func run(_ data: UnsafeBufferPointer<UInt8>)
}

extension FuzzTarget {
    /// What `LLVMFuzzerTestOneInput` does with every input: runs it and returns 0 (the input may
    /// enter the corpus).
    public static func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
        run(UnsafeBufferPointer(start: data, count: size))
        return 0
    }
}

/// A fuzz target built without libFuzzer: its `main` replays input files (see `FuzzReplay`).
public protocol ReplayedFuzzTarget: FuzzTarget {
    /// The executable's name, as the replay reports it (`FuzzXML: replayed 3 inputs`).
    static var name: String { get }
}

extension ReplayedFuzzTarget {
    public static func main() {
        FuzzReplay.main(name: name) { run($0) }
    }
}
